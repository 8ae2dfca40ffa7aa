#!/usr/bin/env bash
# Speed against the script a user would write, on cards the project never tuned on (issue #28
# item 1): renders a mixed set of photos and wallet screenshots from bench/gen's held-out font,
# layout and app families, then runs the cards preset and the Python baseline
# (bench/baseline/user_script.py) alternately, ROUNDS pairs at --jobs 2 (the order flips every
# round so neither always runs on a warmer cache), plus one run of each at --jobs 1 and one of
# snapsort at --jobs 4 (item 5's scaling curve). Writes $BENCH_RESULTS/speed-heldout.md: the ratio
# per pair with its median and spread, throughput at jobs 1, 2 and 4 against the cores there are,
# per-stage CPU p50/p95 and sums, peak RSS, and both tools' accuracy on the same images.
set -euo pipefail
COUNT=${BENCH_SPEED_COUNT:-60}
SEED=${BENCH_SPEED_SEED:-2828}
ROUNDS=${BENCH_SPEED_ROUNDS:-3}
SET="$BENCH_WORK/speed-heldout-$COUNT-$SEED"
# The baseline calls the tesseract CLI (pytesseract), which the product itself never needs.
scripts/ensure-deps.sh tesseract-ocr
export OMP_THREAD_LIMIT=1

if [ ! -f "$SET/images/.done" ]; then
  rm -rf "$SET/images"
  echo "bench: rendering $COUNT held-out cards (photos and screenshots) into $SET/images" >&2
  "$PY" bench/gen/cards.py --out "$SET/images" --count "$COUNT" --kind mixed --split heldout --seed "$SEED" --jobs 2
  touch "$SET/images/.done"
fi
rm -rf "$SET/runs" && mkdir -p "$SET/runs"

timed() { # name, command...: /usr/bin/time's figures and the load average around the run
  local name=$1
  shift
  local before
  before=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '{"wall_s": %e, "user_s": %U, "sys_s": %S, "max_rss_kb": %M}' -o "$SET/runs/$name.time" "$@" \
    > "$SET/runs/$name.log" 2>&1 || [ $? -le 1 ]
  echo "{\"load_before\": $before, \"load_after\": $(cut -d' ' -f1 /proc/loadavg)}" > "$SET/runs/$name.load"
}
snapsort_run() { # jobs, name
  timed "$2" "$SNAPSORT" run "$SET/images" --preset cards --out "$SET/runs/$2" --jobs "$1" --fresh --quiet
}
baseline_run() { # jobs, name
  timed "$2" "$PY" bench/baseline/user_script.py "$SET/images" "$SET/runs/$2.jsonl" --jobs "$1"
}

for round in $(seq 1 "$ROUNDS"); do
  echo "bench: held-out speed, round $round of $ROUNDS (cards preset and Python baseline, --jobs 2)" >&2
  if [ $((round % 2)) -eq 1 ]; then
    snapsort_run 2 "snapsort-j2-r$round"
    baseline_run 2 "baseline-j2-r$round"
  else
    baseline_run 2 "baseline-j2-r$round"
    snapsort_run 2 "snapsort-j2-r$round"
  fi
done
echo "bench: held-out speed at --jobs 1" >&2
snapsort_run 1 snapsort-j1
baseline_run 1 baseline-j1
echo "bench: held-out speed at --jobs 4" >&2
snapsort_run 4 snapsort-j4

"$PY" bench/speed/summary.py "$SET" --rounds "$ROUNDS" > "$BENCH_RESULTS/speed-heldout.md"
cat "$BENCH_RESULTS/speed-heldout.md" >&2
