#!/usr/bin/env bash
# Fits the card-name model (a bench tool, never the product): renders generated cards, logs every
# name candidate with bench/names/dump.json and runs fit_names.py. Training sets are
# `--split train` only; the heldout sets (font, layout and app families never trained on) are
# scored, never fitted.
#
#   bench/names/fit.sh            # report only: bench/work/names/report.txt
#   bench/names/fit.sh --write    # also writes Sources/SnapsortStages/Resources/name-model.json
#   TRAIN_ONLY=1 bench/names/fit.sh   # the training sets only: nothing held out rendered, run or scored
#
# SNAPSORT (default .build-test/release/snapsort) computes the features; the model file it ships
# with does not change them (dump.json keeps every candidate, tallest first).
set -euo pipefail
cd "$(dirname "$0")/../.."
SNAPSORT=${SNAPSORT:-.build-test/release/snapsort}
PY=${PY:-bench/.venv/bin/python}
WORK=${WORK:-bench/work/names}
TRAIN_ONLY=${TRAIN_ONLY:-0}
export OMP_THREAD_LIMIT=1
mkdir -p "$WORK"

render() { # folder, generator arguments...
  local folder=$1
  shift
  [ -f "$WORK/$folder/.done" ] && return
  rm -rf "${WORK:?}/$folder"
  "$PY" bench/gen/cards.py "$@" --out "$WORK/$folder" --jobs "${RENDER_JOBS:-1}"
  touch "$WORK/$folder/.done"
}
dump() { # folder
  local folder=$1
  [ -f "$WORK/$folder.candidates.jsonl" ] && return
  sed -e "s|CANDIDATES|$WORK/$folder.candidates.part|" -e "s|NAME_MODEL|$PWD/bench/names/height-order.json|" \
    bench/names/dump.json >"$WORK/dump-$folder.json"
  rm -f "$WORK/$folder.candidates.part"
  "$SNAPSORT" run "$WORK/$folder" --config "$WORK/dump-$folder.json" --out "$WORK/$folder-out" \
    --jobs 2 --fresh --quiet
  mv "$WORK/$folder.candidates.part" "$WORK/$folder.candidates.jsonl"
}
render train-photo --count 150 --kind photo --split train --seed 31
render train-shot --count 250 --kind screenshot --split train --seed 32
# More screenshots, a quarter of them wallet passes (the train families' generic and header passes).
render train-shot-pass --count 200 --kind screenshot --split train --seed 61
# Cards without a name (their name lines left off): scored (a name suggested on how many), and
# fitted on with NAMELESS=1 (the threshold then counts them; not shipped: bench/names/README.md).
render train-photo-noname --count 50 --kind photo --split train --seed 33 --no-name
render train-shot-noname --count 50 --kind screenshot --split train --seed 34 --no-name
folders=(train-photo train-shot train-shot-pass train-photo-noname train-shot-noname)
heldout=()
if [ "$TRAIN_ONLY" != 1 ]; then
  render heldout-photo --count 150 --kind photo --split heldout --seed 2401
  render heldout-shot --count 150 --kind screenshot --split heldout --seed 2402
  folders+=(heldout-photo heldout-shot)
  heldout=("$WORK/heldout-photo.candidates.jsonl=$WORK/heldout-photo" "$WORK/heldout-shot.candidates.jsonl=$WORK/heldout-shot")
fi
for folder in "${folders[@]}"; do
  dump "$folder"
done

write=()
[ "${1:-}" = "--write" ] && write=(--write Sources/SnapsortStages/Resources/name-model.json)
nameless=("$WORK/train-photo-noname.candidates.jsonl=$WORK/train-photo-noname"
  "$WORK/train-shot-noname.candidates.jsonl=$WORK/train-shot-noname")
fitted=()
scored=("${nameless[@]}")
[ "${NAMELESS:-0}" = 1 ] && fitted=("${nameless[@]}") && scored=()
"$PY" bench/names/fit_names.py \
  --train "$WORK/train-photo.candidates.jsonl=$WORK/train-photo" "$WORK/train-shot.candidates.jsonl=$WORK/train-shot" \
  "$WORK/train-shot-pass.candidates.jsonl=$WORK/train-shot-pass" \
  "${fitted[@]}" \
  --heldout "${scored[@]}" "${heldout[@]}" \
  "${write[@]}" | tee "$WORK/report.txt"
