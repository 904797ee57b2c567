#!/usr/bin/env bash
# --backend on the command line: an unknown backend is rejected, and --backend cuda
# on a machine without a GPU fails with exit 2 and a message about CUDA (whether
# this zkpipe was built without the CUDA backend or there is no device). Skipped
# (77) where a GPU is present: there `zkpipe prove --backend cuda` really proves.
set -euo pipefail
zkpipe=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$zkpipe" setup --preset tiny --out "$dir/key.zkp" --quiet
prove=("$zkpipe" prove --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 1 --out "$dir/proof.bin" --quiet)

# An explicit cpu backend proves (the default is exercised by setup_prove_verify.sh).
"${prove[@]}" --backend cpu
test "$(stat -c %s "$dir/proof.bin")" -eq 192

for args in "--backend foo" "--backend cpu --device 0"; do
  rc=0
  # shellcheck disable=SC2086  # $args is two or four words on purpose
  "${prove[@]}" $args 2> "$dir/err.txt" || rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "FAIL: prove $args accepted" >&2; exit 1
  fi
  if ! grep -qi -e "backend" -e "device" "$dir/err.txt"; then
    echo "FAIL: prove $args: the error does not name the option:" >&2; cat "$dir/err.txt" >&2; exit 1
  fi
done
rc=0
"$zkpipe" bench batch --preset tiny --backend foo --count 1 2> "$dir/err.txt" || rc=$?
if [ "$rc" -eq 0 ] || ! grep -qi "backend" "$dir/err.txt"; then
  echo "FAIL: bench batch --backend foo: exit $rc" >&2; cat "$dir/err.txt" >&2; exit 1
fi

if command -v nvidia-smi > /dev/null && nvidia-smi -L 2> /dev/null | grep -q "^GPU "; then
  echo "a GPU is present: the no-GPU error path is not testable here"
  exit 77
fi
for cmd in "prove" "bench"; do
  rc=0
  if [ "$cmd" = prove ]; then
    "${prove[@]}" --backend cuda --device 0 2> "$dir/err.txt" || rc=$?
  else
    "$zkpipe" bench batch --preset tiny --count 1 --key "$dir/key.zkp" --backend cuda 2> "$dir/err.txt" || rc=$?
  fi
  if [ "$rc" -ne 2 ]; then
    echo "FAIL: $cmd --backend cuda without a GPU: exit $rc, expected 2" >&2; cat "$dir/err.txt" >&2; exit 1
  fi
  if ! grep -q "CUDA" "$dir/err.txt"; then
    echo "FAIL: $cmd --backend cuda without a GPU: the error does not mention CUDA:" >&2; cat "$dir/err.txt" >&2
    exit 1
  fi
done
echo "cli backend selection: OK"
