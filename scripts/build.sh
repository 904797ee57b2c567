#!/usr/bin/env bash
# Configures and builds zkpipe in ./build (Release). Extra arguments go to cmake's
# configure step; ZKPIPE_BUILD_TARGETS (space-separated) limits what is built
# (default: everything — the tests and benchmarks too).
set -euo pipefail
cd "$(dirname "$0")/.."
# Ninja where it is installed (scripts/install-deps.sh installs it), for a new build
# directory only (CMake keeps a directory's generator): it schedules every target's
# files at once, where make's per-target recursion leaves a core idle at each link.
generator=()
if [[ ! -f build/CMakeCache.txt ]] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
targets=()
for t in ${ZKPIPE_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}"
