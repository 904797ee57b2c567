#!/usr/bin/env bash
# zkpipe devices and --device-memory on the command line: `devices` says what this
# build carries (with or without a GPU or a driver) and lists each GPU or says there
# is none; --device-memory refuses what is not a size, less than 256 MiB, a budget
# beside --backend cpu, and (on a GPU) one above the card's memory or below the least
# a partition needs, each with exit 2 before any proof.
set -euo pipefail
zkpipe=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$zkpipe" devices > "$dir/devices.txt"
if ! grep -q "^This build carries" "$dir/devices.txt"; then
  echo "FAIL: devices: no line about the build's GPU code:" >&2; cat "$dir/devices.txt" >&2; exit 1
fi
gpu=no
if command -v nvidia-smi > /dev/null && nvidia-smi -L 2> /dev/null | grep -q "^GPU "; then gpu=yes; fi
if grep -q "^This build carries GPU code for: " "$dir/devices.txt"; then
  if [ "$gpu" = yes ]; then
    grep -q "^GPU 0: .*compute capability" "$dir/devices.txt" ||
      { echo "FAIL: devices: GPU 0 not described:" >&2; cat "$dir/devices.txt" >&2; exit 1; }
  else
    grep -q "^No GPU" "$dir/devices.txt" ||
      { echo "FAIL: devices: no 'No GPU' line without a GPU:" >&2; cat "$dir/devices.txt" >&2; exit 1; }
  fi
fi

"$zkpipe" setup --preset tiny --out "$dir/key.zkp" --quiet
prove=("$zkpipe" prove --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 1 --out "$dir/proof.bin" --quiet)

# expect_failure WHAT TEXT CMD... : CMD exits 2 with TEXT (a fixed string) on stderr, and wrote no proof.
expect_failure() {
  local what=$1 text=$2
  shift 2
  local rc=0
  rm -f "$dir/proof.bin"
  "$@" 2> "$dir/err.txt" || rc=$?
  if [ "$rc" -ne 2 ] || ! grep -qF -e "$text" "$dir/err.txt"; then
    echo "FAIL: $what: exit $rc, expected 2 and '$text' on stderr:" >&2; cat "$dir/err.txt" >&2; exit 1
  fi
  if [ -e "$dir/proof.bin" ]; then echo "FAIL: $what: a proof was written" >&2; exit 1; fi
}

expect_failure "not a size" "--device-memory" "${prove[@]}" --device-memory 16XB
expect_failure "too small" "less than the least zkpipe works in, 256 MiB" "${prove[@]}" --device-memory 1MiB
expect_failure "with the cpu backend" "--device-memory applies only to --backend cuda" \
  "${prove[@]}" --backend cpu --device-memory 16GiB
expect_failure "bench, not a size" "--device-memory" "$zkpipe" bench batch --preset tiny --count 1 --device-memory x
expect_failure "by device, twice" "device 0 is given two sizes" "${prove[@]}" --device-memory 0=16GiB,0=8GiB
expect_failure "by device, with the cpu backend" "--device-memory applies only to --backend cuda" \
  "${prove[@]}" --backend cpu --device-memory 1=16GiB
expect_failure "circuit info, by device" "this command takes one size" \
  "$zkpipe" circuit info --preset tiny --device-memory 0=16GiB

if [ "$gpu" = yes ] && grep -q "^GPU 0: .*runs" "$dir/devices.txt"; then
  expect_failure "above the card" "is more than CUDA device 0" "${prove[@]}" --backend cuda --device-memory 100TiB
  # The tiny key's least need is megabytes; 256 MiB holds it, so this one proves.
  "${prove[@]}" --backend cuda --device-memory 256MiB
  test "$(stat -c %s "$dir/proof.bin")" -eq 192
fi

# circuit info --device-memory: the least a partition needs, and what a budget means for
# the key (no GPU needed where this build has the CUDA backend).
"$zkpipe" circuit info --preset tiny --device-memory 16GiB > "$dir/info.txt"
if grep -q "^This build carries GPU code for: " "$dir/devices.txt"; then
  grep -q "^on a GPU .*a partition needs at least" "$dir/info.txt" ||
    { echo "FAIL: circuit info: no GPU line:" >&2; cat "$dir/info.txt" >&2; exit 1; }
  grep -q "device-memory 16.0 GiB: points resident" "$dir/info.txt" ||
    { echo "FAIL: circuit info: a tiny key not resident in 16 GiB:" >&2; cat "$dir/info.txt" >&2; exit 1; }
  "$zkpipe" circuit info --preset 2e20 --device-memory 260MiB | grep -q "refused, below the least" ||
    { echo "FAIL: circuit info: 260 MiB for 2e20 not refused" >&2; exit 1; }
  # devices plans a circuit too, within --device-memory (or each GPU's free memory).
  "$zkpipe" devices --preset 2e20 --device-memory 260MiB | grep -q "refused, below the least" ||
    { echo "FAIL: devices: 260 MiB for 2e20 not refused" >&2; exit 1; }
  "$zkpipe" devices --preset tiny --device-memory 1GiB | grep -q "1.0 GiB: points resident, evaluator resident" ||
    { echo "FAIL: devices: tiny at 1 GiB not resident" >&2; exit 1; }
  expect_failure "devices: a budget without a circuit" "name one" "$zkpipe" devices --device-memory 1GiB
  # The 32 GiB PoRep: a 16 GiB card proves it with the points and the pce evaluator
  # streamed; an 80 GB one keeps both, the points with shorter MSM passes.
  porep=("$zkpipe" circuit info --circuit filecoin-porep --sector-size 32GiB)
  "${porep[@]}" --device-memory 16GiB | grep -q "16.0 GiB: points streamed, evaluator streamed" ||
    { echo "FAIL: circuit info: the 32 GiB PoRep at 16 GiB" >&2; exit 1; }
  "${porep[@]}" --device-memory 79GiB | grep -q "79.0 GiB: points resident (MSM passes of at most 2^2[2-5] terms), evaluator resident" ||
    { echo "FAIL: circuit info: the 32 GiB PoRep at 79 GiB" >&2; exit 1; }
fi
