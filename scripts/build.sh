#!/usr/bin/env bash
# Configures and builds zkpipe in ./build (Release). Extra arguments go to cmake's
# configure step; ZKPIPE_BUILD_TARGETS (space-separated) limits what is built
# (default: everything — the tests and benchmarks too).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
targets=()
for t in ${ZKPIPE_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}"
