#!/usr/bin/env bash
# Search over a 10 000-record store: builds a synthetic run (bench/store/make_records.py),
# lets `snapsort merge` write its store as any run does, then times several query shapes.
# Per query: the median of 7 runs of the query inside the process (`--time`: wall and CPU ms),
# and the median wall time of the whole command (process start and JSON output included).
# Target: <= 100 ms per query (wall, inside the process).
set -euo pipefail
COUNT=${STORE_RECORDS:-10000}
WORK="$BENCH_WORK/store"
rm -rf "$WORK" && mkdir -p "$WORK"
"$PY" bench/store/make_records.py "$WORK/synthetic" "$COUNT"
start=$(date +%s%N)
"$SNAPSORT" merge "$WORK/synthetic" --out "$WORK/out" >/dev/null 2>&1 || [ $? -le 1 ]
build=$(awk -v ns="$(( $(date +%s%N) - start ))" 'BEGIN { printf "%.1f", ns / 1e9 }')
DB="$WORK/out/snapsort.sqlite"

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

{
  echo "## Store search ($COUNT records)"
  echo
  printf 'Store written by `snapsort merge` (records, FTS5 index, report) in %s s; %s MB.\n\n' "$build" \
    "$(du -m "$DB" | cut -f1)"
  echo "Machine load (1 min) when the queries ran: $(cut -d' ' -f1 /proc/loadavg) on $(getconf _NPROCESSORS_ONLN) cores."
  echo
  echo "| query | matches | median query ms | median query CPU ms | median command ms | ≤ 100 ms |"
  echo "|---|---:|---:|---:|---:|---|"
} > "$BENCH_RESULTS/store.md"

run_query() {
  local label=$1; shift
  local inside=() cpu=() wall=() matches=0
  for _ in 1 2 3 4 5 6 7; do
    local t0 t1
    t0=$(date +%s%N)
    matches=$("$SNAPSORT" search "$@" --db "$DB" --json --time 2>"$WORK/err" | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)))')
    t1=$(date +%s%N)
    inside+=("$(sed -n 's/.*search took \([0-9.]*\) ms.*/\1/p' "$WORK/err")")
    cpu+=("$(sed -n 's/.*(\([0-9.]*\) ms CPU).*/\1/p' "$WORK/err")")
    wall+=("$(( (t1 - t0) / 1000000 ))")
  done
  local mi mc mw
  mi=$(printf '%s\n' "${inside[@]}" | median)
  mc=$(printf '%s\n' "${cpu[@]}" | median)
  mw=$(printf '%s\n' "${wall[@]}" | median)
  local ok=met; awk -v m="$mi" 'BEGIN{exit !(m > 100)}' && ok=MISSED
  echo "| \`$label\` | $matches | $mi | $mc | $mw | $ok |" >> "$BENCH_RESULTS/store.md"
  echo "bench store: $label: $matches matches, median ${mi} ms, ${mc} ms CPU (command ${mw} ms)" >&2
}

run_query "coffee" "coffee"
run_query "coffee milk" "coffee milk"
run_query "coffee or tea -milk" "coffee or tea -milk"
run_query "not batteries" "not batteries"
run_query "oil (2-letter keyword scan: oi)" "oi"
run_query "(empty) --kind receipt --min-total 50" "" --kind receipt --min-total 50
run_query "green --from 2024-01 --to 2024-06" "green" --from 2024-01 --to 2024-06
run_query "5901 --kind card" "5901" --kind card
run_query "zabka or żabka --merchant a" "zabka or żabka" --merchant a
