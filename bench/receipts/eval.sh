#!/usr/bin/env bash
# Receipts: total, date and merchant accuracy on the real receipts of ../shared/data/receipts
# (sroie, softmatic_de) and line-item F1 on the rendered receipts, for snapsort (receipts preset)
# and, in the same run, the naive baseline (tesseract CLI on the image + first line / first date /
# largest TOTAL amount). Seconds per receipt on one core (--jobs 1 / one baseline process at a time).
set -euo pipefail
DATA=${RECEIPTS_DATA:-../shared/data/receipts}
out="$BENCH_RESULTS/receipts.md"
{
  echo "## Receipts"
  echo
  echo "Compared: total as decimals to the cent; date as ISO dates; merchant case-insensitive on letters and"
  echo "digits with difflib ratio ≥ 0.8 (a one-word label such as \`lidl\` also matches any predicted word that"
  echo "close); items: an expected item matches an unused predicted one when amounts are equal and descriptions"
  echo "have ratio ≥ 0.7 (F1 over all items). Seconds: snapsort's sum of per-stage medians at --jobs 1;"
  echo "the baseline's median wall time per image, tesseract CLI process included."
  echo
  echo "| run | total | date | merchant | median s/receipt |"
  echo "|---|---|---|---|---|"
  for set in sroie softmatic_de; do
    [ -d "$DATA/$set" ] || continue
    dir="$BENCH_WORK/out-receipts-$set"
    "$SNAPSORT" run "$DATA/$set" --preset receipts --out "$dir" --jobs 1 --fresh --quiet || [ $? -le 1 ]
    "$PY" bench/receipts/score.py "$DATA/$set" "$dir/records.jsonl" "snapsort, $set" --run-json "$dir/run.json"
    "$PY" bench/receipts/naive_baseline.py "$DATA/$set" "$BENCH_WORK/baseline-receipts-$set.jsonl"
    "$PY" bench/receipts/score.py "$DATA/$set" "$BENCH_WORK/baseline-receipts-$set.jsonl" "naive baseline, $set"
  done
  echo
  echo "| rendered receipts | total | date | merchant | item F1 | median s/receipt |"
  echo "|---|---|---|---|---|---|"
  rendered="$BENCH_IMAGES/receipts"
  "$PY" bench/receipts/score.py "$rendered" "$BENCH_WORK/out-receipts-j1/records.jsonl" "snapsort" --items \
    --run-json "$BENCH_WORK/out-receipts-j1/run.json"
  "$PY" bench/receipts/naive_baseline.py "$rendered" "$BENCH_WORK/baseline-receipts-rendered.jsonl"
  "$PY" bench/receipts/score.py "$rendered" "$BENCH_WORK/baseline-receipts-rendered.jsonl" "naive baseline" --items
} > "$out"
