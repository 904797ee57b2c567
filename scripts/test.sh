#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every test suite (the
# engine's soak test among them). GPU tests skip themselves when no CUDA device is
# present.
#
#   ZKPIPE_TEST_FULL=1 scripts/test.sh       then also the fuzz smoke run and the sanitizer
#                                            builds (about 20 more minutes on 2 cores)
#   ZKPIPE_FUZZ_SECONDS=60 ...               longer fuzzing per target (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# snarkjs, circom2, circomlib at pinned versions (cached); exit 3 = npm registry
# unreachable with nothing cached, in which case the snarkjs test skips itself.
scripts/install-snarkjs.sh || [ $? -eq 3 ]
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 900
if [[ ${ZKPIPE_TEST_FULL:-0} != 1 ]]; then exit 0; fi

# Fuzzing and sanitizers (README, "Fuzzing and sanitizers"; about 20 minutes on a
# 2-core machine): both run even when the first finds something, so that one CI run
# reports everything; the exit status is non-zero if either did.
status=0
scripts/fuzz.sh "${ZKPIPE_FUZZ_SECONDS:-20}" || status=1
scripts/sanitize.sh || status=1
exit $status
