#!/usr/bin/env bash
# The receipt extractor's ceiling and what OCR costs it (issue #23), in one run: on the real
# receipts, cross-validated by the fixed split (folds.json: per fold, pooled, mean ± sd; German 14
# as test), side by side
#   * snapsort on its own OCR (records of `snapsort run --preset receipts`),
#   * snapsort's extractor on the dataset's own text lines (`snapsort receipt-text` on the
#     NAME.lines.csv of sroie_dev/; sroie/ and softmatic_de/ have none),
#   * the naive baseline's rules on the same true lines, and on tesseract CLI's OCR of the image;
# then OCR against the true lines (ocr_error.py: character error rate of amount and date tokens,
# whether the answer is in the OCR text at all). Prints markdown on stdout.
#
# Env: SNAPSORT (binary; default .build/release/snapsort), PY (python with numpy; bench/.venv),
# RECEIPTS_DATA (../shared/data/receipts), WORK (outputs; default bench/work/receipts-ocr-gap).
# The two slow runs can be given instead of run:
#   RECEIPTS_RECORDS  records.jsonl files (space-separated) of `snapsort run --preset receipts` over
#                     sroie/, sroie_dev/ and softmatic_de/: skips snapsort's OCR of the 359
#                     receipts (~15 min of CPU at --jobs 1). A receipt without a record counts wrong.
#   RECEIPTS_NAIVE    naive_baseline.py outputs over the same folders: skips ~6 min of tesseract CLI.
# snapsort needs its presets: the script runs from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${RECEIPTS_DATA:-../shared/data/receipts}
WORK=${WORK:-bench/work/receipts-ocr-gap}
SNAPSORT=${SNAPSORT:-.build/release/snapsort}
PY=${PY:-python3}
export OMP_THREAD_LIMIT=1
mkdir -p "$WORK"
sets=()
for set in sroie sroie_dev softmatic_de; do [ -d "$DATA/$set" ] && sets+=("$set"); done

ran_snapsort=0
if [ -n "${RECEIPTS_RECORDS:-}" ]; then
  read -r -a ocr <<< "$RECEIPTS_RECORDS"
else
  ran_snapsort=1
  ocr=()
  for set in "${sets[@]}"; do
    echo "ocr_gap: snapsort --preset receipts on $set" >&2
    { time -p "$SNAPSORT" run "$DATA/$set" --preset receipts --out "$WORK/snap-$set" --jobs 1 --fresh --quiet \
      || [ $? -le 1 ]; } 2> "$WORK/time-$set.txt"
    ocr+=("$WORK/snap-$set/records.jsonl")
  done
fi
if [ -n "${RECEIPTS_NAIVE:-}" ]; then
  read -r -a naive <<< "$RECEIPTS_NAIVE"
else
  naive=()
  for set in "${sets[@]}"; do
    echo "ocr_gap: naive baseline (tesseract CLI) on $set" >&2
    "$PY" bench/receipts/naive_baseline.py "$DATA/$set" "$WORK/naive-$set.jsonl"
    naive+=("$WORK/naive-$set.jsonl")
  done
fi
# The true lines: every folder that has NAME.lines.csv (today sroie_dev/ only).
lines_snapsort=()
lines_naive=()
for set in "${sets[@]}"; do
  compgen -G "$DATA/$set/*.lines.csv" > /dev/null || continue
  echo "ocr_gap: snapsort receipt-text and the naive rules on the true lines of $set" >&2
  "$SNAPSORT" receipt-text "$DATA/$set" --json > "$WORK/lines-snapsort-$set.jsonl" || [ $? -le 1 ]
  "$PY" bench/receipts/naive_baseline.py --lines "$DATA/$set" "$WORK/lines-naive-$set.jsonl"
  lines_snapsort+=("$WORK/lines-snapsort-$set.jsonl")
  lines_naive+=("$WORK/lines-naive-$set.jsonl")
done
commas() { local IFS=,; echo "$*"; }

if [ ${#lines_snapsort[@]} -gt 0 ]; then
  echo "### Real receipts: the extractor on its OCR and on the true lines (folds.json)"
  echo
  echo "Side by side on the SROIE receipts that carry the dataset's own lines (\`NAME.lines.csv\`), by the"
  echo "fixed merchant-grouped split: *true lines* is the same extractor as *its OCR* (\`snapsort"
  echo "receipt-text\`, rows joined from the boxes as the receipt stage joins OCR words), so it is the"
  echo "extractor's ceiling, and the gap column is what OCR costs it. The naive rules run on the same true"
  echo "lines (joined into rows by their boxes) and on tesseract CLI's reading of the image."
  echo
  "$PY" bench/receipts/score.py --compare --data "$DATA" \
    --run "snapsort, its OCR" "$(commas "${ocr[@]}")" --run "snapsort, true lines" "$(commas "${lines_snapsort[@]}")" \
    --run "naive, true lines" "$(commas "${lines_naive[@]}")" --run "naive, tesseract CLI" "$(commas "${naive[@]}")"
  echo
fi
echo "### Real receipts, all 345 SROIE by fold and the German 14 (OCR only)"
echo
"$PY" bench/receipts/score.py --cv "${ocr[@]}" --data "$DATA" --label "snapsort, its OCR"
echo
"$PY" bench/receipts/score.py --cv "${naive[@]}" --data "$DATA" --label "naive baseline, tesseract CLI"
if [ "$ran_snapsort" = 1 ]; then
  echo
  echo "| set | snapsort CPU s/receipt (user+sys of the run, --jobs 1) | sum of per-stage medians s |"
  echo "|---|---|---|"
  for set in "${sets[@]}"; do
    n=$(ls "$DATA/$set" | grep -ciE '\.(jpe?g|png)$')
    cpu=$(awk -v n="$n" '$1=="user"{u=$2} $1=="sys"{s=$2} END{printf "%.2f", (u+s)/n}' "$WORK/time-$set.txt")
    median=$("$PY" -c "import json,sys;print(f\"{sum(s['p50_ms'] for s in json.load(open(sys.argv[1]))['stages'].values())/1000:.2f}\")" "$WORK/snap-$set/run.json")
    echo "| $set | $cpu | $median |"
  done
fi
if compgen -G "$DATA/sroie_dev/*.lines.csv" > /dev/null; then
  echo
  echo "### OCR against the true lines (sroie_dev)"
  echo
  "$PY" bench/receipts/ocr_error.py "${ocr[@]}" --data "$DATA/sroie_dev" --naive-lines
fi
