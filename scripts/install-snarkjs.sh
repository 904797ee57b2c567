#!/usr/bin/env bash
# Installs the circom + snarkjs toolchain used by the interoperability tests and the
# snarkjs benchmark: snarkjs, circom2 (circom compiled to WebAssembly) and circomlib,
# from npm at pinned versions, into a cache folder. Idempotent: returns at once when
# the pinned versions are already there.
#
#   scripts/install-snarkjs.sh [DIR]     DIR defaults to $SNARKJS_PKG_DIR, else
#                                        $HOME/.cache/zkpipe-snarkjs
# Exit status: 0 installed (or already present), 3 npm registry unreachable and
# nothing cached, 1 any other failure.
set -euo pipefail

SNARKJS_VER=0.7.6
CIRCOM2_VER=0.2.23
CIRCOMLIB_VER=2.0.5

pkg=${1:-${SNARKJS_PKG_DIR:-$HOME/.cache/zkpipe-snarkjs}}

installed_version() {
    node -p "require('$pkg/node_modules/$1/package.json').version" 2>/dev/null || true
}
pinned_present() {
    [ "$(installed_version snarkjs)" = "$SNARKJS_VER" ] &&
        [ "$(installed_version circom2)" = "$CIRCOM2_VER" ] &&
        [ "$(installed_version circomlib)" = "$CIRCOMLIB_VER" ]
}

command -v node >/dev/null && command -v npm >/dev/null || {
    echo "install-snarkjs: node and npm are required" >&2
    exit 1
}
if pinned_present; then
    exit 0
fi
if ! npm view "snarkjs@$SNARKJS_VER" version >/dev/null 2>&1; then
    echo "install-snarkjs: the npm registry is unreachable and $pkg lacks the pinned packages" >&2
    exit 3
fi
mkdir -p "$pkg"
# A package.json named "snarkjs" would clash with the dependency of that name.
[ -f "$pkg/package.json" ] || echo '{"name":"zkpipe-snarkjs-harness","version":"1.0.0","private":true}' >"$pkg/package.json"
(cd "$pkg" && npm install --no-audit --no-fund --loglevel=error \
    "snarkjs@$SNARKJS_VER" "circom2@$CIRCOM2_VER" "circomlib@$CIRCOMLIB_VER")
pinned_present || { echo "install-snarkjs: npm install did not leave the pinned versions in $pkg" >&2; exit 1; }
echo "install-snarkjs: snarkjs $SNARKJS_VER, circom2 $CIRCOM2_VER, circomlib $CIRCOMLIB_VER in $pkg"
