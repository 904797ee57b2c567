#!/usr/bin/env bash
# The CPU test suites under the sanitizers (CUDA off, benchmarks off, RelWithDebInfo):
#   asan  ASan + UBSan build in ./build-asan of the command line and the test suites
#         named at asan_suites, then ctest (less the tests listed at asan_excluded,
#         which run in the plain build); any sanitizer report fails (UBSan:
#         -fno-sanitize-recover=all).
#         With clang 16 or later (scripts/lib/clang.sh) the build is the fuzzing one
#         (-DZKPIPE_FUZZ=ON: ASan + UBSan and coverage instrumentation), so that it
#         makes the libFuzzer targets too and scripts/fuzz.sh runs them from it
#         (ZKPIPE_FUZZ_PREBUILT=build-asan, as scripts/test.sh does): one instrumented
#         build of the sources instead of two. Without clang, g++ and ZKPIPE_SANITIZE.
#   tsan  ThreadSanitizer build in ./build-tsan (g++) of the engine tests only
#         (test_engine, soak test included), run once; any race or lock-order report
#         fails.
# The soak test runs ZKPIPE_SOAK_PROOFS proofs here (fewer than its 500: the
# sanitizers slow the prover 3-10 times); its RSS check is skipped under them.
#
#   scripts/sanitize.sh [asan|tsan]...      default: both
#   ZKPIPE_SANITIZE_CXX=g++ scripts/sanitize.sh asan    another compiler for asan
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/clang.sh
modes=("$@")
((${#modes[@]})) || modes=(asan tsan)

generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
jobs=$(nproc)

# configure DIR CXX CMAKE-ARGS...: a fresh configuration unless DIR was made with the
# same generator and compiler.
configure() {
  local dir=$1 cxx=$2
  shift 2
  if [[ -f $dir/CMakeCache.txt ]] &&
    ! { grep -q "CMAKE_GENERATOR:INTERNAL=${generator[1]:-Unix Makefiles}" "$dir/CMakeCache.txt" &&
      grep -q "CMAKE_CXX_COMPILER:.*=$(command -v "$cxx")\$" "$dir/CMakeCache.txt"; }; then
    rm -rf "$dir"
  fi
  # RelWithDebInfo with line tables only: what the reports' stacks need, a quarter
  # less compile time than full debug information.
  cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DCMAKE_CXX_COMPILER="$cxx" -DZKPIPE_CUDA=OFF -DZKPIPE_BENCH=OFF -DZKPIPE_TESTS=ON "$@" >/dev/null
}

# Left out of the ASan + UBSan run, each for a reason that has nothing to do with
# memory errors (they all run in the plain build):
#   snarkjs_roundtrip            node and circom, no code of ours under the sanitizers
#   Allocator.*, ProcessMemory.RuntimeIsCodePlusHeap
#                                assert glibc malloc's behaviour, which ASan replaces
#   cli.service, cli.service_load, cli.cluster, service.cluster_queue
#                                whole daemons against wall-clock deadlines and an RSS
#                                bound (ASan's shadow memory); the cluster ones also
#                                report libpq's own allocations as leaks
#   FilecoinStackedReference.*, FilecoinSyntheticC1.ThirtyTwoGiBIsConsistent,
#   FilecoinSyntheticC1.TwoKiBPartitionSatisfiesTheCircuit,
#   FilecoinC1Circuit.ShapeSynthesizesAsTheRealCircuit
#                                the largest Filecoin checks (four 1.2 M-constraint
#                                reference circuits, a 32 GiB synthetic C1, two more
#                                whole 2 KiB partitions), minutes under ASan on 2
#                                cores; the same code runs under it in the 2 KiB seal,
#                                C1 (a whole partition satisfied) and tampering tests
#   FilecoinUpdateCircuit.ThirtyTwoGiBCountsAreRustFilProofs,
#   FilecoinUpdateCircuit.Sha256VariantCountsAreRustFilProofs,
#   FilecoinUpdateCircuit.ASha256UpdateSatisfiesTheCircuitAndTamperingBreaksIt,
#   FilecoinUpdateCircuit.AnEmptyUpdateOfAnySizeSatisfiesTheCircuit
#                                SnapDeals counted at 32 GiB (103 M constraints, 50 s in
#                                the plain build), six SHA-256 sizes (20 M), a SHA-256
#                                update checked 7 times (1.7 M each) and an empty one's
#                                two partitions (6.3 M each); the Poseidon variant's
#                                counts and update run under ASan
#   cli.filecoin                 a 2^22 setup and proof (2 min in the plain build); its
#                                seal, C1 and .params checks run under ASan in test_proving
#   UpdateService.AnUpdateIsProvedFromItsVanillaPartitionProofsDirectlyAndThroughCuzk
#                                a 1.7 M-constraint SnapDeals key set up and two proofs
#                                (62 s in the plain suites on 2 cores); the same job code runs under
#                                ASan in the refusal tests and the PoSt jobs' proofs
#   FilecoinStackedCircuit.(SeveralPartitionsAndChallenges|ValuesOnlyWitnessEqualsTheFullSynthesis|
#     ShapeFromOneChallengeEqualsTheSynthesis|TwoKiBSealProofPartition),
#   FilecoinStackedTampering.(TreeCAndTreeRLastSiblings|ForgedLabels|ParentColumnValues|
#     DataLeafAndTreeDSibling|ChallengeIndex),
#   FilecoinSdrGraph.ParentCacheOf8MiBMatchesTheManifest, FilecoinPostCircuit.PublishedProofsHaveTheirCounts,
#   PorepPreset.EachPresetFitsTheDomainItsNameGives, Presets/PceSynthesis.EqualsProvingAssignmentBitForBit/"2e20"
#                                more whole partitions and counts of the same circuits
#                                (25-55 s each under ASan on 2 cores, 8 minutes together);
#                                the honest partition, a comm_r tampering, the C1 circuit
#                                from a sealed sector and the smaller presets run under it
#   PostService.ACriticalWindowPostStartsAtTheNextPartitionBoundary
#                                the order of partitions under load (41 s under ASan); the
#                                PoSt jobs' own proofs run under it
asan_excluded='^(snarkjs_roundtrip|Allocator\..*|ProcessMemory\.RuntimeIsCodePlusHeap|cli\.service|cli\.service_load|cli\.cluster|cli\.filecoin|service\.cluster_queue|.*FilecoinStackedReference\..*|FilecoinSyntheticC1\.(ThirtyTwoGiBIsConsistent|TwoKiBPartitionSatisfiesTheCircuit)|FilecoinC1Circuit\.ShapeSynthesizesAsTheRealCircuit|FilecoinUpdateCircuit\.(ThirtyTwoGiBCountsAreRustFilProofs|Sha256VariantCountsAreRustFilProofs|ASha256UpdateSatisfiesTheCircuitAndTamperingBreaksIt|AnEmptyUpdateOfAnySizeSatisfiesTheCircuit)|UpdateService\.AnUpdateIsProvedFromItsVanillaPartitionProofsDirectlyAndThroughCuzk|FilecoinStackedCircuit\.(SeveralPartitionsAndChallenges|ValuesOnlyWitnessEqualsTheFullSynthesis|ShapeFromOneChallengeEqualsTheSynthesis|TwoKiBSealProofPartition)|FilecoinStackedTampering\.(TreeCAndTreeRLastSiblings|ForgedLabels|ParentColumnValues|DataLeafAndTreeDSibling|ChallengeIndex)|FilecoinSdrGraph\.ParentCacheOf8MiBMatchesTheManifest|FilecoinPostCircuit\.PublishedProofsHaveTheirCounts|PorepPreset\.EachPresetFitsTheDomainItsNameGives|Presets/PceSynthesis\.EqualsProvingAssignmentBitForBit/"2e20"|PostService\.ACriticalWindowPostStartsAtTheNextPartitionBoundary)$'

# The suites built and run under ASan + UBSan: the layers that own buffers, files,
# threads and daemons, whose tests reach every layer below them through their proofs,
# readers and jobs. The suites of those lower layers (fields, curves, pairing,
# polynomials, constraint systems, gadgets, circuits: fixed-size arithmetic checked
# against GMP and naive references) run in the plain build; their readers of untrusted
# input (C1 outputs, vanilla proofs) are the fuzzers' targets, under the same sanitizers.
# The arithmetic layers' own units are built uninstrumented (CMakeLists.txt says why).
asan_suites="memory;io;groth16;formats;engine;proving;service"

# Each mode returns its tests' status itself: called as `run_x || …`, a function runs
# without set -e, so a failing ctest would otherwise be hidden by the echo after it.
run_asan() {
  local t0 rc=0 cxx options
  t0=$(date +%s)
  cxx=${ZKPIPE_SANITIZE_CXX:-$(find_clang16 || echo g++)}
  if [[ $cxx == *clang* ]]; then
    options=(-DZKPIPE_FUZZ=ON -DZKPIPE_SANITIZE= "-DZKPIPE_TEST_SUITES=$asan_suites")
    export_symbolizer "$cxx"
  else
    options=(-DZKPIPE_FUZZ=OFF -DZKPIPE_SANITIZE=address,undefined "-DZKPIPE_TEST_SUITES=$asan_suites")
  fi
  configure build-asan "$cxx" "${options[@]}" || return
  cmake --build build-asan -j"$jobs" || return
  local built=$(($(date +%s) - t0))
  # detect_leaks: LeakSanitizer at every test program's exit.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ZKPIPE_SOAK_PROOFS=${ZKPIPE_SOAK_PROOFS:-40} \
    ctest --test-dir build-asan --output-on-failure -j"$jobs" --timeout 1800 -E "$asan_excluded" || rc=$?
  echo "zkpipe sanitize: asan+ubsan ($cxx): built in $built s, ran in $(($(date +%s) - t0 - built)) s"
  return $rc
}

run_tsan() {
  local t0 rc=0
  t0=$(date +%s)
  configure build-tsan g++ -DZKPIPE_FUZZ=OFF -DZKPIPE_SANITIZE=thread || return
  cmake --build build-tsan -j"$jobs" --target test_engine || return
  local built=$(($(date +%s) - t0))
  # One process for the whole suite (ctest would start one per test case).
  # oneTBB runs one thread in this build (tests/engine/tsan_environment.cpp says why).
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ZKPIPE_SOAK_PROOFS=${ZKPIPE_SOAK_PROOFS:-30} \
    build-tsan/tests/test_engine || rc=$?
  echo "zkpipe sanitize: tsan (g++): built in $built s, ran in $(($(date +%s) - t0 - built)) s"
  return $rc
}

# Every mode runs even when one fails, so that one run reports everything.
status=0
for m in "${modes[@]}"; do
  case $m in
    asan) run_asan || { status=1; echo "zkpipe sanitize: asan+ubsan FAILED" >&2; } ;;
    tsan) run_tsan || { status=1; echo "zkpipe sanitize: tsan FAILED" >&2; } ;;
    *) echo "usage: $0 [asan|tsan]..." >&2; exit 2 ;;
  esac
done
exit $status
