#!/usr/bin/env bash
# The main job: installs what is missing, builds, then
#  1. the pipeline: sets up the parameters of the default PoRep-like preset once
#     (cached in out/params; test-only toxic waste), runs a batch of multi-partition
#     proofs through the engine with a progress bar, verifies every assembled proof,
#     and prints the summary (s/proof, stage times, device busy, peak RSS, the buffer
#     ledger's peaks, untracked memory) and where the trace and the plot were written;
#  2. a real Filecoin seal proof (commit phase 2): a 2 KiB sector sealed in memory, its
#     C1 output proved through the engine with a local key in bellperson's .params
#     format (test-only, set up once into out/filecoin), verified from the sector's
#     values as verify_seal does, and its summary.
#
# Environment: ZKPIPE_PRESET (default 2e16), ZKPIPE_PARTITIONS (10), ZKPIPE_PROOFS (3),
# ZKPIPE_PW (synthesis workers, default: the core count), ZKPIPE_BUDGET (auto),
# ZKPIPE_BACKEND (auto: the GPU when there is one, else the CPU; or cpu, cuda);
# ZKPIPE_C2=0 leaves the seal proof out.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Only the zkpipe program: the tests and benchmarks are scripts/test.sh's business.
# --strict-memory: the run fails if the ledger and the measured runtime leave more than
# 5 % of RSS unexplained, or peak RSS exceeds baseline + budget + runtime growth (held
# at 2e16 and 2e20: docs/BENCHMARKS.md, "Memory truth"; not at the tiny preset).
# GPU code for this machine's GPUs only when it has any (much less to compile than
# every architecture's); elsewhere the default list.
arch_args=()
if command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=compute_cap --format=csv,noheader >/dev/null 2>&1; then
  arch_args=(-DCMAKE_CUDA_ARCHITECTURES=native)
fi
ZKPIPE_BUILD_TARGETS=zkpipe scripts/build.sh "${arch_args[@]}"
mkdir -p out
build/apps/zkpipe bench batch \
  --circuit porep-like --preset "${ZKPIPE_PRESET:-2e16}" --partitions "${ZKPIPE_PARTITIONS:-10}" \
  -c "${ZKPIPE_PROOFS:-3}" -j 2 --pw "${ZKPIPE_PW:-$(nproc)}" --gw 1 \
  --budget "${ZKPIPE_BUDGET:-auto}" --permit-policy budget --backend "${ZKPIPE_BACKEND:-auto}" \
  --params-dir out/params --trace out/engine-trace.json --plot out/engine-buffers.svg \
  --strict-memory

if [[ ${ZKPIPE_C2:-1} == 0 ]]; then exit 0; fi
fc=out/filecoin
backend=(--backend "${ZKPIPE_BACKEND:-auto}")
echo
echo "== Filecoin commit phase 2 on a 2 KiB sector"
if [[ ! -s $fc/p.params || ! -s $fc/p.vk ]]; then
  mkdir -p "$fc"
  build/apps/zkpipe filecoin setup --sector-size 2KiB --params "$fc/p.params" --vk "$fc/p.vk" "${backend[@]}"
fi
build/apps/zkpipe filecoin seal --sector-size 2KiB --random-data --out-dir "$fc/sector"
# The key is the one set up above, its points multiples of the generators: the
# subgroup check of every point (6 minutes of 2 cores at its first conversion) is
# skipped; the proof is verified before it is written either way.
build/apps/zkpipe filecoin c2 --c1 "$fc/sector/c1.json" --sector "$fc/sector/sector.json" --params "$fc/p.params" \
  --no-subgroup-check --out "$fc/proof.bin" --trace "$fc/c2-trace.json" "${backend[@]}"
build/apps/zkpipe filecoin verify --vk "$fc/p.vk" --sector "$fc/sector/sector.json" --proof "$fc/proof.bin"
