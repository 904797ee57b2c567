#!/usr/bin/env bash
# zkpipe vs snarkjs `groth16 prove` on the same .zkey and .wtns, same machine, same run.
#
#   scripts/bench-snarkjs.sh [--zkpipe BIN] [--runs K] [LOG2 ...]     (default LOG2: 12 14 16)
#
# For each size: a circom chain circuit of 2^LOG2 constraints (t_{i+1} = t_i^2 + c, full-width
# witness values) compiled with --prime bls12381, its witness, and an INSECURE test zkey from
# snarkjs-devsetup.mjs (the powers-of-tau flow cannot reach 2^16 on a small machine); then
# snarkjs proves in-process (snarkjs-bench-prove.mjs, best warm run) and as a CLI, zkpipe proves
# through its CLI (file reading included), and snarkjs verifies zkpipe's proof.
# Artifacts are cached in $BENCH_DIR (default $SNARKJS_PKG_DIR/bench).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
pkg=${SNARKJS_PKG_DIR:-$HOME/.cache/zkpipe-snarkjs}
tools=${ZKPIPE_SNARKJS_TOOLS:-$repo/../shared/tools}
bench=${BENCH_DIR:-$pkg/bench}
zkpipe=$repo/build/apps/zkpipe
runs=3
sizes=()
while [ $# -gt 0 ]; do
    case "$1" in
        --zkpipe) zkpipe=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) sizes+=("$1"); shift ;;
    esac
done
[ ${#sizes[@]} -gt 0 ] || sizes=(12 14 16)
[ -x "$zkpipe" ] || { echo "no zkpipe binary at $zkpipe (build first or pass --zkpipe)" >&2; exit 1; }
[ -f "$tools/snarkjs-devsetup.mjs" ] || { echo "snarkjs tools not found in $tools (set ZKPIPE_SNARKJS_TOOLS)" >&2; exit 1; }
"$repo/scripts/install-snarkjs.sh" "$pkg"
export SNARKJS_PKG_DIR=$pkg
snarkjs() { node --max-old-space-size=16000 "$pkg/node_modules/snarkjs/build/cli.cjs" "$@"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

prepare() {  # prepare LOG2 DIR
    local n=$((1 << $1)) dir=$2
    mkdir -p "$dir"
    if [ ! -s "$dir/circuit.r1cs" ]; then
        cat >"$dir/circuit.circom" <<CIRCOM
pragma circom 2.1.0;
template Chain(N) {
    signal input x;
    signal input c;
    signal output y;
    signal t[N + 1];
    t[0] <== x;
    for (var i = 0; i < N; i++) { t[i + 1] <== t[i] * t[i] + c; }
    y <== t[N];
}
component main {public [x]} = Chain($n);
CIRCOM
        echo '{"x": "3", "c": "7"}' >"$dir/input.json"
        (cd "$pkg" && node --max-old-space-size=16000 node_modules/circom2/cli.js "$dir/circuit.circom" \
            --prime bls12381 --r1cs --wasm -o "$dir" >/dev/null)
    fi
    [ -s "$dir/witness.wtns" ] || snarkjs wtns calculate "$dir/circuit_js/circuit.wasm" "$dir/input.json" "$dir/witness.wtns"
    if [ ! -s "$dir/circuit.zkey" ]; then
        node --max-old-space-size=16000 "$tools/snarkjs-devsetup.mjs" "$dir/circuit.r1cs" "$dir/circuit.zkey" >/dev/null
    fi
    [ -s "$dir/verification_key.json" ] || snarkjs zkey export verificationkey "$dir/circuit.zkey" "$dir/verification_key.json" >/dev/null
}

best_of() { sort -n | head -1; }

rows=()
for k in "${sizes[@]}"; do
    dir=$bench/chain-2e$k
    echo "== 2^$k: preparing $dir" >&2
    prepare "$k" "$dir"
    echo "== 2^$k: snarkjs in-process" >&2
    sj_json=$(node --max-old-space-size=16000 "$tools/snarkjs-bench-prove.mjs" "$dir/circuit.zkey" "$dir/witness.wtns" \
        $((runs + 1)) "$dir/verification_key.json" | tail -1)
    sj_best=$(node -p "JSON.parse(process.argv[1]).best_warm.toFixed(3)" "$sj_json")
    echo "== 2^$k: snarkjs CLI" >&2
    t0=$(now); snarkjs groth16 prove "$dir/circuit.zkey" "$dir/witness.wtns" "$dir/sj_proof.json" "$dir/sj_public.json"; t1=$(now)
    sj_cli=$(elapsed "$t0" "$t1")
    echo "== 2^$k: zkpipe CLI x$runs" >&2
    zk_times=()
    for _ in $(seq "$runs"); do
        t0=$(now)
        "$zkpipe" groth16 prove "$dir/circuit.zkey" "$dir/witness.wtns" "$dir/zk_proof.json" "$dir/zk_public.json"
        t1=$(now)
        zk_times+=("$(elapsed "$t0" "$t1")")
    done
    zk_best=$(printf '%s\n' "${zk_times[@]}" | best_of)
    snarkjs groth16 verify "$dir/verification_key.json" "$dir/zk_public.json" "$dir/zk_proof.json" | grep -q "OK!" \
        || { echo "snarkjs rejected zkpipe's proof at 2^$k" >&2; exit 1; }
    rows+=("$(awk -v k="$k" -v a="$sj_best" -v b="$sj_cli" -v z="$zk_best" \
        'BEGIN { printf "| 2^%s | %s s | %s s | %s s | %.1fx | %.1fx |", k, a, b, z, a / z, b / z }')")
done

echo
echo "zkpipe vs snarkjs groth16 prove, BLS12-381 chain circuits, $(date -u +%F), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
echo "snarkjs $(node -p "require('$pkg/node_modules/snarkjs/package.json').version") (node $(node --version)); zkpipe CLI wall time incl. reading zkey + wtns and writing JSON; best of $runs"
echo
echo "| constraints | snarkjs in-process (best warm) | snarkjs CLI | zkpipe CLI | ratio in-process | ratio CLI |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
