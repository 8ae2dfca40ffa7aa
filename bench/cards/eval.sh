#!/usr/bin/env bash
# Card geometry and colour accuracy of snapsort and of the OpenCV baseline on the same photos.
set -euo pipefail
"$PY" bench/cards/eval_cards.py "$BENCH_IMAGES/cards" "$BENCH_WORK/out-cards-j1/records.jsonl" "snapsort (cards preset)" \
  > "$BENCH_RESULTS/cards-snapsort.md"
"$PY" bench/cards/eval_cards.py "$BENCH_IMAGES/cards" "$BENCH_WORK/baseline-cards-j1.jsonl" "OpenCV baseline (user script)" \
  > "$BENCH_RESULTS/cards-baseline.md"
# Screenshots: the screenshots preset imports codes only, so their card geometry is measured with
# the geometry stages alone (bench/cards/geometry.json).
if [ -d "$BENCH_IMAGES/screenshots" ]; then
  "$SNAPSORT" run "$BENCH_IMAGES/screenshots" --config bench/cards/geometry.json --out "$BENCH_WORK/out-screenshots-geometry" \
    --jobs 1 --fresh --quiet || [ $? -le 1 ]
  cp "$BENCH_WORK/out-screenshots-geometry/run.json" "$BENCH_RESULTS/geometry-screenshots-j1.json"
  "$PY" bench/cards/eval_cards.py "$BENCH_IMAGES/screenshots" "$BENCH_WORK/out-screenshots-geometry/records.jsonl" \
    "snapsort (screenshots, geometry stages)" > "$BENCH_RESULTS/cards-screenshots.md"
fi
"$PY" bench/cards/eval_barcodes.py "$BENCH_IMAGES/cards" "$BENCH_WORK/out-cards-j1/records.jsonl" "snapsort (cards preset)" \
  > "$BENCH_RESULTS/cards-barcodes-snapsort.md"
"$PY" bench/cards/eval_barcodes.py "$BENCH_IMAGES/cards" "$BENCH_WORK/baseline-cards-j1.jsonl" "OpenCV baseline (pyzbar)" \
  > "$BENCH_RESULTS/cards-barcodes-baseline.md"
