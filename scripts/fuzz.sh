#!/usr/bin/env bash
# Fuzzes every reader of untrusted input with libFuzzer, ASan and UBSan (fuzz/):
# configures and builds ./build-fuzz with clang (CUDA off), writes the seed corpora
# (tests/fixtures/ plus small generated files: fuzz/make_seeds.cpp), replays the
# regression inputs in fuzz/regressions/<target>/, then runs each target for the
# given time. Prints each target's executions and rate; exits non-zero on any finding
# (crash, leak, sanitizer report, timeout, out of memory), whose input is kept in
# build-fuzz/fuzz-artifacts/<target>/ (copy it to fuzz/regressions/<target>/).
#
#   scripts/fuzz.sh [seconds-per-target]        default 30
#   ZKPIPE_FUZZ_TARGETS="zkey r1cs" scripts/fuzz.sh 60    a subset
#   ZKPIPE_FUZZ_KEEP_GOING=1 scripts/fuzz.sh 600   go on after a finding (libFuzzer
#       -fork=1 -ignore_crashes=1: every distinct finding of a long run, and targets
#       with a known open finding still fuzzed); still exits non-zero
#   ZKPIPE_FUZZ_JOBS=16 scripts/fuzz.sh 600    that many targets at once (default 1;
#       each target is one process on one core)
#   ZKPIPE_FUZZ_SEED=1 scripts/fuzz.sh 20      libFuzzer's random seed fixed (CI: a
#       failure is replayed by the same command)
#   ZKPIPE_FUZZ_PREBUILT=DIR scripts/fuzz.sh    the targets already built in DIR/fuzz/
#       (a machine without clang: copy them there with their shared libraries)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
build=${ZKPIPE_FUZZ_PREBUILT:-build-fuzz}
jobs=${ZKPIPE_FUZZ_JOBS:-1}

# Largest input per target: a little above its largest useful seed, so that the
# fuzzer mutates files of the format's real size and runs thousands of times a
# second. (The tests/fixtures/ .zkey and .r1cs are larger and enter truncated.)
declare -A max_len=(
  [zkey]=16384 [r1cs]=4096 [wtns]=2048
  [parameter_file]=65536 [evaluator_file]=98304
  [proofs]=1024 [bellperson_vk]=4096 [bellperson_params]=65536
  [proof_json]=4096 [public_json]=1024 [verifying_key_json]=8192
  [service_request]=4096
  [c1_output]=131072 [vanilla_proofs]=16384
)
all_targets="zkey r1cs wtns parameter_file evaluator_file proofs proof_json public_json verifying_key_json bellperson_vk bellperson_params c1_output vanilla_proofs"

t0=$(date +%s)
source scripts/lib/clang.sh
if [[ -z ${ZKPIPE_FUZZ_PREBUILT:-} ]]; then
  cxx=$(find_clang16 "${ZKPIPE_FUZZ_CXX:-}") || {
    echo "zkpipe fuzz: needs clang 16 or later with libFuzzer (scripts/install-deps.sh installs clang-16 and libclang-rt-16-dev)" >&2
    exit 1
  }
  generator=()
  if command -v ninja >/dev/null; then generator=(-G Ninja); fi
  # A build directory made with another generator or compiler cannot be reused.
  if [[ -f $build/CMakeCache.txt ]] &&
    ! { grep -q "CMAKE_GENERATOR:INTERNAL=${generator[1]:-Unix Makefiles}" "$build/CMakeCache.txt" &&
      grep -q "CMAKE_CXX_COMPILER:.*=$(command -v "$cxx")\$" "$build/CMakeCache.txt"; }; then
    rm -rf "$build"
  fi
  cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" -DCMAKE_CXX_COMPILER="$cxx" \
    -DZKPIPE_CUDA=OFF -DZKPIPE_FUZZ=ON -DZKPIPE_TESTS=OFF -DZKPIPE_BENCH=OFF >/dev/null
  cmake --build "$build" --target zkpipe_fuzz -j"$(nproc)"
  echo "zkpipe fuzz: built in $(($(date +%s) - t0)) s"
fi
# The service's requests: a target only where the service was built (its libraries found).
if [[ -x $build/fuzz/fuzz_service_request ]]; then all_targets+=" service_request"; fi
targets=${ZKPIPE_FUZZ_TARGETS:-$all_targets}

# Seed corpora: generated files, then the fixtures of both circom sets.
seeds=$build/seeds
rm -rf "$seeds"
ASAN_OPTIONS=detect_leaks=1 "$build/fuzz/fuzz_make_seeds" "$seeds"
if [[ -x $build/fuzz/fuzz_make_service_seeds ]]; then
  ASAN_OPTIONS=detect_leaks=1 "$build/fuzz/fuzz_make_service_seeds" "$seeds"
fi
for set in chain-2e10 sorted64x16; do
  f=tests/fixtures/$set
  cp "$f/circuit_final.zkey" "$seeds/zkey/$set.zkey"
  cp "$f/circuit.r1cs" "$seeds/r1cs/$set.r1cs"
  cp "$f/witness.wtns" "$seeds/wtns/$set.wtns"
  cp "$f/proof.json" "$seeds/proof_json/$set-proof.json"
  cp "$f/refproof_rs0.json" "$seeds/proof_json/$set-refproof.json"
  cp "$f/public.json" "$seeds/public_json/$set-public.json"
  cp "$f/refproof_rs0_public.json" "$seeds/public_json/$set-refproof-public.json"
  cp "$f/input.json" "$seeds/public_json/$set-input.json"
  cp "$f/verification_key.json" "$seeds/verifying_key_json/$set.json"
done

