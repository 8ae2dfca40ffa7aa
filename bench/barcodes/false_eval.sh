#!/usr/bin/env bash
# Runs snapsort over a false-code corpus (images with truth JSON beside them: bench/gen/cards.py
# renders, bench/barcodes/degrade.py copies) with the cards preset's and the default pipeline's
# stages up to the barcode stage (bench/barcodes/false/*.json) and the screenshots preset, with the
# barcode trace on, and scores each run with false_codes.py (issue #26 item 1).
#   [PRESETS="cards screenshots default"] bench/barcodes/false_eval.sh CORPUS OUTDIR [JOBS]   (from the repository root)
set -euo pipefail
CORPUS=${1:?CORPUS}; OUT=${2:?OUTDIR}; JOBS=${3:-1}
SNAPSORT=${SNAPSORT:-.build-test/release/snapsort}
PY=${PY:-/work/main/bench/.venv/bin/python}
mkdir -p "$OUT"
for preset in ${PRESETS:-cards screenshots default}; do
  case $preset in
    screenshots) args=(--preset screenshots) ;;
    *) args=(--config "bench/barcodes/false/$preset-codes.json") ;;
  esac
  SNAPSORT_BARCODE_TRACE=1 OMP_THREAD_LIMIT=1 "$SNAPSORT" run "$CORPUS" "${args[@]}" -j "$JOBS" --fresh --quiet \
    --out "$OUT/$preset" 2> "$OUT/$preset.trace" || true
  "$PY" bench/barcodes/false_codes.py "$CORPUS" "$OUT/$preset/records.jsonl" --trace "$OUT/$preset.trace" \
    --label "$preset" --json "$OUT/$preset.json" > "$OUT/$preset.md"
  sed -n '/^| all/p' "$OUT/$preset.md" | sed "s/^/$preset /"
done
