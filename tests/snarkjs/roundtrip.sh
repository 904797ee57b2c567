#!/usr/bin/env bash
# snarkjs <-> zkpipe round trip on BLS12-381 (ctest label "snarkjs"):
#   circom2 compiles tests/snarkjs/roundtrip.circom with --prime bls12381, snarkjs runs a
#   powers-of-tau (2^10, cached) and a Groth16 setup, then
#   (a) snarkjs verifies zkpipe's proof (from the .zkey, and from the imported parameter file),
#   (b) zkpipe verifies snarkjs's proof,
#   (c) both reject a tampered proof and a wrong public signal,
#   and zkpipe's public.json / exported verification key equal snarkjs's byte for byte.
#
#   roundtrip.sh ZKPIPE_BINARY
# Packages come from scripts/install-snarkjs.sh ($SNARKJS_PKG_DIR, default
# $HOME/.cache/zkpipe-snarkjs). Exit 77 (ctest: skipped) only when node is missing or
# the npm registry is unreachable with nothing cached; every other problem fails.
set -euo pipefail

zkpipe=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
pkg=${SNARKJS_PKG_DIR:-$HOME/.cache/zkpipe-snarkjs}
power=10

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "SKIP: node/npm not installed"
    exit 77
fi
set +e
"$repo/scripts/install-snarkjs.sh" "$pkg"
rc=$?
set -e
if [ $rc -eq 3 ]; then echo "SKIP: npm registry unreachable and no cached snarkjs"; exit 77; fi
[ $rc -eq 0 ] || { echo "FAIL: installing snarkjs failed (rc=$rc)"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
snarkjs() { node --max-old-space-size=4096 "$pkg/node_modules/snarkjs/build/cli.cjs" "$@"; }
step() { printf '== %s\n' "$*"; }
quiet() {  # runs a command, showing its output only if it fails
    local log=$work/last.log
    if ! "$@" >"$log" 2>&1; then cat "$log"; echo "FAIL: $*"; exit 1; fi
}
# snarkjs prints "OK!" for a valid proof; any other outcome is a rejection.
snarkjs_accepts() { snarkjs groth16 verify "$@" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' | grep -q "OK!"; }
expect_both_reject() {
    local what=$1 public=$2 proof=$3
    if snarkjs_accepts "$work/verification_key.json" "$public" "$proof"; then
        echo "FAIL: snarkjs accepted $what"; exit 1
    fi
    if "$zkpipe" groth16 verify "$work/verification_key.json" "$public" "$proof" >"$work/v.log" 2>&1; then
        echo "FAIL: zkpipe accepted $what"; exit 1
    fi
    echo "   rejected by both: $what ($(tail -1 "$work/v.log"))"
}

step "compile (circom2, --prime bls12381)"
cp "$here/roundtrip.circom" "$work/circuit.circom"
# circom2 (WASI) only resolves -l folders below its working directory.
(cd "$pkg" && quiet node "$pkg/node_modules/circom2/cli.js" "$work/circuit.circom" --prime bls12381 \
    --r1cs --wasm -l node_modules -o "$work")

ptau=$pkg/ptau/bls12381_p${power}_final.ptau
if [ ! -s "$ptau" ]; then
    step "powers of tau 2^$power (cached in $pkg/ptau)"
    mkdir -p "$pkg/ptau"
    quiet snarkjs powersoftau new bls12381 $power "$work/pot_0.ptau"
    quiet snarkjs powersoftau contribute "$work/pot_0.ptau" "$work/pot_1.ptau" --name=zkpipe-test -e="zkpipe round trip"
    quiet snarkjs powersoftau prepare phase2 "$work/pot_1.ptau" "$ptau.partial"
    mv "$ptau.partial" "$ptau"
fi

step "groth16 setup, contribution, verification key, witness"
quiet snarkjs groth16 setup "$work/circuit.r1cs" "$ptau" "$work/c0.zkey"
quiet snarkjs zkey contribute "$work/c0.zkey" "$work/circuit.zkey" --name=zkpipe-test -e="zkpipe round trip zkey"
quiet snarkjs zkey export verificationkey "$work/circuit.zkey" "$work/verification_key.json"
quiet snarkjs wtns calculate "$work/circuit_js/circuit.wasm" "$here/roundtrip_input.json" "$work/witness.wtns"

step "(a) snarkjs verifies zkpipe's proof"
quiet "$zkpipe" groth16 prove "$work/circuit.zkey" "$work/witness.wtns" "$work/zk_proof.json" "$work/zk_public.json" \
    --r1cs "$work/circuit.r1cs" --check-subgroup
snarkjs_accepts "$work/verification_key.json" "$work/zk_public.json" "$work/zk_proof.json" \
    || { echo "FAIL: snarkjs rejected zkpipe's proof"; cat "$work/zk_proof.json"; exit 1; }
quiet "$zkpipe" zkey import "$work/circuit.zkey" "$work/circuit.zkp"
quiet "$zkpipe" groth16 prove "$work/circuit.zkp" "$work/witness.wtns" "$work/zkp_proof.json" "$work/zkp_public.json" \
    --r1cs "$work/circuit.r1cs"
snarkjs_accepts "$work/verification_key.json" "$work/zkp_public.json" "$work/zkp_proof.json" \
    || { echo "FAIL: snarkjs rejected zkpipe's proof from the imported parameter file"; exit 1; }

step "(b) zkpipe verifies snarkjs's proof"
quiet snarkjs groth16 prove "$work/circuit.zkey" "$work/witness.wtns" "$work/sj_proof.json" "$work/sj_public.json"
out=$("$zkpipe" groth16 verify "$work/verification_key.json" "$work/sj_public.json" "$work/sj_proof.json") \
    || { echo "FAIL: zkpipe rejected snarkjs's proof: $out"; exit 1; }
[ "$out" = "OK" ] || { echo "FAIL: zkpipe printed '$out' instead of OK"; exit 1; }
cmp "$work/zk_public.json" "$work/sj_public.json" || { echo "FAIL: public.json differs from snarkjs's"; exit 1; }
quiet "$zkpipe" zkey export-vk "$work/circuit.zkey" "$work/zk_vk.json"
cmp "$work/zk_vk.json" "$work/verification_key.json" || { echo "FAIL: exported vk differs from snarkjs's"; exit 1; }

step "(c) both reject tampered proofs and wrong public signals"
edit_json() {  # edit_json IN OUT JS-EXPRESSION-ON-d
    node -e 'const fs = require("fs"); const d = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
             (new Function("d", process.argv[3]))(d); fs.writeFileSync(process.argv[2], JSON.stringify(d, null, 1));' \
        "$1" "$2" "$3"
}
for who in zk sj; do
    edit_json "$work/${who}_proof.json" "$work/t1.json" 'd.pi_a = d.pi_c;'
    expect_both_reject "$who proof with pi_a replaced by pi_c" "$work/${who}_public.json" "$work/t1.json"
    edit_json "$work/${who}_proof.json" "$work/t2.json" 'const t = d.pi_b[0]; d.pi_b[0] = d.pi_b[1]; d.pi_b[1] = t;'
    expect_both_reject "$who proof with pi_b's coordinates swapped" "$work/${who}_public.json" "$work/t2.json"
    edit_json "$work/${who}_public.json" "$work/t3.json" 'd[0] = (BigInt(d[0]) + 1n).toString();'
    expect_both_reject "$who proof with public signal 0 changed" "$work/t3.json" "$work/${who}_proof.json"
    edit_json "$work/${who}_public.json" "$work/t4.json" 'd[d.length - 1] = (BigInt(d[d.length - 1]) + 1n).toString();'
    expect_both_reject "$who proof with the last public signal changed" "$work/t4.json" "$work/${who}_proof.json"
done
echo "PASS: snarkjs and zkpipe accept each other's proofs and reject tampered ones"
