#!/usr/bin/env bash
# End to end through the command line: setup, a 3-partition proof, verification,
# and rejection of a tampered proof, a wrong seed and a truncated key.
set -euo pipefail
zkpipe=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$zkpipe" setup --preset tiny --out "$dir/key.zkp" --quiet
"$zkpipe" prove --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 3 --out "$dir/proof.bin" --quiet
test "$(stat -c %s "$dir/proof.bin")" -eq $((3 * 192))
# The pce path (the default) cached the compiled circuit beside the key.
test -s "$dir/key.zkpev"

# The reference path proves the same statements.
"$zkpipe" prove --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 3 --out "$dir/ref.bin" --quiet \
  --synthesis assignment
"$zkpipe" verify --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 3 --proof "$dir/ref.bin" | grep -q "^OK"

# A corrupt cached evaluator is named, rebuilt, and never yields a wrong proof.
printf 'x' | dd of="$dir/key.zkpev" bs=1 seek=5000 conv=notrunc status=none
"$zkpipe" prove --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 1 --out "$dir/re.bin" --quiet 2> "$dir/err.txt"
grep -q "not using the cached evaluator: .*key.zkpev: checksum mismatch" "$dir/err.txt"
"$zkpipe" verify --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 1 --proof "$dir/re.bin" | grep -q "^OK"
# An evaluator built for another key is refused the same way.
"$zkpipe" setup --preset tiny --out "$dir/other.zkp" --setup-seed 99 --quiet
cp "$dir/key.zkpev" "$dir/other.zkpev"
"$zkpipe" prove --preset tiny --key "$dir/other.zkp" --seed 7 --partitions 1 --out "$dir/o.bin" --quiet 2> "$dir/err.txt"
grep -q "built for another proving key" "$dir/err.txt"

# The same proofs in the snarkjs layout, checked by the snarkjs-compatible verifier
# against the exported verification key; the bellperson vk has the expected size
# (6 fixed points, a u32 count, and one uncompressed G1 point per public input).
"$zkpipe" prove --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 2 --out "$dir/p2.bin" \
  --json-dir "$dir/json" --quiet
"$zkpipe" vk export --key "$dir/key.zkp" --out "$dir/vk.json"
"$zkpipe" groth16 verify "$dir/vk.json" "$dir/json/public_1.json" "$dir/json/proof_1.json" | grep -q OK
if "$zkpipe" groth16 verify "$dir/vk.json" "$dir/json/public_0.json" "$dir/json/proof_1.json" >/dev/null 2>&1 &&
   ! cmp -s "$dir/json/public_0.json" "$dir/json/public_1.json"; then
  echo "FAIL: proof verified against another partition's public inputs" >&2; exit 1
fi
"$zkpipe" vk export --key "$dir/key.zkp" --out "$dir/vk.bin" --format bellperson
test "$(stat -c %s "$dir/vk.bin")" -eq $((96 * 2 + 192 * 3 + 96 + 4 + 96 * 6))
"$zkpipe" verify --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 3 --proof "$dir/proof.bin" | grep -q "^OK"

if "$zkpipe" verify --preset tiny --key "$dir/key.zkp" --seed 8 --partitions 3 --proof "$dir/proof.bin"; then
  echo "FAIL: proof verified against the wrong seed" >&2; exit 1
fi

cp "$dir/proof.bin" "$dir/tampered.bin"
# Swap partition 0's and partition 1's proofs: each stays a valid encoding.
dd if="$dir/proof.bin" of="$dir/tampered.bin" bs=192 skip=1 seek=0 count=1 conv=notrunc status=none
dd if="$dir/proof.bin" of="$dir/tampered.bin" bs=192 skip=0 seek=1 count=1 conv=notrunc status=none
rc=0
"$zkpipe" verify --preset tiny --key "$dir/key.zkp" --seed 7 --partitions 3 --proof "$dir/tampered.bin" || rc=$?
# 1 = does not verify (2 is kept for errors such as unreadable files).
if [ "$rc" -ne 1 ]; then
  echo "FAIL: swapped partition proofs: exit $rc, expected 1" >&2; exit 1
fi

head -c 5000 "$dir/key.zkp" > "$dir/short.zkp"
if "$zkpipe" prove --preset tiny --key "$dir/short.zkp" --seed 7 --out "$dir/x.bin" 2> "$dir/err.txt"; then
  echo "FAIL: truncated key accepted" >&2; exit 1
fi
grep -q "truncated" "$dir/err.txt"

# bench sweep runs the cross product of --pw, --gws and --budgets on one set-up key:
# 2 × 2 × 2 rows in the table and the CSV, each row its own pw, gw and budget.
"$zkpipe" bench sweep --preset tiny --partitions 2 -c 2 --key "$dir/key.zkp" --pw 1,2 --gws 1,2 \
  --budgets auto,64MiB --csv "$dir/sweep.csv" > "$dir/sweep.md" 2>/dev/null
test "$(grep -c '^| [12] | [12] |' "$dir/sweep.md")" -eq 8
test "$(wc -l < "$dir/sweep.csv")" -eq 9
test "$(cut -d, -f1,2,3 "$dir/sweep.csv" | tail -n +2 | sort -u | wc -l)" -eq 8
grep -q "^1,2,67108864," "$dir/sweep.csv"
echo "cli setup/prove/verify: OK"
