#!/usr/bin/env bash
# Fits the warp stage's text_orientation_lead (a bench tool, never the product): logs every crop's
# orientation evidence over the training renders fit.sh renders (150 photos seed 31, 250
# screenshots seed 32; `--split train` only) and runs fit_orientation.py on them. With
# `--heldout`, logs and scores the held-out renders too (seeds 2401 / 2402), never fitting on them.
#
#   bench/names/orientation.sh              # bench/work/names/orientation.txt
#   bench/names/orientation.sh --heldout    # ... and orientation-heldout.txt
set -euo pipefail
cd "$(dirname "$0")/../.."
SNAPSORT=${SNAPSORT:-.build-test/release/snapsort}
PY=${PY:-bench/.venv/bin/python}
WORK=bench/work/names
export OMP_THREAD_LIMIT=1

log() { # folder
  local folder=$1
  [ -f "$WORK/$folder/.done" ] || { echo "render $WORK/$folder first (bench/names/fit.sh)" >&2; exit 1; }
  [ -f "$WORK/$folder.orientation.jsonl" ] && return
  sed -e "s|LOG|$WORK/$folder.orientation.part|" bench/names/orientation.json >"$WORK/orientation-$folder.json"
  rm -f "$WORK/$folder.orientation.part"
  "$SNAPSORT" run "$WORK/$folder" --config "$WORK/orientation-$folder.json" --out "$WORK/$folder-orientation" \
    --jobs 2 --fresh --quiet
  mv "$WORK/$folder.orientation.part" "$WORK/$folder.orientation.jsonl"
}
for folder in train-photo train-shot; do log "$folder"; done
"$PY" bench/names/fit_orientation.py "$WORK/train-photo.orientation.jsonl=$WORK/train-photo" \
  "$WORK/train-shot.orientation.jsonl=$WORK/train-shot" | tee "$WORK/orientation.txt"
if [ "${1:-}" = "--heldout" ]; then
  lead=$(sed -n 's/^fitted text_orientation_lead \([0-9]*\).*/\1/p' "$WORK/orientation.txt")
  sure_at=$(sed -n 's/^fitted text_orientation_sure_at \([0-9]*\).*/\1/p' "$WORK/orientation.txt")
  for folder in heldout-photo heldout-shot; do log "$folder"; done
  "$PY" bench/names/fit_orientation.py "$WORK/heldout-photo.orientation.jsonl=$WORK/heldout-photo" \
    "$WORK/heldout-shot.orientation.jsonl=$WORK/heldout-shot" --lead "$lead" --sure-at "$sure_at" | tee "$WORK/orientation-heldout.txt"
fi
