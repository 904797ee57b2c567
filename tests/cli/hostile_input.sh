#!/usr/bin/env bash
# The command line against hostile input: every case exits 2 (or 1 for a proof
# that does not verify) with a message naming the problem, never a crash (exit ≥ 128),
# a hang (each command runs under a timeout), or a silent wrong answer.
set -euo pipefail
zkpipe=$1
fixtures=$2
dir=$(mktemp -d)
cgroup=""
cleanup() {
  if mountpoint -q "$dir/small" 2>/dev/null; then umount "$dir/small"; fi
  if [[ -n $cgroup ]]; then rmdir "$cgroup" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect CODE PATTERN -- COMMAND...: the exit status and a pattern of stderr.
expect() {
  local want=$1 pattern=$2
  shift 3
  local rc=0
  timeout 60 "$@" > "$dir/out.txt" 2> "$dir/err.txt" || rc=$?
  [ "$rc" -eq "$want" ] || fail "$* exited $rc, expected $want; stderr: $(head -c 500 "$dir/err.txt")"
  grep -q -e "$pattern" "$dir/err.txt" "$dir/out.txt" ||
    fail "$*: output does not mention '$pattern': $(head -c 500 "$dir/err.txt")"
  [ "$(stat -c %s "$dir/err.txt")" -lt 4000 ] || fail "$*: $(stat -c %s "$dir/err.txt") bytes on stderr"
}

"$zkpipe" setup --preset tiny --out "$dir/key.zkp" --quiet
cp "$dir/key.zkp" "$dir/key.orig"

# Argument errors exit 2 (CLI11's own codes are 100 and up) and name the option.
expect 2 "nope" -- "$zkpipe" prove --preset tiny --key "$dir/key.zkp" --out "$dir/p.bin" --nope
expect 2 "budget" -- "$zkpipe" bench batch --preset tiny --budget garbage
for b in 0 nan inf -5 1e30 12Q; do
  expect 2 "budget" -- "$zkpipe" bench batch --preset tiny --budget "$b"
done
for pw in 100000 -1 0; do
  expect 2 "pw" -- "$zkpipe" bench batch --preset tiny --pw "$pw"
done
expect 2 "gw" -- "$zkpipe" bench batch --preset tiny --gw 5000
# A long bad value is not echoed whole (one argument may hold at most 128 KiB).
long=$(head -c 100000 /dev/zero | tr '\0' 'x')
expect 2 "more characters" -- "$zkpipe" bench batch --preset tiny --budget "$long"
expect 2 "more characters" -- "$zkpipe" prove --preset "$long" --key "$dir/key.zkp" --out "$dir/p.bin"

# Files that never end or never open are refused, not read.
expect 2 "not a regular file" -- "$zkpipe" verify --preset tiny --key "$dir/key.zkp" --proof /dev/zero
mkfifo "$dir/fifo"
expect 2 "not a regular file" -- "$zkpipe" verify --preset tiny --key "$dir/key.zkp" --proof "$dir/fifo"
head -c 192 /dev/zero > "$dir/one.bin"
expect 2 "not a regular file" -- "$zkpipe" verify --preset tiny --key "$dir/fifo" --proof "$dir/one.bin"
expect 2 "not a regular file" -- "$zkpipe" groth16 verify "$dir/fifo" "$fixtures/public.json" "$fixtures/proof.json"
expect 2 "not a regular file" -- "$zkpipe" groth16 prove "$fixtures/circuit_final.zkey" "$dir/fifo" "$dir/a" "$dir/b"
expect 2 "not a regular file" -- "$zkpipe" groth16 prove "$dir/fifo" "$fixtures/witness.wtns" "$dir/a" "$dir/b"
head -c 100000 /dev/zero > "$dir/big.bin"
expect 2 "more than the 192" -- "$zkpipe" verify --preset tiny --key "$dir/key.zkp" --proof "$dir/big.bin"

# An output never overwrites an input; two outputs never share a file.
expect 2 "refusing to write" -- "$zkpipe" prove --preset tiny --key "$dir/key.zkp" --out "$dir/key.zkp" --quiet
ln "$dir/key.zkp" "$dir/key-link.zkp"
expect 2 "refusing to write" -- "$zkpipe" prove --preset tiny --key "$dir/key.zkp" --out "$dir/key-link.zkp" --quiet
expect 2 "refusing to write" -- "$zkpipe" vk export --key "$dir/key.zkp" --out "$dir/./key.zkp"
cmp -s "$dir/key.zkp" "$dir/key.orig" || fail "the key was modified"
expect 2 "same file" -- "$zkpipe" groth16 prove "$fixtures/circuit_final.zkey" "$fixtures/witness.wtns" \
  "$dir/same.json" "$dir/same.json"
cp "$fixtures/witness.wtns" "$dir/w.wtns"
expect 2 "refusing to write" -- "$zkpipe" groth16 prove "$fixtures/circuit_final.zkey" "$dir/w.wtns" \
  "$dir/w.wtns" "$dir/public.json"
# Two spellings of one new file are one file.
expect 2 "same file" -- env -C "$dir" "$zkpipe" groth16 prove "$fixtures/circuit_final.zkey" \
  "$fixtures/witness.wtns" spelled.json ./spelled.json
# An output that names a directory, or nothing, is refused before any work: no
# `.partial` file is left beside it.
mkdir "$dir/outdir"
expect 2 "names a directory" -- "$zkpipe" prove --preset tiny --key "$dir/key.zkp" --out "$dir/outdir" --quiet
expect 2 "names a directory" -- "$zkpipe" setup --preset tiny --out "$dir/outdir" --quiet
expect 2 "names a directory" -- "$zkpipe" vk export --key "$dir/key.zkp" --out "$dir/outdir/"
expect 2 "empty name" -- "$zkpipe" prove --preset tiny --key "$dir/key.zkp" --out "" --quiet
expect 2 "empty name" -- "$zkpipe" groth16 prove "$fixtures/circuit_final.zkey" "$fixtures/witness.wtns" "" "$dir/x.json"
[ -z "$(find "$dir" -name '*.partial')" ] || fail "a .partial file was left: $(find "$dir" -name '*.partial')"

# Durations are finite and not negative.
for v in -1 nan inf; do
  expect 2 "buffers-log-interval" -- "$zkpipe" bench batch --preset tiny --buffers-log-interval "$v"
done

# A verifying key with γ or δ at infinity would accept A = α, B = β, C = ∞ for any
# public inputs: the key is refused and the forged proof is not reported valid.
python3 - "$fixtures" "$dir" <<'PY'
import json, sys
fixtures, out = sys.argv[1], sys.argv[2]
vk = json.load(open(f"{fixtures}/verification_key.json"))
inf2 = [["0", "0"], ["1", "0"], ["0", "0"]]
vk["vk_gamma_2"] = inf2
vk["vk_delta_2"] = inf2
json.dump(vk, open(f"{out}/forged_vk.json", "w"))
proof = {"pi_a": vk["vk_alpha_1"], "pi_b": vk["vk_beta_2"], "pi_c": ["0", "1", "0"],
         "protocol": "groth16", "curve": "bls12381"}
json.dump(proof, open(f"{out}/forged_proof.json", "w"))
json.dump(["12345"] * (len(vk["IC"]) - 1), open(f"{out}/forged_public.json", "w"))
open(f"{out}/deep.json", "w").write("[" * 100000 + "]" * 100000)
open(f"{out}/deep_proof.json", "w").write("[" * 30000 + "]" * 30000)  # within a proof's 64 KiB
PY
expect 2 "vk_gamma_2 is the point at infinity" -- \
  "$zkpipe" groth16 verify "$dir/forged_vk.json" "$dir/forged_public.json" "$dir/forged_proof.json"
if grep -q OK "$dir/out.txt"; then fail "a forged proof was reported OK"; fi
# γ = δ (a .zkey without a phase-2 contribution) lets A = α, B = β, C = −IC(x) verify for
# any x (tests/groth16/key_validation_test.cpp forges one): refused in the JSON key and
# in the .zkey; --allow-insecure-key accepts it and says so.
python3 - "$fixtures" "$dir" <<'PY'
import json, struct, sys
fixtures, out = sys.argv[1], sys.argv[2]
vk = json.load(open(f"{fixtures}/verification_key.json"))
vk["vk_delta_2"] = vk["vk_gamma_2"]
json.dump(vk, open(f"{out}/gamma_delta_vk.json", "w"))
z = bytearray(open(f"{fixtures}/circuit_final.zkey", "rb").read())
pos = 12
while pos < len(z):
    kind, size = struct.unpack_from("<IQ", z, pos)
    if kind == 2:  # header: n8q, q, n8r, r, nVars, nPublic, domainSize, α1, β1, β2, γ2, δ1, δ2
        at = pos + 12
        n8q = struct.unpack_from("<I", z, at)[0]
        at += 4 + n8q
        n8r = struct.unpack_from("<I", z, at)[0]
        at += 4 + n8r + 12
        gamma2 = at + 2 * n8q + 2 * n8q + 4 * n8q
        delta2 = gamma2 + 4 * n8q + 2 * n8q
        z[delta2:delta2 + 4 * n8q] = z[gamma2:gamma2 + 4 * n8q]
    pos += 12 + size
open(f"{out}/gamma_delta.zkey", "wb").write(z)
PY
expect 2 "vk_gamma_2 = vk_delta_2 makes the pairing equation trivial" -- \
  "$zkpipe" groth16 verify "$dir/gamma_delta_vk.json" "$fixtures/public.json" "$fixtures/proof.json"
expect 1 "[Ff]or tests only" -- "$zkpipe" groth16 verify --allow-insecure-key \
  "$dir/gamma_delta_vk.json" "$fixtures/public.json" "$fixtures/proof.json"
expect 2 "vk_gamma_2 = vk_delta_2" -- \
  "$zkpipe" groth16 prove "$dir/gamma_delta.zkey" "$fixtures/witness.wtns" "$dir/gd.json" "$dir/gdpub.json"
expect 2 "vk_gamma_2 = vk_delta_2" -- "$zkpipe" zkey import "$dir/gamma_delta.zkey" "$dir/gd.zkp"
[ ! -e "$dir/gd.json" ] && [ ! -e "$dir/gd.zkp" ] || fail "a file was written from a gamma = delta key"
expect 2 "nested deeper" -- "$zkpipe" groth16 verify "$dir/deep.json" "$fixtures/public.json" "$fixtures/proof.json"
expect 2 "nested deeper" -- \
  "$zkpipe" groth16 verify "$fixtures/verification_key.json" "$fixtures/public.json" "$dir/deep_proof.json"

# A corrupted witness or corrupted key coefficients: the proof does not verify, so
# nothing is written and the exit status says so.
python3 - "$fixtures" "$dir" <<'PY'
import struct, sys
fixtures, out = sys.argv[1], sys.argv[2]
w = bytearray(open(f"{fixtures}/witness.wtns", "rb").read())
# wtns: magic, version, section count; section 1 (field size, prime, count); section 2: values.
pos = 12
sections = {}
while pos < len(w):
    kind, size = struct.unpack_from("<IQ", w, pos)
    sections[kind] = pos + 12
    pos += 12 + size
n8 = struct.unpack_from("<I", w, sections[1])[0]
w[sections[2] + 2 * n8] ^= 1  # wire 2, lowest byte
open(f"{out}/bad.wtns", "wb").write(w)
z = bytearray(open(f"{fixtures}/circuit_final.zkey", "rb").read())
pos = 12
while pos < len(z):
    kind, size = struct.unpack_from("<IQ", z, pos)
    if kind == 4:  # coefficients: count, then (matrix, constraint, signal, value)
        z[pos + 12 + 4 + 12] ^= 1
    pos += 12 + size
open(f"{out}/bad.zkey", "wb").write(z)
PY
expect 2 "does not verify" -- \
  "$zkpipe" groth16 prove "$fixtures/circuit_final.zkey" "$dir/bad.wtns" "$dir/p1.json" "$dir/pub1.json"
expect 2 "does not verify" -- \
  "$zkpipe" groth16 prove "$dir/bad.zkey" "$fixtures/witness.wtns" "$dir/p2.json" "$dir/pub2.json"
for f in p1.json pub1.json p2.json pub2.json; do
  [ ! -e "$dir/$f" ] || fail "$f was written for a proof that does not verify"
done
# The good pair still proves and verifies (verification is on by default).
"$zkpipe" groth16 prove "$fixtures/circuit_final.zkey" "$fixtures/witness.wtns" "$dir/p.json" "$dir/pub.json"
"$zkpipe" groth16 verify "$fixtures/verification_key.json" "$dir/pub.json" "$dir/p.json" | grep -q OK

# A native key whose verifying key has an off-curve α: vk export refuses it (here by
# its checksum; tests/groth16 reseals the section and checks the point itself).
python3 - "$dir/key.zkp" <<'PY'
import struct, sys
path = sys.argv[1]
b = bytearray(open(path, "rb").read())
offset, size = struct.unpack_from("<QQ", b, 80 + 8)  # section 0 (vk_points): offset, bytes
b[offset + 5] ^= 0x20  # alpha_g1's x
open(path + ".bad", "wb").write(b)
PY
expect 2 "vk_points" -- "$zkpipe" vk export --key "$dir/key.zkp.bad" --out "$dir/vk.json"
[ ! -e "$dir/vk.json" ] || fail "vk export wrote a key from a corrupt file"

# A thread the system refuses (here: an address-space limit that leaves room for a few
# engine threads' stacks, not for 1000) ends the command with exit 2 and the reason,
# not an abort with threads left joinable.
# (Not under AddressSanitizer, which reserves terabytes of address space at start.)
if [[ -z ${ASAN_OPTIONS:-} ]]; then
  expect 2 "threads" -- bash -c 'ulimit -v 2000000 && exec "$0" bench batch --preset tiny --key "$1" -c 1 --pw 1000 --quiet' \
    "$zkpipe" "$dir/key.zkp"
fi

# Outputs are checked before any work: a directory that does not exist, one that takes
# no new file (/proc/self), an existing file that is not a regular one.
expect 2 "does not exist" -- "$zkpipe" prove --preset tiny --key "$dir/key.zkp" --out "$dir/no/such/p.bin"
expect 2 "cannot create a file in /proc/self" -- "$zkpipe" prove --preset tiny --key "$dir/key.zkp" --out /proc/self/mem
expect 2 "not a regular file" -- "$zkpipe" prove --preset tiny --key "$dir/key.zkp" --out /dev/null
expect 2 "does not exist" -- "$zkpipe" bench batch --preset tiny --key "$dir/key.zkp" --trace "$dir/no/t.json"

# A setup that cannot fit is refused before any work, naming its need and what is
# available (here: an address-space limit of about 1.9 GiB for the evaluator and query
# scalars of about 2.6 GiB; the key streams to its file and is not counted).
if [[ -z ${ASAN_OPTIONS:-} ]]; then
  expect 2 "setup of .* needs about .* of host memory (the evaluator .*, the query scalars [^,]*), .* is available" -- \
    bash -c 'ulimit -v 2000000 && exec "$0" setup --preset 2e24 --out "$1" --quiet' "$zkpipe" "$dir/big.zkp"
  [ ! -e "$dir/big.zkp" ] || fail "a refused setup wrote a key"

  # The same under a memory cgroup's limit (a container's, a systemd unit's
  # MemoryMax=), which /proc/meminfo does not show: where this machine lets the test
  # make one (root, cgroup v1's memory controller or v2 with memory delegated).
  self=$(awk -F: '$1 == "0" && $2 == "" {v2=$3} $2 ~ /(^|,)memory(,|$)/ {v1=$3} END {print (v1 != "" ? "v1:" v1 : "v2:" v2)}' /proc/self/cgroup)
  case $self in
    v1:*) base=/sys/fs/cgroup/memory${self#v1:}; limit_file=memory.limit_in_bytes ;;
    *) base=/sys/fs/cgroup${self#v2:}; limit_file=memory.max ;;
  esac
  if mkdir "$base/zkpipe-test-$$" 2>/dev/null; then
    cgroup=$base/zkpipe-test-$$
    if echo $((1 << 30)) > "$cgroup/$limit_file" 2>/dev/null &&
      bash -c 'echo $$ > "$1/cgroup.procs"' _ "$cgroup" 2>/dev/null; then
      expect 2 "setup of .* needs about .* is available (the memory limit of cgroup .*zkpipe-test-$$)" -- \
        bash -c 'echo $$ > "$2/cgroup.procs" && exec "$0" setup --preset 2e24 --out "$1" --quiet' \
        "$zkpipe" "$dir/big.zkp" "$cgroup"
      [ ! -e "$dir/big.zkp" ] || fail "a setup refused by the cgroup's limit wrote a key"
    else
      echo "skipped: the memory cgroup's limit: $cgroup takes no limit or no process here"
    fi
  else
    echo "skipped: the memory cgroup's limit: no cgroup can be made under $base here"
  fi
fi

# A key and evaluator that cannot fit on the output's file system are refused before
# any work, naming both figures (a 4 MiB tmpfs, where this machine lets the test mount one).
mkdir "$dir/small"
if mount -t tmpfs -o size=4m zkpipe-test "$dir/small" 2>/dev/null; then
  expect 2 "small/key.zkp: the key (about .*) and its evaluator (about .*) need about .* on .*small, .* is free" -- \
    "$zkpipe" setup --preset 2e16 --out "$dir/small/key.zkp" --quiet
  [ ! -e "$dir/small/key.zkp" ] || fail "a setup refused for its disk space wrote a key"
  umount "$dir/small"
else
  echo "skipped: the disk-space check: no tmpfs can be mounted here"
fi

# A byte budget that cannot hold the key and one partition is refused before the
# circuit is compiled, naming both parts.
expect 2 "budget 1.0 MiB cannot hold the key's host points (.*) and one partition's working set (.*): at least" -- \
  "$zkpipe" bench batch --preset tiny --key "$dir/key.zkp" --budget 1MiB -c 1 --quiet --backend cpu
# An unknown preset is refused before anything is set up.
expect 2 "unknown porep-like preset" -- env -C "$dir" "$zkpipe" bench batch --preset 2e18 -c 1 --quiet
[ ! -e "$dir/out" ] || fail "bench with an unknown preset made $dir/out"

# A key made for another circuit is refused once the circuit is compiled, before
# any proof, naming the first difference; nothing is cached beside it.
mkdir -p "$dir/other"
cp "$dir/key.orig" "$dir/other/key.zkp"
mismatch="other/key.zkp: this key is not for .* (public inputs (ONE included): the circuit has [0-9]*, the key [0-9]*)"
expect 2 "$mismatch" -- "$zkpipe" bench batch --preset 2e16 --key "$dir/other/key.zkp" -c 3 --quiet --backend cpu
expect 2 "$mismatch" -- "$zkpipe" prove --preset 2e16 --key "$dir/other/key.zkp" --out "$dir/other/p.bin" --quiet
[ ! -e "$dir/other/key.zkpev" ] && [ ! -e "$dir/other/p.bin" ] || fail "a refused key left files: $(ls "$dir/other")"

# --quiet hides the per-proof lines, never why proofs failed: each reason once, with
# how many proofs it failed (here: the reference synthesis, which compiles nothing,
# gives the 2e16 preset's witnesses to the tiny key).
expect 2 "3 of 3 proofs failed: partition 1/1 failed in start: witness does not match the proving key.* (3 proofs)" -- \
  "$zkpipe" bench batch --preset 2e16 --key "$dir/other/key.zkp" -c 3 --quiet --backend cpu --synthesis assignment

if "$zkpipe" serve --help > "$dir/serve-help.txt" 2>&1; then
  # The example configuration --help names is in the repository.
  example=$(grep -o 'docs/[A-Za-z0-9_./-]*\.toml' "$dir/serve-help.txt" | head -1)
  [ -n "$example" ] && [ -f "$(dirname "$0")/../../$example" ] || fail "serve --help names '$example', not a file"
  # Job ids are decimal: -1 is not 2^64 - 1, 017 not octal.
  for id in -1 abc 0x11 1.5 ""; do
    expect 2 "expected a job id" -- "$zkpipe" client --server "unix:$dir/none.sock" await -- "$id"
  done
  expect 2 "expected a job id" -- "$zkpipe" client --server "unix:$dir/none.sock" cancel -- -1
  # A journal that lost jobs (here: emptied, while ids up to 17 were given out) is
  # refused, naming it, before the daemon serves anything.
  mkdir -p "$dir/data"
  : > "$dir/data/jobs.sqlite"
  echo 17 > "$dir/data/jobs.last-id"
  expect 2 "jobs.sqlite" -- "$zkpipe" serve --listen "unix:$dir/serve.sock" --data-dir "$dir/data" --pw 1
  grep -q "ids up to 17" "$dir/err.txt" || fail "the refusal does not say which ids were lost: $(cat "$dir/err.txt")"
  printf 'not a journal' > "$dir/data/jobs.sqlite"
  expect 2 "jobs.sqlite: the job journal is damaged" -- \
    "$zkpipe" serve --listen "unix:$dir/serve.sock" --data-dir "$dir/data" --pw 1
fi
echo "cli hostile input: OK"
