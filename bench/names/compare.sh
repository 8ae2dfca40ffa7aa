#!/usr/bin/env bash
# The card-name figures on the held-out generated cards (font, layout and app families the name
# model was never fitted on), the old hand-weighted picker beside the cards preset, per kind:
# name exact and fuzzy ≥ 0.8 (bench/gen/score_cards.py). Renders the sets fit.sh renders.
#
#   bench/names/compare.sh      # bench/work/names/compare.txt
set -euo pipefail
cd "$(dirname "$0")/../.."
SNAPSORT=${SNAPSORT:-.build-test/release/snapsort}
PY=${PY:-bench/.venv/bin/python}
WORK=bench/work/names
export OMP_THREAD_LIMIT=1
for folder in heldout-photo heldout-shot; do
  [ -f "$WORK/$folder/.done" ] || { echo "render $WORK/$folder first (bench/names/fit.sh)" >&2; exit 1; }
  "$SNAPSORT" run "$WORK/$folder" --config bench/names/legacy.json --out "$WORK/$folder-legacy" --jobs 2 --fresh --quiet
  "$SNAPSORT" run "$WORK/$folder" --preset cards --out "$WORK/$folder-model" --jobs 2 --fresh --quiet
done
{
  for folder in heldout-photo heldout-shot; do
    for picker in legacy model; do
      echo "## $folder, $picker"
      "$PY" bench/gen/score_cards.py "$WORK/$folder" "$WORK/$folder-$picker/records.jsonl" | grep -E "^\| (group|all) " | head -2 || true
    done
  done
} | tee "$WORK/compare.txt"
