#!/usr/bin/env bash
# The arithmetic benchmarks (fields, curves, pairing, MSM, NTT) with a summary
# against blst's published figures for this kind of machine. Raw JSON lands in out/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh -DZKPIPE_BENCH=ON
mkdir -p out
scripts/arith-summary.py build out
