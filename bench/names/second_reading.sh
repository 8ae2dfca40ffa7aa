#!/usr/bin/env bash
# The suggested name read a second time by the page reading's own boxes where NameLineBox rebuilt
# them, the more confident reading kept (ocr option `name_page_box_reading`): the cards preset
# with it off and on over the renders of bench/names/fit.sh, scored by score_cards.py (a bench
# tool, never the product). Run it on the training renders to choose; the held-out ones are
# measured once, at the end.
#
#   bench/names/second_reading.sh SET... [-- VARIANT...]
#   (SET: a folder under bench/work/names, e.g. train-photo train-shot; VARIANT: off, on; default
#   both)
#
# SNAPSORT (default .build/release/snapsort) runs every variant; each is the cards preset with
# `limits.seconds_per_image` 900, so that a loaded machine skips no re-reading.
set -euo pipefail
cd "$(dirname "$0")/../.."
SNAPSORT=${SNAPSORT:-.build/release/snapsort}
PY=${PY:-bench/.venv/bin/python}
WORK=bench/work/names
export OMP_THREAD_LIMIT=1
sets=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do sets+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(off on)
mkdir -p "$WORK/second"
for variant in "${variants[@]}"; do
  case $variant in
    off) extra='{"name_page_box_reading": false}' ;;
    on) extra='{"name_page_box_reading": true}' ;;
    *) echo "unknown variant $variant" >&2; exit 2 ;;
  esac
  "$PY" - "$extra" >"$WORK/second/$variant.json" <<'PYTHON'
import json, sys
config = json.load(open("presets/cards.json"))
config["limits"] = {"seconds_per_image": 900}
for stage in config["stages"]:
    if stage["stage"] == "ocr":
        stage.update(json.loads(sys.argv[1]))
print(json.dumps(config, indent=1))
PYTHON
  for set in "${sets[@]}"; do
    out="$WORK/second/$variant-$set"
    "$SNAPSORT" run "$WORK/$set" --config "$WORK/second/$variant.json" --out "$out" --jobs 2 --fresh --quiet
    "$PY" bench/gen/score_cards.py "$WORK/$set" "$out/records.jsonl" --by kind | sed -n '/^| all |/p' | head -1 |
      sed "s/^/$variant $set /"
    "$PY" -c 'import json, sys; r = json.load(open(sys.argv[1])); print("  ocr CPU p50", r["stages"]["ocr"]["cpu_p50_ms"], "ms; peak RSS", r["peak_rss_mb"], "MB")' "$out/run.json"
  done
done
