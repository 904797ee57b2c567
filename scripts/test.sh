#!/usr/bin/env bash
# The test command (CI's too: .ci/run): installs what is missing, builds, runs every
# test suite (the engine's soak test among them; GPU tests skip themselves when no
# CUDA device is present), then runs the suites of the layers that own buffers, files,
# threads and daemons under ASan + UBSan, fuzzes every reader of untrusted input and
# runs the engine tests under ThreadSanitizer (README, "Fuzzing and sanitizers").
#
#   ZKPIPE_TEST_QUICK=1 scripts/test.sh      the test suites only
#   ZKPIPE_FUZZ_SECONDS=60 ...               longer fuzzing per target (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# snarkjs, circom2, circomlib at pinned versions (cached); exit 3 = npm registry
# unreachable with nothing cached, in which case the snarkjs test skips itself.
scripts/install-snarkjs.sh || [ $? -eq 3 ]
# GPU code for one architecture, consumer Ampere's (the tightest shared memory of the
# default build's seven): every kernel goes through the compiler and the assembler's
# resource checks once instead of seven times; CI has no GPU to run it.
# ZKPIPE_CUDA_ARCHITECTURES overrides it (README, "GPUs"). The benchmark programs are
# left out: nothing here runs them (scripts/bench-arith.sh builds them).
scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES="${ZKPIPE_CUDA_ARCHITECTURES:-86-real}" -DZKPIPE_BENCH=OFF
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 900
if [[ ${ZKPIPE_TEST_QUICK:-0} == 1 ]]; then exit 0; fi

# Each runs even when one before it finds something, so that one run reports
# everything; the exit status is non-zero if any did. The ASan + UBSan build is
# clang's fuzzing build where clang 16 is installed (scripts/sanitize.sh): the
# fuzzers then run from it instead of a build of their own. Their seed is fixed, so
# that runs on a clean checkout (an empty corpus) try the same inputs; one target
# per core.
status=0
scripts/sanitize.sh asan || status=1
fuzz_env=(ZKPIPE_FUZZ_SEED="${ZKPIPE_FUZZ_SEED:-1}" ZKPIPE_FUZZ_JOBS="${ZKPIPE_FUZZ_JOBS:-$(nproc)}")
if [[ -x build-asan/fuzz/fuzz_make_seeds ]]; then fuzz_env+=(ZKPIPE_FUZZ_PREBUILT=build-asan); fi
env "${fuzz_env[@]}" scripts/fuzz.sh "${ZKPIPE_FUZZ_SECONDS:-20}" || status=1
scripts/sanitize.sh tsan || status=1
exit $status
