#!/usr/bin/env bash
# --devices on the command line: several engine devices through the cpu backend (one
# CPU backend per entry, a device listed twice counting twice) prove and bench with
# every device reported; bad lists are usage errors (exit 2) naming the problem; and
# --backend cuda --devices and bench limit without a GPU fail with a CUDA error (skipped,
# 77, where a GPU is present: there the GPU tests cover two engine devices on GPU 0 and
# the rates bench limit measures).
set -euo pipefail
zkpipe=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$zkpipe" setup --preset tiny --out "$dir/key.zkp" --quiet
prove=("$zkpipe" prove --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 4 --out "$dir/proof.bin" --pw 2)

"${prove[@]}" --backend cpu --devices 0,0 --gw 1 2> "$dir/err.txt"
"$zkpipe" verify --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 4 --proof "$dir/proof.bin" | grep -q "^OK"
for d in 0 1; do
  if ! grep -q "^device $d (cpu): healthy, [0-9]* partitions proved" "$dir/err.txt"; then
    echo "FAIL: prove --devices 0,0: no line for device $d:" >&2; cat "$dir/err.txt" >&2; exit 1
  fi
done
proved=$(sed -n 's/^device [01] (cpu): healthy, \([0-9]*\) partitions proved.*/\1/p' "$dir/err.txt" |
  awk '{ sum += $1 } END { print sum + 0 }')
if [ "$proved" -ne 4 ]; then
  echo "FAIL: the devices proved $proved partitions, not 4:" >&2; cat "$dir/err.txt" >&2; exit 1
fi
grep -q "^proving on the cpu backend on 2 engine devices" "$dir/err.txt"

"$zkpipe" bench batch --preset tiny --partitions 2 -c 2 -j 1 --pw 1 --quiet --params-dir "$dir" \
  --backend cpu --devices 0,1,2 > "$dir/bench.txt"
grep -q "2/2 proofs verified" "$dir/bench.txt"
for d in 0 1 2; do
  if ! grep -q "^device $d (cpu): healthy" "$dir/bench.txt"; then
    echo "FAIL: bench --devices 0,1,2: no line for device $d:" >&2; cat "$dir/bench.txt" >&2; exit 1
  fi
done

refused() {  # args..., then the message expected on stderr as the last argument
  local expect=${*: -1}
  local rc=0
  "${prove[@]}" "${@:1:$#-1}" 2> "$dir/err.txt" > /dev/null || rc=$?
  if [ "$rc" -ne 2 ]; then
    echo "FAIL: prove ${*:1:$#-1}: exit $rc, expected 2" >&2; cat "$dir/err.txt" >&2; exit 1
  fi
  if ! grep -q -- "$expect" "$dir/err.txt"; then
    echo "FAIL: prove ${*:1:$#-1}: the error does not say '$expect':" >&2; cat "$dir/err.txt" >&2; exit 1
  fi
}
refused --devices "" "empty device list"
refused --devices 0,-1 "ordinals are 0 or more"
refused --devices 0,x "'x' in the device list is not a device ordinal"
refused --devices 0,,1 "in the device list is not a device ordinal"
refused --devices "$(seq -s, 0 64)" "more than 64 devices"
refused --device 0 --devices 0,1 "excludes"

# bench limit: a size out of its range is a usage error before any device is touched.
rc=0
"$zkpipe" bench limit --log-size 40 2> "$dir/err.txt" || rc=$?
if [ "$rc" -ne 2 ] || ! grep -q -- "--log-size: Value 40 not in range 10 to 27" "$dir/err.txt"; then
  echo "FAIL: bench limit --log-size 40: exit $rc" >&2; cat "$dir/err.txt" >&2; exit 1
fi

if command -v nvidia-smi > /dev/null && nvidia-smi -L 2> /dev/null | grep -q "^GPU "; then
  echo "a GPU is present: the no-GPU error path is not testable here"
  exit 77
fi
rc=0
"${prove[@]}" --backend cuda --devices 0,1 2> "$dir/err.txt" || rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "CUDA" "$dir/err.txt"; then
  echo "FAIL: --backend cuda --devices 0,1 without a GPU: exit $rc" >&2; cat "$dir/err.txt" >&2; exit 1
fi
rc=0
"$zkpipe" bench limit --log-size 12 > /dev/null 2> "$dir/err.txt" || rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "CUDA" "$dir/err.txt"; then
  echo "FAIL: bench limit without a GPU: exit $rc" >&2; cat "$dir/err.txt" >&2; exit 1
fi
echo "cli devices: OK"
