#!/usr/bin/env bash
# Chooses how the barcode stage's zbar reads a photo once its card crop was scanned (issue #28
# items 2-3), on training renders only: the crop's plain zbar read taken from the warp's scan
# (`reuse_warp_scan`), and zbar's row step on the whole image's first look
# (`beside_card_zbar_density`, 0 = only as a second opinion). Runs the cards preset up to its barcode
# stage (bench/barcodes/false/cards-codes.json) with SNAPSORT_BARCODE_TRACE=1 once per variant over
# 150 photos (seed 31) and 250 screenshots (seed 32), the training sets bench/names/fit.sh renders,
# then zbar_looks.py compares each variant's codes with the old behaviour's and sums the stage's
# traced CPU.   bench/barcodes/zbar_looks.sh OUTDIR     (from the repository root)
set -euo pipefail
OUT=${1:?OUTDIR}
SNAPSORT=${SNAPSORT:-.build/release/snapsort}
PY=${PY:-/work/main/bench/.venv/bin/python}
export OMP_THREAD_LIMIT=1
mkdir -p "$OUT"
render() { # name, cards.py arguments...
  local dir="$OUT/$1"
  shift
  [ -f "$dir/.done" ] || { "$PY" bench/gen/cards.py --out "$dir" "$@" && touch "$dir/.done"; }
}
render photo-31 --count 150 --kind photo --split train --seed 31
render shot-32 --count 250 --kind screenshot --split train --seed 32
variants=("before:false:1" "reuse:true:1" "reuse-d2:true:2" "reuse-d0:true:0")
for variant in "${variants[@]}"; do
  IFS=: read -r name reuse density <<< "$variant"
  sed "s/{\"stage\": \"barcode\"}/{\"stage\": \"barcode\", \"reuse_warp_scan\": $reuse, \"beside_card_zbar_density\": $density}/" \
    bench/barcodes/false/cards-codes.json > "$OUT/$name.json"
  for set in photo-31 shot-32; do
    SNAPSORT_BARCODE_TRACE=1 "$SNAPSORT" run "$OUT/$set" --config "$OUT/$name.json" -j 1 --fresh --quiet \
      --out "$OUT/runs/$name-$set" 2> "$OUT/runs/$name-$set.trace" || true
  done
done
python3 bench/barcodes/zbar_looks.py "$OUT/runs" before reuse reuse-d2 reuse-d0
