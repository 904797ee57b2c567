#!/usr/bin/env bash
# bench batch prints untracked memory as a share of RSS and whether peak RSS stayed
# within baseline + budget + runtime growth, and --strict-memory turns a share above
# 5 % or a broken bound into a failure (exit 2, naming the flag) while a run within
# both passes; without the flag the same batch always succeeds. The tight budget
# (one working set) makes the bound's outcome depend on the run, not on the flag.
set -euo pipefail
zkpipe=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

batch=("$zkpipe" bench batch --preset tiny --partitions 2 -c 2 -j 1 --pw 1 --quiet --params-dir "$dir" --budget 1x)

"${batch[@]}" > "$dir/plain.txt"
share=$(sed -n 's/^untracked share of RSS: max \([0-9.]*\) %.*/\1/p' "$dir/plain.txt")
if [ -z "$share" ]; then
  echo "FAIL: no 'untracked share of RSS' line:" >&2; cat "$dir/plain.txt" >&2; exit 1
fi

if ! grep -Eq '^budget bound: peak RSS .* (<=|EXCEEDS) baseline \+ budget \+ runtime growth = ' "$dir/plain.txt"; then
  echo "FAIL: no 'budget bound' line:" >&2; cat "$dir/plain.txt" >&2; exit 1
fi

rc=0
"${batch[@]}" --strict-memory > "$dir/strict.txt" 2> "$dir/err.txt" || rc=$?
strict_share=$(sed -n 's/^untracked share of RSS: max \([0-9.]*\) %.*/\1/p' "$dir/strict.txt")
exceeds=0
grep -q '^budget bound: .* EXCEEDS ' "$dir/strict.txt" && exceeds=1
if [ "$exceeds" -eq 1 ] || awk -v s="$strict_share" 'BEGIN { exit !(s > 5.0) }'; then
  if [ "$rc" -ne 2 ] || ! grep -q -- "--strict-memory" "$dir/err.txt"; then
    echo "FAIL: share $strict_share %, bound exceeded=$exceeds, but --strict-memory gave exit $rc:" >&2
    cat "$dir/err.txt" >&2; exit 1
  fi
else
  if [ "$rc" -ne 0 ]; then
    echo "FAIL: share $strict_share % <= 5 % within the bound but --strict-memory gave exit $rc:" >&2
    cat "$dir/err.txt" >&2; exit 1
  fi
fi
echo "untracked share: $share % (plain run), $strict_share % (strict run, bound exceeded=$exceeds, exit $rc)"
