#!/usr/bin/env bash
# The card-geometry loop for working on detect_card/warp/palette: runs only those stages
# (bench/cards/geometry.json) over samples/cards, samples/screenshots and a rendered bench folder,
# prints IoU / corner error / upright per variation and the stage medians, and with DRAW=1 draws
# the found (red) and true (green) quads into $WORK/draw-*/ for looking at the failures.
#
#   bench/cards/loop.sh [BENCH_FOLDER]   (default bench/work/images-40, rendered when missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-bench/.venv/bin/python}
SNAPSORT=${SNAPSORT:-.build-test/release/snapsort}
BENCH=${1:-bench/work/images-40}
WORK=${WORK:-bench/work/loop}
export OMP_THREAD_LIMIT=1
if [ ! -d "$BENCH/cards" ]; then
  "$PY" scripts/render_samples.py --bench "$BENCH" --count 40 --kinds cards,screenshots
fi
for pair in "samples:samples/cards" "screens:samples/screenshots" "bench:$BENCH/cards" "bench-screens:$BENCH/screenshots"; do
  name=${pair%%:*} folder=${pair#*:}
  [ -d "$folder" ] || continue
  out="$WORK/out-$name"
  "$SNAPSORT" run "$folder" --config bench/cards/geometry.json --out "$out" --jobs "${JOBS:-1}" --fresh --quiet || [ $? -le 1 ]
  "$PY" bench/cards/eval_cards.py "$folder" "$out/records.jsonl" "$name" | grep -v '^$'
  "$PY" -c 'import json,sys; s=json.load(open(sys.argv[1]))["stages"]; print("p50 ms:", ", ".join("%s %.1f" % (k, v["p50_ms"]) for k, v in sorted(s.items())))' "$out/run.json"
  if [ "${DRAW:-0}" = 1 ]; then "$PY" bench/cards/draw_quads.py "$folder" "$out/records.jsonl" "$WORK/draw-$name"; fi
  echo
done
