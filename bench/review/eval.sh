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
# The page on a folder of 1 000 records (the run's records repeated with their own content hashes,
# merged into a real store), in real headless Chromium.
"$PY" bench/review/many.py "$SNAPSORT" "$source" "$BENCH_WORK/review-1000" --records 1000
"$PY" bench/review/pageload.py "$SNAPSORT" "$BENCH_WORK/review-1000" --loads 7 | tee "$BENCH_RESULTS/review-pageload.json"
# bench/report.py takes each results/*.md into the report.
"$PY" - "$BENCH_RESULTS/review-latency.json" "$BENCH_RESULTS/review-pageload.json" > "$BENCH_RESULTS/review.md" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
page = json.load(open(sys.argv[2]))
print(f"## snapsort review ({r['cards']} cards, {r['drops']} corner drops)\n")
print("| | median | p95 |\n|---|---:|---:|")
print(f"| drop to new crop, wall ms | {r['drop_to_crop_ms_median']} | {r['drop_to_crop_ms_p95']} |")
print(f"| drop, server CPU ms | {r['drop_cpu_ms_median']} | {r['drop_cpu_ms_p95']} |")
print(f"\nTarget: ≤ 1000 ms at p95 on one core. Queue of {r['records']} records: {r['queue_ms_median']} ms (median).")
print(f"\nThe page on {page['records_text']} (headless Chromium, navigation to the queue's first page on screen, "
      f"{page['loads']} loads): median {page['page_queue_ms_median']} ms, slowest {page['page_queue_ms_max']} ms (target ≤ 1000 ms).")
PY
