#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer harnesses in Fuzz/ (ASan + coverage, libFuzzer's driver from the
# toolchain's libclang_rt.fuzzer_no_main) and runs each for FUZZ_SECONDS. The corpus grows in
# .build-fuzz/corpus/<target>; a crashing, leaking or timing-out input is kept in
# Fuzz/regressions/<target>/, which FuzzRegressionTests replays on every `make test`.
#   FUZZ_SECONDS=3600 FUZZ_TARGETS="jpeg png" FUZZ_JOBS=2 make fuzz
# FUZZ_CPU_SECONDS=3600 instead fuzzes each target for that much CPU time, so a soak on a busy
# machine still gives each target the full hour; the summary prints wall and CPU seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SECONDS_PER_TARGET=${FUZZ_SECONDS:-60}
CPU_SECONDS=${FUZZ_CPU_SECONDS:-}
TARGETS=${FUZZ_TARGETS:-jpeg png webp heif load config zbar zxing tesseract}
JOBS=${FUZZ_JOBS:-1}
SCRATCH="$ROOT/.build-fuzz"

resource_dir=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/clang
no_main=$(ls "$resource_dir"/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -1 || true)
[ -n "$no_main" ] || { echo "fuzz: libclang_rt.fuzzer_no_main not found under $resource_dir" >&2; exit 3; }

# Coverage on Swift and on the C shim; ASan everywhere. libFuzzer's driver is linked without its
# main (see Fuzz/Sources/FuzzSupport/FuzzDriver.swift for why).
(cd Fuzz && swift build -c release --scratch-path "$SCRATCH" \
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
  -Xswiftc -parse-as-library -Xswiftc -enable-testing \
  -Xcc -fsanitize=address -Xcc -fsanitize=fuzzer-no-link \
  -Xlinker "$no_main" -Xlinker -lstdc++)

export LSAN_OPTIONS="suppressions=$ROOT/Fuzz/lsan.supp:print_suppressions=0"
failed=0
# With FUZZ_CPU_SECONDS the budget is per target in total, across runs that were stopped before
# it was spent (a session ending, a reboot): .build-fuzz/<target>.cpu tallies the CPU seconds the
# target's corpus has had since its last crash, and a rerun fuzzes only what is left.
run_target() {
  local target=$1 name pid started cpu=0 ticks status=0 base=0 budget="" wall_limit=$SECONDS_PER_TARGET
  name="Fuzz$(case $target in jpeg) echo JPEG;; png) echo PNG;; webp) echo WebP;; heif) echo HEIF;; load) echo Load;; config) echo Config;; zbar) echo ZBar;; zxing) echo ZXing;; tesseract) echo Tesseract;; esac)"
  mkdir -p "$SCRATCH/corpus/$target" "Fuzz/regressions/$target"
  if [ -n "$CPU_SECONDS" ]; then
    base=$(cat "$SCRATCH/$target.cpu" 2>/dev/null || echo 0)
    budget=$((CPU_SECONDS - base))
    if [ "$budget" -le 0 ]; then
      echo "fuzz: $target already had ${base} CPU s without a crash" >&2
      echo "0 0" > "$SCRATCH/$target.time"
      return 0
    fi
    wall_limit=$((budget * 4)) # only a guard against a stalled target
    echo "fuzz: $target for $budget CPU s (${base} done before), at most ${wall_limit}s" >&2
  else
    echo "fuzz: $target for ${SECONDS_PER_TARGET}s" >&2
  fi
  started=$(date +%s)
  # A crash stops this target only: the input is kept and the other targets still run.
  "$SCRATCH/release/$name" "$SCRATCH/corpus/$target" -max_total_time="$wall_limit" \
    -rss_limit_mb=3072 -timeout=20 -max_len=262144 -print_final_stats=1 \
    -artifact_prefix="Fuzz/regressions/$target/" > "$SCRATCH/$target.log" 2>&1 &
  pid=$!
  ticks=$(getconf CLK_TCK)
  while kill -0 "$pid" 2>/dev/null; do
    # utime + stime of the fuzzer (fields 14 and 15 of /proc/PID/stat, after the command name).
    cpu=$(awk -v t="$ticks" '{ sub(/.*\) /, ""); print int(($12 + $13) / t) }' "/proc/$pid/stat" 2>/dev/null || echo "$cpu")
    [ -n "$CPU_SECONDS" ] && echo $((base + cpu)) > "$SCRATCH/$target.cpu"
    if [ -n "$CPU_SECONDS" ] && [ "$cpu" -ge "$budget" ]; then
      kill -INT "$pid"
      wait "$pid" || true # libFuzzer exits 72 on SIGINT after printing its final stats
      echo "$(( $(date +%s) - started )) $cpu" > "$SCRATCH/$target.time"
      return 0
    fi
    sleep 5
  done
  wait "$pid" || status=$?
  echo "$(( $(date +%s) - started )) $cpu" > "$SCRATCH/$target.time"
  # The crash-free tally starts again once the crash is fixed.
  [ "$status" -ne 0 ] && rm -f "$SCRATCH/$target.cpu"
  return "$status"
}
pids=()
for target in $TARGETS; do
  run_target "$target" & pids+=($!)
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 1; done
done
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done

for target in $TARGETS; do
  log="$SCRATCH/$target.log"
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  kept=$(ls "Fuzz/regressions/$target" | wc -l)
  read -r wall cpu < "$SCRATCH/$target.time" || { wall='?'; cpu='?'; }
  total=$(cat "$SCRATCH/$target.cpu" 2>/dev/null || echo "$cpu")
  echo "fuzz: $target: this run ${wall}s wall and ${cpu}s CPU (${total}s CPU in total without a crash), $runs runs, $cov, corpus $(ls "$SCRATCH/corpus/$target" | wc -l) inputs, regressions kept $kept"
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz: a target failed; its input is in Fuzz/regressions/<target>/ and its log in $SCRATCH/<target>.log" >&2
  exit 1
fi
