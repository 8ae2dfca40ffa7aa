#!/usr/bin/env bash
# The evaluation sets the READMEs and closing notes quote, made from the repository alone on any
# machine (a dev tool, never the product): a fresh machine gets the same training and held-out
# sets without anyone remembering the seeds. Idempotent: a set with its `.done` is kept.
#
#   bench/sets.sh [receipts] [wide] [cards] [all]      (default: receipts)
#
# Into bench/work/sets/ (BENCH_WORK/sets):
#   receipts  train   SROIE folds 0-3 of bench/receipts/folds.json (276, linked from the data)
#             f4de    SROIE fold 4 + the German 14: held out (83, linked)
#             rtrain  bench/gen/receipts.py --split train --seed 11 --count 120
#             rheld   bench/gen/receipts.py --split heldout, splits.json's reported set (seed 7, 120)
#   wide      train-wide, f4de-wide: bench/kind/augment.py's `~margins` variants of train and f4de
#             (uncropped scans on 11-18 MP pages, issue #27's wide-margin figures)
#   cards     shots-7202, shots-9202, shots-9412 (150 held-out screenshots each) and photos-7303
#             (100 held-out photos): the screenshot quad and colour figures of bench/gen/README.md;
#             the names sets are bench/names/fit.sh's (heldout-photo seed 2401, heldout-shot 2402)
# Needs scripts/ensure-fonts.sh's fonts and bench/requirements.txt (PY, default bench/.venv).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${RECEIPTS_DATA:-../shared/data/receipts}
SETS=${BENCH_WORK:-bench/work}/sets
PY=${PY:-bench/.venv/bin/python}
mkdir -p "$SETS"

made() { [ -f "$SETS/$1/.done" ]; }
done_() { touch "$SETS/$1/.done"; echo "sets: $SETS/$1" >&2; }

link_folds() { # name, python condition on `fold` (None for the German test)
  made "$1" && return
  rm -rf "${SETS:?}/$1" && mkdir -p "$SETS/$1"
  "$PY" - "$DATA" "$SETS/$1" "$2" <<'EOF'
import json, os, sys
data, out, keep = sys.argv[1], sys.argv[2], sys.argv[3]
folds = json.load(open("bench/receipts/folds.json"))
entries = [(s, e["folder"], e["fold"]) for s, e in folds["sroie"].items()]
entries += [(s, e["folder"], None) for s, e in folds["test"].items()]
for stem, folder, fold in entries:
    if not eval(keep, {"fold": fold}):
        continue
    for ext in (".jpg", ".json", ".lines.csv"):
        source = os.path.abspath(os.path.join(data, folder, stem + ext))
        if os.path.exists(source):
            os.symlink(source, os.path.join(out, stem + ext))
EOF
  done_ "$1"
}

render() { # generator (receipts or cards), name, its arguments...
  local generator=$1 name=$2
  shift 2
  made "$name" && return
  rm -rf "${SETS:?}/$name"
  "$PY" "bench/gen/$generator.py" --out "$SETS/$name" --jobs 2 "$@"
  done_ "$name"
}

widen() { # name, source set
  made "$1" && return
  rm -rf "${SETS:?}/$1"
  "$PY" bench/kind/augment.py "$SETS/$2" --out "$SETS/$1" --variants margins
  done_ "$1"
}

receipts() {
  [ -d "$DATA/sroie_dev" ] || { echo "sets: $DATA has no sroie_dev: the real receipts are missing" >&2; exit 1; }
  link_folds train "fold is not None and fold != 4"
  link_folds f4de "fold is None or fold == 4"
  local seed count
  seed=$("$PY" -c "import json;print(json.load(open('bench/receipts/splits.json'))['reported_set']['seed'])")
  count=$("$PY" -c "import json;print(json.load(open('bench/receipts/splits.json'))['reported_set']['count'])")
  render receipts rtrain --split train --seed 11 --count 120
  render receipts rheld --split heldout --seed "$seed" --count "$count"
}

wide() {
  receipts
  widen train-wide train
  widen f4de-wide f4de
}

cards() {
  for seed in 7202 9202 9412; do
    render cards "shots-$seed" --kind screenshot --split heldout --seed "$seed" --count 150
  done
  render cards photos-7303 --kind photo --split heldout --seed 7303 --count 100
}

[ $# -eq 0 ] && set -- receipts
for what in "$@"; do
  case $what in
    receipts | wide | cards) "$what" ;;
    all) receipts && wide && cards ;;
    *) echo "sets: unknown set group '$what' (receipts, wide, cards, all)" >&2; exit 2 ;;
  esac
done
