#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every test suite.
# GPU tests skip themselves when no CUDA device is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# snarkjs, circom2, circomlib at pinned versions (cached); exit 3 = npm registry
# unreachable with nothing cached, in which case the snarkjs test skips itself.
scripts/install-snarkjs.sh || [ $? -eq 3 ]
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 900
