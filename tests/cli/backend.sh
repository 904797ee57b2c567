#!/usr/bin/env bash
# --backend on the command line: an unknown backend is rejected; auto, the default,
# resolves to cuda where this zkpipe has the CUDA backend and a GPU is present, else to
# cpu, and the summary says which and why; and on a machine without a GPU --backend
# cuda fails with exit 2 and a message about CUDA (whether this zkpipe was built
# without the CUDA backend or there is no device), as do auto with a device named and
# auto with --setup-on-device. Those no-GPU cases are skipped (77) where a GPU is
# present: there `zkpipe prove --backend cuda` really proves.
set -euo pipefail
zkpipe=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$zkpipe" setup --preset tiny --out "$dir/key.zkp" --quiet
prove_loud=("$zkpipe" prove --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 1 --out "$dir/proof.bin")
prove=("${prove_loud[@]}" --quiet)

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

# expect_failure WHAT TEXT CMD... : CMD exits 2 with TEXT (a fixed string) on stderr.
expect_failure() {
  local what=$1 text=$2
  shift 2
  local rc=0
  "$@" 2> "$dir/err.txt" || rc=$?
  if [ "$rc" -ne 2 ] || ! grep -qF -e "$text" "$dir/err.txt"; then
    echo "FAIL: $what: exit $rc, expected 2 and '$text' on stderr:" >&2; cat "$dir/err.txt" >&2; exit 1
  fi
}

# --backend auto, given or by default: the summary names the backend it chose and why.
# The GPU check is nvidia-smi's, independent of zkpipe's own probe; a build without
# the CUDA backend says so whatever the machine has.
gpu=no
if command -v nvidia-smi > /dev/null && nvidia-smi -L 2> /dev/null | grep -q "^GPU "; then gpu=yes; fi
check_auto_choice() {  # WHAT PREFIX FILE: FILE's line holding PREFIX names auto's choice, right here
  local line
  line=$(grep -F "$2" "$3" | head -1 || true)
  if [[ $line == *"cpu backend (--backend auto: this zkpipe was built without the CUDA backend)"* ]]; then
    return
  fi
  if [ "$gpu" = yes ]; then
    if [[ $line != *"cuda backend (device 0: "*"), chosen by --backend auto"* ]]; then
      echo "FAIL: $1 with a GPU present: auto did not choose cuda: '$line'" >&2; cat "$3" >&2; exit 1
    fi
  elif [[ $line != *"cpu backend (--backend auto: no CUDA device: "*")"* ]]; then
    echo "FAIL: $1 without a GPU: auto did not choose cpu and say why: '$line'" >&2; cat "$3" >&2; exit 1
  fi
}
rm -f "$dir/proof.bin"
"${prove_loud[@]}" 2> "$dir/err.txt"
test "$(stat -c %s "$dir/proof.bin")" -eq 192
check_auto_choice "prove (the default backend)" "proving on the " "$dir/err.txt"
"${prove_loud[@]}" --backend auto 2> "$dir/err.txt"
check_auto_choice "prove --backend auto" "proving on the " "$dir/err.txt"
"$zkpipe" setup --preset tiny --out "$dir/key2.zkp" --quiet 2> "$dir/err.txt"
check_auto_choice "setup" "setup: fixed-base multiplications on the " "$dir/err.txt"
cmp "$dir/key.zkp" "$dir/key2.zkp"
"$zkpipe" bench batch --preset tiny --count 1 --key "$dir/key.zkp" --quiet > "$dir/bench.txt"
check_auto_choice "bench batch" "== zkpipe bench batch: " "$dir/bench.txt"

if [ "$gpu" = yes ]; then
  echo "a GPU is present: the no-GPU error path is not testable here"
  exit 77
fi
# auto on a machine without a GPU: a device named, or a device-only option, is an error.
expect_failure "prove --backend auto --device 0" "--backend auto with device 0 named, but " \
  "${prove[@]}" --backend auto --device 0
expect_failure "prove --devices 0,1 (auto)" "--backend auto with devices 0,1 named, but " "${prove[@]}" --devices 0,1
expect_failure "bench batch --setup-on-device (auto)" \
  "--setup-on-device needs the cuda backend, and --backend auto chose cpu: " \
  "$zkpipe" bench batch --preset tiny --count 1 --setup-on-device --quiet
if "$zkpipe" serve --help > /dev/null 2>&1; then
  expect_failure "serve --device 1 (auto)" "--backend auto with device 1 named, but " \
    "$zkpipe" serve --listen "unix:$dir/s.sock" --data-dir "$dir/data" --device 1
  expect_failure "serve --backend gpu" "backend must be auto, cpu or cuda, not 'gpu'" \
    "$zkpipe" serve --listen "unix:$dir/s.sock" --data-dir "$dir/data" --backend gpu
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
