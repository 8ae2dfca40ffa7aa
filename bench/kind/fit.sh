#!/usr/bin/env bash
# Fits the card-or-receipt model and writes its held-out report (a bench tool, never the product):
# renders the generated sets, makes the augmented real receipts, dumps every photo's kind evidence
# with the classify-only config, and runs fit_kind.py.
#
#   bench/kind/fit.sh            # report only: bench/work/kind/report.md
#   bench/kind/fit.sh --write    # also writes Sources/SnapsortStages/Resources/kind-model.json
#
# SNAPSORT (default .build/release/snapsort) computes the evidence; the model file it loads does
# not change the evidence. About 25 minutes of CPU on a fresh work folder (rendering), one minute
# after that.
set -euo pipefail
cd "$(dirname "$0")/../.."
SNAPSORT=${SNAPSORT:-.build/release/snapsort}
PY=${PY:-bench/.venv/bin/python}
DATA=${SHARED_DATA:-../shared/data}
WORK=bench/work/kind
export OMP_THREAD_LIMIT=1
mkdir -p "$WORK"

render() { # folder, generator arguments...
  local folder=$1
  shift
  [ -f "$WORK/$folder/.done" ] && return
  rm -rf "${WORK:?}/$folder"
  "$PY" "$@" --out "$WORK/$folder" --jobs 2
  touch "$WORK/$folder/.done"
}
render cards-train bench/gen/cards.py --count 300 --kind mixed --split train --seed 11
render cards-train-shots bench/gen/cards.py --count 300 --kind screenshot --split train --seed 12
render cards-train-photos bench/gen/cards.py --count 200 --kind photo --split train --seed 13
render cards-train-rows bench/gen/cards.py --count 200 --kind screenshot --split train --seed 14 --detail-rows 6-16
render cards-train-dense bench/gen/cards.py --count 240 --kind mixed --split train --seed 15 --dense-text 6-24
render cards-heldout bench/gen/cards.py --count 200 --kind mixed --split heldout --seed 2026
[ -f "$WORK/issuer-cards/.done" ] || {
  rm -rf "${WORK:?}/issuer-cards"
  "$PY" scripts/render_samples.py --issuers "$WORK/issuer-cards" --per-issuer 1 --seed 501 --jobs 2
  touch "$WORK/issuer-cards/.done"
}
render receipts-train bench/gen/receipts.py --count 120 --split train --seed 11
render receipts-train2 bench/gen/receipts.py --count 120 --split train --seed 12
render receipts-heldout bench/gen/receipts.py --count 120 --split heldout --seed 7
[ -f "$WORK/aug-sroie/.done" ] || {
  "$PY" bench/kind/augment.py "$DATA/receipts/sroie_dev" "$DATA/receipts/sroie" --out "$WORK/aug-sroie"
  touch "$WORK/aug-sroie/.done"
}
for set in train train2 heldout; do # a rendered receipt photographed in two halves
  [ -f "$WORK/aug-receipts-$set/.done" ] || {
    "$PY" bench/kind/augment.py "$WORK/receipts-$set" --out "$WORK/aug-receipts-$set" --variants half
    touch "$WORK/aug-receipts-$set/.done"
  }
done
[ -f "$WORK/aug-german/.done" ] || {
  "$PY" bench/kind/augment.py "$DATA/receipts/softmatic_de" --out "$WORK/aug-german" --seed 7
  touch "$WORK/aug-german/.done"
}

evidence() { # name, folder
  "$SNAPSORT" run "$2" --config bench/kind/classify-only.json --out "$WORK/ev-$1" --fresh --quiet --jobs 2 \
    </dev/null || [ $? -le 1 ]
}
evidence sroie_dev "$DATA/receipts/sroie_dev"
evidence sroie "$DATA/receipts/sroie"
evidence softmatic_de "$DATA/receipts/softmatic_de"
evidence aug-sroie "$WORK/aug-sroie"
evidence aug-german "$WORK/aug-german"
evidence rcpt-train "$WORK/receipts-train"
evidence rcpt-heldout "$WORK/receipts-heldout"
evidence aug-rcpt-train "$WORK/aug-receipts-train"
evidence aug-rcpt-heldout "$WORK/aug-receipts-heldout"
evidence rcpt-train2 "$WORK/receipts-train2"
evidence aug-rcpt-train2 "$WORK/aug-receipts-train2"
evidence cards-train "$WORK/cards-train"
evidence cards-train-shots "$WORK/cards-train-shots"
evidence cards-train-photos "$WORK/cards-train-photos"
evidence issuer-cards "$WORK/issuer-cards"
evidence cards-train-rows "$WORK/cards-train-rows"
evidence cards-train-dense "$WORK/cards-train-dense"
evidence cards-heldout "$WORK/cards-heldout"
evidence samples samples

args=(--evidence "$WORK" --report "$WORK/report.md")
[ "${1:-}" = "--write" ] && args+=(--write Sources/SnapsortStages/Resources/kind-model.json)
"$PY" bench/kind/fit_kind.py "${args[@]}"
