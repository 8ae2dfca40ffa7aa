#!/usr/bin/env bash
# `snapsort review` (issue #29): time from a corner dropped to the new crop fetched (median, p95;
# target <= 1 s at p95 on one core) and the queue's load time, over a copy of the rendered cards
# `make bench` ran with --preset cards --jobs 1 (each drop rewrites the folder it is given).
set -euo pipefail
source="$BENCH_WORK/out-cards-j1"
[ -d "$source" ] || { echo "review: no $source to review (make bench writes it)" >&2; exit 0; }
copy="$BENCH_WORK/review-out"
rm -rf "$copy" && cp -r "$source" "$copy"
"$PY" bench/review/latency.py "$SNAPSORT" "$copy" --drops 30 | tee "$BENCH_RESULTS/review-latency.json"
