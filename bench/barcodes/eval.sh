#!/usr/bin/env bash
# Barcodes: exact matches per folder of ../shared/data/barcodes (zxing-cpp's blackbox images) for
# zbar alone, zxing-cpp alone and snapsort's barcode stage, decoding time per image, and the
# codes reported on samples/negatives (each one a false positive); then the screenshots preset's
# codes against the rendered screenshots' expected values.
set -euo pipefail
DATA=${BARCODE_DATA:-../shared/data/barcodes}
out="$BENCH_RESULTS/barcodes.md"
if [ -d "$DATA" ]; then
  "$SNAPSORT" eval-barcodes "$DATA" --negatives samples/negatives > "$out"
else
  { echo "## Barcodes"; echo; echo "$DATA is absent: only the negatives were measured."; echo; } > "$out"
  "$SNAPSORT" eval-barcodes samples/negatives --negatives samples/negatives --no-baselines | sed -n '/^Negatives/,$p' >> "$out"
fi
shots="$BENCH_IMAGES/screenshots"
run="$BENCH_WORK/out-screenshots-j2"
if [ -d "$shots" ] && [ -f "$run/records.jsonl" ]; then
  "$PY" - "$shots" "$run" >> "$out" <<'PY'
import json, os, sys
shots, run = sys.argv[1], sys.argv[2]
ok = total = 0
for line in open(os.path.join(run, "records.jsonl")):
    record = json.loads(line)
    expected_path = os.path.join(shots, os.path.splitext(record["file"])[0] + ".expected.json")
    if not os.path.exists(expected_path):
        continue
    expected = [(b["symbology"], b["value"]) for b in (json.load(open(expected_path)).get("card") or {}).get("barcodes") or []]
    actual = [(b["symbology"], b["value"]) for b in (record.get("card") or {}).get("barcodes") or []]
    total += 1
    ok += sorted(expected) == sorted(actual)
summary = json.load(open(os.path.join(run, "run.json")))
rate = summary["counts"]["inputs"] / summary["wall_seconds"] if summary.get("wall_seconds") else 0
print(f"\nScreenshots preset (jobs=2): {ok} of {total} screenshots give exactly their expected codes; "
      f"{rate:.1f} screenshots/s; barcode p50 {summary['stages']['barcode']['p50_ms']} ms, "
      f"load p50 {summary['stages']['load']['p50_ms']} ms.")
PY
fi
