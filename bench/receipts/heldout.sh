#!/usr/bin/env bash
# Held-out receipt figures, snapsort and the naive baseline in the same run (see README.md here):
#   1. total/date/merchant on the 345 SROIE receipts by the fixed 5-fold split of folds.json
#      (per fold, pooled, tuned-on 45 vs sroie_dev 300) and on the German 14 (test only);
#   2. snapsort's extractor on the dataset's own lines of sroie_dev beside its OCR, by fold (the
#      extractor's ceiling and the OCR gap), and OCR against those lines (token CER, answer
#      present, the naive rules on perfect lines and on snapsort's OCR lines): ocr_gap.sh;
#   3. item F1 and total on rendered receipts of the held-out layout families and fonts
#      (splits.json, bench/gen/receipts.py);
#   CPU seconds per receipt (user + sys of the whole snapsort run at --jobs 1, over its receipts).
# Env: SNAPSORT (binary; default .build/release/snapsort), PY (python with Pillow + numpy),
# RECEIPTS_DATA (../shared/data/receipts), BENCH_WORK (bench/work), OUT (markdown written).
# snapsort needs its presets: run from the repository root (this script cd's there).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${RECEIPTS_DATA:-../shared/data/receipts}
WORK=${BENCH_WORK:-bench/work}/receipts-heldout
SNAPSORT=${SNAPSORT:-.build/release/snapsort}
PY=${PY:-python3}
OUT=${OUT:-$WORK/heldout.md}
export OMP_THREAD_LIMIT=1
mkdir -p "$WORK"
split=bench/receipts/splits.json
seed=$("$PY" -c "import json;print(json.load(open('$split'))['reported_set']['seed'])")
count=$("$PY" -c "import json;print(json.load(open('$split'))['reported_set']['count'])")
count=${HELDOUT_COUNT:-$count}  # a smaller set for a smoke test only
rendered="$WORK/rendered-heldout-$seed-$count"
if [ ! -f "$rendered/.done" ]; then
  rm -rf "$rendered"
  "$PY" bench/gen/receipts.py --out "$rendered" --count "$count" --split heldout --seed "$seed"
  touch "$rendered/.done"
fi

cpu() {  # cpu TIME_FILE N -> "s/receipt"
  awk -v n="$2" '$1=="user"{u=$2} $1=="sys"{s=$2} END{printf "%.2f", (u+s)/n}' "$1"
}
run_snapsort() {  # run_snapsort SET_DIR NAME
  local out="$WORK/snap-$2"
  { time -p "$SNAPSORT" run "$1" --preset receipts --out "$out" --jobs 1 --fresh --quiet || [ $? -le 1 ]; } 2> "$WORK/time-$2.txt"
}
for set in sroie sroie_dev softmatic_de; do
  echo "heldout: snapsort and naive baseline on $set" >&2
  run_snapsort "$DATA/$set" "$set"
  "$PY" bench/receipts/naive_baseline.py "$DATA/$set" "$WORK/naive-$set.jsonl"
done
echo "heldout: rendered held-out receipts" >&2
run_snapsort "$rendered" rendered
"$PY" bench/receipts/naive_baseline.py "$rendered" "$WORK/naive-rendered.jsonl"

n() { ls "$1" | grep -ciE '\.(jpe?g|png)$'; }
{
  echo "## Receipts, held out"
  echo
  RECEIPTS_RECORDS="$WORK/snap-sroie/records.jsonl $WORK/snap-sroie_dev/records.jsonl $WORK/snap-softmatic_de/records.jsonl" \
    RECEIPTS_NAIVE="$WORK/naive-sroie.jsonl $WORK/naive-sroie_dev.jsonl $WORK/naive-softmatic_de.jsonl" \
    SNAPSORT="$SNAPSORT" PY="$PY" RECEIPTS_DATA="$DATA" WORK="$WORK/ocr-gap" bench/receipts/ocr_gap.sh
  echo
  echo "snapsort CPU s/receipt (user+sys over the run, --jobs 1): sroie $(cpu "$WORK/time-sroie.txt" "$(n "$DATA/sroie")"), sroie_dev $(cpu "$WORK/time-sroie_dev.txt" "$(n "$DATA/sroie_dev")"), German $(cpu "$WORK/time-softmatic_de.txt" "$(n "$DATA/softmatic_de")")."
  echo
  echo "### Rendered receipts of the held-out layout families and fonts (splits.json)"
  echo
  "$PY" bench/receipts/score_rendered.py "$rendered" "$WORK/snap-rendered/records.jsonl" snapsort --time-file "$WORK/time-rendered.txt"
  echo
  "$PY" bench/receipts/score_rendered.py "$rendered" "$WORK/naive-rendered.jsonl" "naive baseline" --by layout_family
} > "$OUT"
echo "heldout: wrote $OUT" >&2
