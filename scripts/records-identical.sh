#!/usr/bin/env bash
# Proves a change leaves records byte-identical: runs a snapsort binary over samples/ and the real
# data in ../shared/data with every config users run, keeps each run's records.jsonl and the
# hashes of its crops, and compares two such snapshots.
#
#   scripts/records-identical.sh snapshot BINARY DIR    # e.g. before: .build/release/snapsort
#   scripts/records-identical.sh compare DIR_BEFORE DIR_AFTER
#
# SNAPSHOT_QUICK=1 leaves out sroie_dev (300 receipts, about 8 minutes at two jobs).
set -euo pipefail
cd "$(dirname "$0")/.."
export OMP_THREAD_LIMIT=1
DATA=${SHARED_DATA:-../shared/data}

# name | input folder | extra arguments
cases() {
  echo "samples-default|samples|"
  echo "samples-cards|samples|--preset cards"
  echo "samples-screenshots|samples|--preset screenshots"
  echo "samples-receipts|samples/receipts|--preset receipts"
  [ -d "$DATA/barcodes" ] && echo "barcodes-screenshots|$DATA/barcodes|--preset screenshots"
  [ -d "$DATA/barcodes" ] && echo "barcodes-default|$DATA/barcodes|"
  [ -d "$DATA/receipts/sroie" ] && echo "sroie-receipts|$DATA/receipts/sroie|--preset receipts"
  [ -d "$DATA/receipts/sroie" ] && echo "sroie-default|$DATA/receipts/sroie|"
  [ -d "$DATA/receipts/softmatic_de" ] && echo "german-receipts|$DATA/receipts/softmatic_de|--preset receipts"
  [ -d "$DATA/receipts/softmatic_de" ] && echo "german-default|$DATA/receipts/softmatic_de|"
  if [ -z "${SNAPSHOT_QUICK:-}" ] && [ -d "$DATA/receipts/sroie_dev" ]; then
    echo "sroie-dev-receipts|$DATA/receipts/sroie_dev|--preset receipts"
  fi
}

snapshot() {
  local binary=$1 dir=$2
  mkdir -p "$dir"
  cases | while IFS='|' read -r name input args; do
    echo "records-identical: $name" >&2
    local out="$dir/$name.out"
    # shellcheck disable=SC2086 # the arguments are words
    "$binary" run "$input" --out "$out" --fresh --quiet --jobs 2 $args </dev/null || [ $? -le 1 ]
    cp "$out/records.jsonl" "$dir/$name.records.jsonl"
    if [ -d "$out/cards" ]; then
      (cd "$out" && find cards -type f -print0 | sort -z | xargs -0 -r sha256sum) >"$dir/$name.crops.sha256"
    else
      : >"$dir/$name.crops.sha256"
    fi
    rm -rf "$out"
  done
}

compare() {
  local before=$1 after=$2 failed=0
  for file in "$before"/*.records.jsonl "$before"/*.crops.sha256; do
    local name
    name=$(basename "$file")
    if [ ! -f "$after/$name" ]; then
      echo "missing in $after: $name"
      failed=1
    elif cmp -s "$file" "$after/$name"; then
      echo "identical: $name ($(wc -l <"$file") lines)"
    else
      echo "DIFFERENT: $name"
      diff <(tr ',' '\n' <"$file") <(tr ',' '\n' <"$after/$name") | head -20 || true
      failed=1
    fi
  done
  return $failed
}

case "${1:-}" in
  snapshot) snapshot "$2" "$3" ;;
  compare) compare "$2" "$3" ;;
  *)
    echo "usage: $0 snapshot BINARY DIR | compare DIR_BEFORE DIR_AFTER" >&2
    exit 2
    ;;
esac
