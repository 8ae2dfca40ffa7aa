#!/usr/bin/env bash
# Receipts: total, date and merchant accuracy on the real receipts of ../shared/data/receipts,
# cross-validated by folds.json (SROIE 345, German 14 as test), snapsort on its OCR and on the
# dataset's own lines beside the naive baseline (ocr_gap.sh), and line-item F1 on the rendered
# receipts, for snapsort (receipts preset) and, in the same run, the naive baseline (tesseract CLI
# on the image + first line / first date / largest TOTAL amount). Seconds per receipt on one core
# (--jobs 1 / one baseline process at a time). snapsort's OCR of the 359 real receipts takes ~15 min
# of CPU: RECEIPTS_RECORDS (and RECEIPTS_NAIVE) reuse earlier runs' records instead (ocr_gap.sh).
set -euo pipefail
DATA=${RECEIPTS_DATA:-../shared/data/receipts}
out="$BENCH_RESULTS/receipts.md"
{
  echo "## Receipts"
  echo
  echo "Compared: total as decimals to the cent; date as ISO dates; merchant case-insensitive on letters and"
  echo "digits with difflib ratio ≥ 0.8 (a one-word label such as \`lidl\` also matches any predicted word that"
  echo "close); items: an expected item matches an unused predicted one when amounts are equal and descriptions"
  echo "have ratio ≥ 0.7 (F1 over all items). Seconds of the rendered receipts: snapsort's sum of per-stage"
  echo "medians at --jobs 1; the baseline's median wall time per image, tesseract CLI process included."
  echo
  if [ -d "$DATA" ]; then
    SNAPSORT="$SNAPSORT" PY="$PY" RECEIPTS_DATA="$DATA" WORK="$BENCH_WORK/receipts-ocr-gap" bench/receipts/ocr_gap.sh
  fi
  echo
  echo "| rendered receipts | total | date | merchant | item F1 | median s/receipt |"
  echo "|---|---|---|---|---|---|"
  rendered="$BENCH_IMAGES/receipts"
  "$PY" bench/receipts/score.py "$rendered" "$BENCH_WORK/out-receipts-j1/records.jsonl" "snapsort" --items \
    --run-json "$BENCH_WORK/out-receipts-j1/run.json"
  "$PY" bench/receipts/naive_baseline.py "$rendered" "$BENCH_WORK/baseline-receipts-rendered.jsonl"
  "$PY" bench/receipts/score.py "$rendered" "$BENCH_WORK/baseline-receipts-rendered.jsonl" "naive baseline" --items
} > "$out"