export_symbolizer "${cxx:-$(find_clang16 || true)}"
# Stack use-after-return detection is off here: its fake stacks are collected at
# every thrown exception, which halves the rate of targets whose inputs are mostly
# refused (scripts/sanitize.sh keeps it on for the test suites).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# The path-based targets write each input to a file of their own here: in memory
# (/dev/shm) where there is one, which runs them up to twice as fast as a disk.
if [[ -d /dev/shm && -w /dev/shm ]]; then TMPDIR=/dev/shm/zkpipe-fuzz-$$; else TMPDIR=$PWD/$build/tmp; fi
export TMPDIR
rm -rf "$TMPDIR"
mkdir -p "$TMPDIR"
trap 'rm -rf "$TMPDIR"' EXIT
logs=$build/fuzz-logs
artifacts=$build/fuzz-artifacts
results=$logs/results
rm -rf "$results"
mkdir -p "$logs" "$results"

# fuzz_one TARGET: replays its regression inputs, fuzzes it, and writes its summary
# line to $results/TARGET (and TARGET.failed on a finding).
fuzz_one() {
  local t=$1
  local bin=$build/fuzz/fuzz_$t
  mkdir -p "$build/corpus/$t" "$artifacts/$t"
  local dict=()
  case $t in
    *_json | c1_output) dict=(-dict=fuzz/json.dict) ;;
    zkey | r1cs | wtns | parameter_file | evaluator_file) dict=(-dict=fuzz/binary.dict) ;;
  esac
  # Inputs that once crashed a target: each must now be handled.
  local regressions=()
  if [[ -d fuzz/regressions/$t ]]; then
    mapfile -t regressions < <(find "fuzz/regressions/$t" -type f | sort)
  fi
  if ((${#regressions[@]})); then
    if ! "$bin" -timeout=30 "${regressions[@]}" >"$logs/$t-regressions.log" 2>&1; then
      {
        echo "zkpipe fuzz: $t: a regression input fails again (log: $logs/$t-regressions.log)"
        grep -E "^Running:|what\(\)|ERROR: |runtime error:| in (zkpipe::|LLVMFuzzerTestOneInput)" \
          "$logs/$t-regressions.log" | cut -c1-240 | head -n 12 || true
      } >&2
      echo "$t (regression)" >"$results/$t.failed"
      [[ ${ZKPIPE_FUZZ_KEEP_GOING:-0} == 1 ]] || return 0
    fi
  fi
  local mode=(-print_final_stats=1)
  if [[ ${ZKPIPE_FUZZ_KEEP_GOING:-0} == 1 ]]; then mode=(-fork=1 -ignore_crashes=1); fi
  local seed=()
  if [[ -n ${ZKPIPE_FUZZ_SEED:-} ]]; then seed=(-seed="$ZKPIPE_FUZZ_SEED"); fi
  touch "$logs/$t.log.start"
  local start status=0
  start=$(date +%s.%N)
  "$bin" "${dict[@]}" "${seed[@]}" -max_len="${max_len[$t]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    "${mode[@]}" -artifact_prefix="$artifacts/$t/" \
    "$build/corpus/$t" "$seeds/$t" ${regressions:+"fuzz/regressions/$t"} >"$logs/$t.log" 2>&1 || status=$?
  local elapsed runs rate corpus crashes verdict line
  elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$t.log" | tail -n 1)
  # Fork mode reports no final stats: its last "#<executions>: cov: …" line instead.
  [[ -n $runs ]] || runs=$(sed -n 's/^#\([0-9][0-9]*\): cov:.*/\1/p' "$logs/$t.log" | tail -n 1)
  runs=${runs:-0}
  rate=$(awk -v n="$runs" -v s="$elapsed" 'BEGIN { printf "%.0f", n / s }')
  corpus=$(find "$build/corpus/$t" -type f | wc -l)
  crashes=$(find "$artifacts/$t" -type f -newer "$logs/$t.log.start" | wc -l)
  verdict=ok
  if ((status != 0)); then verdict="FINDING (exit $status)"; elif ((crashes != 0)); then verdict="FINDINGS ($crashes inputs)"; fi
  line=$(printf '%-20s %12s executions %8s exec/s %6s s  corpus %5s  %s' "$t" "$runs" "$rate" \
    "$elapsed" "$corpus" "$verdict")
  echo "zkpipe fuzz: $line"
  echo "$line" >"$results/$t"
  if ((status != 0 || crashes != 0)); then
    echo "$t" >"$results/$t.failed"
    {
      grep -E "ERROR: |runtime error:|SUMMARY:|Test unit written to" "$logs/$t.log" | head -n 8 || true
      echo "zkpipe fuzz: $t: full log in $logs/$t.log; keep the input under fuzz/regressions/$t/"
    } >&2
  fi
}

for t in $targets; do
  [[ -x $build/fuzz/fuzz_$t ]] || { echo "zkpipe fuzz: no target $t" >&2; exit 2; }
done
running=0
for t in $targets; do
  if ((running >= jobs)); then
    wait -n
    running=$((running - 1))
  fi
  fuzz_one "$t" &
  running=$((running + 1))
done
wait

echo
compiler="prebuilt targets"
if [[ -n ${cxx:-} ]]; then compiler="$cxx $("$cxx" -dumpversion)"; fi
echo "zkpipe fuzz: $seconds s per target, $jobs at once, $compiler, $(nproc) cores"
for t in $targets; do cat "$results/$t" 2>/dev/null || true; done
echo "zkpipe fuzz: total $(($(date +%s) - t0)) s"
failed=$(find "$results" -name '*.failed' -exec cat {} + | tr '\n' ' ')
if [[ -n $failed ]]; then
  echo "zkpipe fuzz: FINDINGS in: $failed" >&2
  exit 1
fi
