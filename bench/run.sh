#!/usr/bin/env bash
# `make bench`: renders (or reuses) a folder of realistic images, times snapsort's presets with
# jobs=1 and jobs=2, the Python baseline a user would script, and the accuracy evaluations, all
# in one run on this machine; prints a summary and writes bench/results/latest.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
COUNT=${BENCH_COUNT:-100}
WORK=${BENCH_WORK:-bench/work}
SNAPSORT=${SNAPSORT:-"$ROOT/.build/release/snapsort"}
VENV=bench/.venv
RESULTS="$WORK/results"
mkdir -p "$WORK" "$RESULTS"
export OMP_THREAD_LIMIT=1

scripts/ensure-deps.sh tesseract-ocr
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
if ! cmp -s bench/requirements.txt "$VENV/.requirements" 2>/dev/null; then
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r bench/requirements.txt
  cp bench/requirements.txt "$VENV/.requirements"
fi
PY="$VENV/bin/python"

# 1. Images: rendered once per count and reused.
IMAGES="$WORK/images-$COUNT"
if [ ! -f "$IMAGES/.done" ]; then
  rm -rf "$IMAGES"
  echo "bench: rendering $COUNT images of each kind into $IMAGES" >&2
  "$PY" scripts/render_samples.py --bench "$IMAGES" --count "$COUNT"
  touch "$IMAGES/.done"
fi

# 2. snapsort, each preset, jobs=1 and jobs=2.
for preset in cards screenshots receipts; do
  folder="$IMAGES/$preset"
  [ -d "$folder" ] || continue
  for jobs in 1 2; do
    out="$WORK/out-$preset-j$jobs"
    echo "bench: snapsort --preset $preset --jobs $jobs" >&2
    "$SNAPSORT" run "$folder" --preset "$preset" --out "$out" --jobs "$jobs" --fresh --quiet || [ $? -le 1 ]
    cp "$out/run.json" "$RESULTS/snapsort-$preset-j$jobs.json"
  done
done

# 3. The user-script baseline on the same card photos.
for jobs in 1 2; do
  echo "bench: python baseline --jobs $jobs" >&2
  "$PY" bench/baseline/user_script.py "$IMAGES/cards" "$WORK/baseline-cards-j$jobs.jsonl" --jobs "$jobs"
  cp "$WORK/baseline-cards-j$jobs.jsonl.summary.json" "$RESULTS/baseline-cards-j$jobs.json"
done

# 4. Memory stays flat: 100 against 2 000 photos (hard links of the rendered cards).
BIG="$WORK/cards-2000"
if [ ! -f "$BIG/.done" ]; then
  rm -rf "$BIG" && mkdir -p "$BIG"
  files=("$IMAGES"/cards/*.jpg)
  for i in $(seq 0 1999); do
    src=${files[$((i % ${#files[@]}))]}
    ln "$src" "$BIG/$(printf '%04d' "$i")-$(basename "$src")"
  done
  touch "$BIG/.done"
fi
SMALL="$WORK/cards-100"
rm -rf "$SMALL" && mkdir -p "$SMALL"
big_files=("$BIG"/*.jpg)
for path in "${big_files[@]:0:100}"; do ln "$path" "$SMALL/$(basename "$path")"; done
for size in 100 2000; do
  echo "bench: peak RSS over $size photos" >&2
  folder="$SMALL"; [ "$size" = 2000 ] && folder="$BIG"
  "$SNAPSORT" run "$folder" --preset cards --out "$WORK/out-rss-$size" --jobs 2 --fresh --quiet || [ $? -le 1 ]
  cp "$WORK/out-rss-$size/run.json" "$RESULTS/rss-$size.json"
done

# 4b. Memory with the default pipeline.json on a mixed folder, jobs=2 (issue #28 item 4: each
# worker may hold the card and the receipt engines): the first 40 rendered cards, screenshots and
# receipts, and the real receipt scans of ../shared/data when present (linked, never copied).
MIXED="$WORK/mixed"
rm -rf "$MIXED" && mkdir -p "$MIXED"
for kind in cards screenshots receipts; do
  find "$IMAGES/$kind" -maxdepth 1 \( -name '*.jpg' -o -name '*.png' \) | sort | head -40 |
    while read -r path; do ln "$path" "$MIXED/$kind-$(basename "$path")"; done
done
for data in sroie softmatic_de; do
  source="$ROOT/../shared/data/receipts/$data"
  [ -d "$source" ] || continue
  for path in "$source"/*.jpg; do ln -s "$(cd "$(dirname "$path")" && pwd)/$(basename "$path")" "$MIXED/$data-$(basename "$path")"; done
done
echo "bench: peak RSS, default pipeline over $(find "$MIXED" -maxdepth 1 ! -type d | wc -l) mixed images" >&2
"$SNAPSORT" run "$MIXED" --out "$WORK/out-mixed" --jobs 2 --fresh --quiet || [ $? -le 1 ]
cp "$WORK/out-mixed/run.json" "$RESULTS/default-mixed-j2.json"

# 5. Accuracy evaluations, each run by the script of its area when present.
for eval in bench/*/eval.sh; do
  [ -x "$eval" ] || continue
  echo "bench: $eval" >&2
  BENCH_IMAGES="$IMAGES" BENCH_WORK="$WORK" BENCH_RESULTS="$RESULTS" SNAPSORT="$SNAPSORT" PY="$PY" "$eval"
done

"$PY" bench/report.py "$RESULTS" bench/results/latest.md
