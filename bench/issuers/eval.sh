#!/usr/bin/env bash
# Issuer classifier (issue #6): renders labelled card photos and wallet screenshots of every
# catalog issuer, splits them by file into train and test with a fixed list of issuers held out
# of training (bench/issuers/held_out.txt), times `snapsort train-issuers` on the train split,
# measures the trained model with `snapsort eval-issuers` on the test split plus the held-out
# issuers (which must come back unknown), and times `snapsort issuers search`.
# Writes $BENCH_RESULTS/issuers.json, which bench/report.py prints as its "Issuers" section.
set -euo pipefail
PER=${BENCH_ISSUER_CARDS:-3}
SEED=${BENCH_ISSUER_SEED:-104}
CATALOG=Sources/SnapsortStages/Resources/issuers.json
SET="$BENCH_WORK/issuers-$PER-$SEED"
export OMP_THREAD_LIMIT=1

if [ ! -f "$SET/all/.done" ]; then
  rm -rf "$SET/all"
  echo "bench: rendering $PER labelled cards per catalog issuer into $SET/all" >&2
  "$PY" scripts/render_samples.py --issuers "$SET/all" --per-issuer "$PER" --seed "$SEED" --jobs 2
  touch "$SET/all/.done"
fi
rm -rf "$SET/split"
"$PY" bench/issuers/split.py "$SET/all" "$SET/split" --held-out bench/issuers/held_out.txt --catalog "$CATALOG" \
  > "$SET/split.json"

echo "bench: snapsort train-issuers on $(python3 -c "import json;print(json.load(open('$SET/split.json'))['train']['images'])") images" >&2
# The 1-minute load average around the timed run: wall times on a shared machine mean little
# without it (the same 527 images took 658 s wall at load 9-11 and 48 s at load 0-1).
load_before=$(cut -d' ' -f1 /proc/loadavg)
/usr/bin/time -f '{"wall_s": %e, "user_s": %U, "sys_s": %S, "max_rss_kb": %M}' -o "$SET/train-time.json" \
  "$SNAPSORT" train-issuers "$SET/split/train" --catalog "$SET/split/catalog-known.json" --hold-out 0 --test-fraction 0 \
  --jobs 2 -o "$SET/model.json" 2> "$SET/train.log"
echo "{\"load_before\": $load_before, \"load_after\": $(cut -d' ' -f1 /proc/loadavg)}" > "$SET/train-load.json"
cat "$SET/train.log" >&2

echo "bench: snapsort eval-issuers on the test split and the held-out issuers" >&2
"$SNAPSORT" eval-issuers "$SET/split/eval" --model "$SET/model.json" --catalog "$SET/split/catalog-known.json" \
  --jobs 2 --json "$SET/eval.json" > "$SET/eval.txt"
cat "$SET/eval.txt" >&2

"$PY" bench/issuers/summary.py --set "$SET" --snapsort "$SNAPSORT" > "$BENCH_RESULTS/issuers.json"
