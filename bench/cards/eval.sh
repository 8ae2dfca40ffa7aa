#!/usr/bin/env bash
# Card geometry and colour accuracy of snapsort and of the OpenCV baseline on the same photos.
set -euo pipefail
"$PY" bench/cards/eval_cards.py "$BENCH_IMAGES/cards" "$BENCH_WORK/out-cards-j1/records.jsonl" "snapsort (cards preset)" \
  > "$BENCH_RESULTS/cards-snapsort.md"
"$PY" bench/cards/eval_cards.py "$BENCH_IMAGES/cards" "$BENCH_WORK/baseline-cards-j1.jsonl" "OpenCV baseline (user script)" \
  > "$BENCH_RESULTS/cards-baseline.md"
