#!/usr/bin/env bash
# Runs snapsort over ../shared/data/barcodes and samples/negatives with the screenshots preset and
# the default pipeline, and scores each run per folder and split (split.json) with score_split.py.
#   bench/barcodes/split_eval.sh OUTDIR [--classify]     (from the repository root)
set -euo pipefail
OUT=${1:?OUTDIR}; shift || true
SNAPSORT=${SNAPSORT:-.build-test/release/snapsort}
PY=${PY:-/work/main/bench/.venv/bin/python}
DATA=${BARCODE_DATA:-../shared/data/barcodes}
mkdir -p "$OUT"
for preset in screenshots default; do
  args=(); [ "$preset" = default ] || args=(--preset "$preset")
  OMP_THREAD_LIMIT=1 "$SNAPSORT" run "$DATA" "${args[@]}" -j 1 --out "$OUT/$preset" > "$OUT/$preset.log" 2>&1 || true
  OMP_THREAD_LIMIT=1 "$SNAPSORT" run samples/negatives "${args[@]}" -j 1 --out "$OUT/$preset-neg" > /dev/null 2>&1 || true
  "$PY" bench/barcodes/score_split.py "$OUT/$preset/records.jsonl" --run-json "$OUT/$preset/run.json" \
    --negatives "$OUT/$preset-neg/records.jsonl" --label "$preset" "$@" > "$OUT/$preset.md"
  sed -n '/^| \*\*train/,/^negatives/p' "$OUT/$preset.md"
done
