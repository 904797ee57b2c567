# Sourced by scripts/fuzz.sh and scripts/sanitize.sh: the newest clang++ of at least
# version 16 (clang 14, Debian 12's default, cannot capture structured bindings in
# lambdas, which src/ does: C++20, P1091R3).
#
#   cxx=$(find_clang16 "$ZKPIPE_FUZZ_CXX") || ...     the compiler, or exit status 1
#   export_symbolizer CLANG        ASAN_SYMBOLIZER_PATH: the llvm-symbolizer of CLANG's
#                                  release, else any on PATH (symbolized stacks in reports)

find_clang16() {
  local c v
  for c in "$@" clang++-19 clang++-18 clang++-17 clang++-16 clang++; do
    [[ -n $c ]] && command -v "$c" > /dev/null || continue
    v=$("$c" -dumpversion)
    if ((${v%%.*} >= 16)); then
      echo "$c"
      return 0
    fi
  done
  return 1
}

export_symbolizer() {
  local symbolizer=
  if [[ -n $1 ]]; then symbolizer=$(dirname "$(readlink -f "$(command -v "$1")")")/llvm-symbolizer; fi
  [[ -x $symbolizer ]] || symbolizer=$(command -v llvm-symbolizer || true)
  if [[ -n $symbolizer ]]; then export ASAN_SYMBOLIZER_PATH=$symbolizer; fi
}
