#!/usr/bin/env bash
# The 32 GiB PoRep C2 (10 partitions of 2^27) under device-memory budgets, on the GPU
# machine: the key set up once into a file, then `bench batch` unlimited and at 16, 24
# and 32 GiB, at 16 GiB once more without the page-locked copy (the staged path, for a
# ratio in the same lease), and with another process holding all but 16 GiB of the
# card and no flag. Every proof is verified. Needs about 61 GB of disk for the key and
# its evaluator and about 100 GiB of host memory. With SUPRASEAL_BENCH set (the
# supraseal C2 harness of ../shared/tools/supraseal-bench, built from supranational's
# public repository), the key is removed afterwards and supraseal C2 proves 10 x 2^27
# with the same witness mix in the same call (its SRS needs the key's disk).
#
#   bench/gpu/porep32_device_memory.sh ZKPIPE BENCH_GPU OUT_DIR [PROOFS]
#
# Each run's output goes to OUT_DIR/bench_<label>.txt (with /usr/bin/time -v's figures);
# a line per run to stdout.
set -uo pipefail
zkpipe=$1
bench_gpu=$2
out=$3
proofs=${4:-2}
key_dir=${KEY_DIR:-/tmp/zkpipe-porep32}
mkdir -p "$out" "$key_dir"
nvidia-smi --query-gpu=name,memory.total,memory.used,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader
date -u

if [ ! -e "$key_dir/k.zkp" ]; then
  /usr/bin/time -v "$zkpipe" setup --circuit filecoin-porep --sector-size 32GiB --out "$key_dir/k.zkp" --backend cuda \
    --quiet > "$out/setup.txt" 2>&1
  echo "setup rc=$? $(grep -E 'Elapsed \(wall' "$out/setup.txt")"
fi

run() {
  local label=$1
  shift
  timeout 600 /usr/bin/time -v "$zkpipe" bench batch --circuit filecoin-porep --sector-size 32GiB --partitions 10 \
    -c "$proofs" --pw 4 --gw 2 --backend cuda --key "$key_dir/k.zkp" --quiet "$@" > "$out/bench_$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '/proof|^key:|device peak|Maximum resident' "$out/bench_$label.txt" | tr '\n' ' ')"
}

run 16GiB --device-memory 16GiB
run unlimited
run 16GiB_staged --device-memory 16GiB --no-pinned-copy
run 24GiB --device-memory 24GiB
run 32GiB --device-memory 32GiB
"$bench_gpu" hold 16 900 > "$out/hold.txt" 2>&1 &
holder=$!
sleep 8
run held16
kill "$holder" 2> /dev/null
wait
if [ -n "${SUPRASEAL_BENCH:-}" ]; then
  rm -rf "$key_dir"
  srs_dir=${SRS_DIR:-/tmp/zkpipe-supraseal-srs}
  mkdir -p "$srs_dir"
  # The mix of a 32 GiB PoRep witness as zkpipe's synthetic C1 makes it: 51.2 % zeros,
  # 47.5 % ones, A density 99.7 %, B density 25.4 % (docs/BENCHMARKS.md).
  timeout 900 "$SUPRASEAL_BENCH" --sizes 20,27 --circuits 10 --warmup-lg-max 20 --reps 1 --zero-frac 0.512 \
    --one-frac 0.475 --a-density 0.997 --b-density 0.254 --srs-dir "$srs_dir" --delete-srs \
    --csv "$out/supraseal.csv" > "$out/supraseal.txt" 2>&1
  echo "supraseal rc=$? $(grep -E '^supraseal' "$out/supraseal.txt" | tr '\n' ' ')"
fi
date -u
