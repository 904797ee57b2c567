#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the most complete
# end-to-end workload zkpipe has today — the arithmetic benchmarks (fields, curves,
# pairing, MSM, NTT) — and prints a summary against blst's published figures.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
mkdir -p out
scripts/arith-summary.py build out
