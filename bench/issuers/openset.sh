#!/usr/bin/env bash
# Open-set issuer figure of issue #25 item 4, as a user meets it: `train-issuers` on a labelled
# folder of a few cards per issuer, tested on other renders of those issuers and of 7 issuers left
# out of training and of the catalog (fixed by bench/issuers/openset_set.py, never tuned on).
#   bench/issuers/openset.sh WORK [gen|samples]
# gen:     bench/gen renders, training with its train font/layout/app families, test with its
#          held-out families (the harder set: OCR meets fonts it was never looked at with);
# samples: scripts/render_samples.py --issuers with other seeds than the bundled model's (104).
# Prints eval-issuers on the test renders (known issuers' top-1, unknown recall and precision)
# and on invented brands (gen only). SNAPSORT (default .build-test/release/snapsort), PY (python
# with Pillow/numpy) as bench/run.sh sets them.
set -euo pipefail
WORK=$1
KIND=${2:-gen}
SNAPSORT=${SNAPSORT:-.build-test/release/snapsort}
PY=${PY:-bench/.venv/bin/python}
export OMP_THREAD_LIMIT=1
mkdir -p "$WORK"
if [ "$KIND" = gen ]; then
  for part in train test test-fictional; do
    [ -d "$WORK/$part" ] || "$PY" bench/issuers/openset_set.py "$WORK" --part "$part"
  done
else
  # The same issuers and left-out ones as the gen set (split.json), rendered by render_samples.
  [ -f "$WORK/split.json" ] || "$PY" bench/issuers/openset_set.py "$WORK" --part test-fictional
  "$PY" - "$WORK" <<'EOF'
import json, sys
work = sys.argv[1]
catalog = json.load(open("Sources/SnapsortStages/Resources/issuers.json", encoding="utf-8"))
split = json.load(open(f"{work}/split.json"))
for name, ids in (("train", split["known"]), ("test", split["known"] + split["left_out"])):
    subset = dict(catalog, issuers=[i for i in catalog["issuers"] if i["id"] in set(ids)])
    json.dump(subset, open(f"{work}/catalog-{name}.json", "w", encoding="utf-8"), ensure_ascii=False)
EOF
  [ -d "$WORK/train" ] || "$PY" scripts/render_samples.py --issuers "$WORK/train" --per-issuer 5 --seed 501 \
    --catalog "$WORK/catalog-train.json" --jobs 2
  [ -d "$WORK/test" ] || "$PY" scripts/render_samples.py --issuers "$WORK/test" --per-issuer 4 --seed 502 \
    --catalog "$WORK/catalog-test.json" --jobs 2
  find "$WORK/train" "$WORK/test" -name '*.expected.json' -delete
fi
for part in train test test-fictional; do
  [ -d "$WORK/$part" ] || continue
  [ -f "$WORK/run-$part/records.jsonl" ] ||
    "$SNAPSORT" run "$WORK/$part" --out "$WORK/run-$part" --preset cards --jobs 2 --fresh --quiet
done
"$SNAPSORT" train-issuers --records "$WORK/run-train/records.jsonl" --catalog "$WORK/catalog-known.json" \
  --hold-out 0 --test-fraction 0 --jobs 2 -o "$WORK/model.json"
"$SNAPSORT" eval-issuers --records "$WORK/run-test/records.jsonl" --model "$WORK/model.json" \
  --catalog "$WORK/catalog-known.json" --jobs 2 --json "$WORK/eval.json"
if [ -f "$WORK/run-test-fictional/records.jsonl" ]; then
  "$SNAPSORT" eval-issuers --records "$WORK/run-test-fictional/records.jsonl" --model "$WORK/model.json" \
    --catalog "$WORK/catalog-known.json" --jobs 2
fi
