#!/usr/bin/env bash
# Name and payment accuracy of snapsort (OCR on the crop) and of pytesseract on the whole photo.
set -euo pipefail
"$PY" bench/ocr/eval_names.py "$BENCH_IMAGES/cards" "$BENCH_WORK/out-cards-j1/records.jsonl" "snapsort (cards preset)" \
  > "$BENCH_RESULTS/names-snapsort.md"
"$PY" bench/ocr/eval_names.py "$BENCH_IMAGES/cards" "$BENCH_WORK/baseline-cards-j1.jsonl" "pytesseract on the whole photo" \
  > "$BENCH_RESULTS/names-baseline.md"
