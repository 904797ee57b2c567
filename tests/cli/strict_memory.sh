#!/usr/bin/env bash
# bench batch prints untracked memory as a share of RSS, and --strict-memory turns a
# share above 5 % into a failure (exit 2, naming the flag) while a share within it
# passes; without the flag the same batch always succeeds.
set -euo pipefail
zkpipe=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

batch=("$zkpipe" bench batch --preset tiny --partitions 2 -c 2 -j 1 --pw 1 --quiet --params-dir "$dir")

"${batch[@]}" > "$dir/plain.txt"
share=$(sed -n 's/^untracked share of RSS: max \([0-9.]*\) %.*/\1/p' "$dir/plain.txt")
if [ -z "$share" ]; then
  echo "FAIL: no 'untracked share of RSS' line:" >&2; cat "$dir/plain.txt" >&2; exit 1
fi

rc=0
"${batch[@]}" --strict-memory > "$dir/strict.txt" 2> "$dir/err.txt" || rc=$?
strict_share=$(sed -n 's/^untracked share of RSS: max \([0-9.]*\) %.*/\1/p' "$dir/strict.txt")
if awk -v s="$strict_share" 'BEGIN { exit !(s > 5.0) }'; then
  if [ "$rc" -ne 2 ] || ! grep -q -- "--strict-memory" "$dir/err.txt"; then
    echo "FAIL: share $strict_share % > 5 % but --strict-memory gave exit $rc:" >&2; cat "$dir/err.txt" >&2; exit 1
  fi
else
  if [ "$rc" -ne 0 ]; then
    echo "FAIL: share $strict_share % <= 5 % but --strict-memory gave exit $rc:" >&2; cat "$dir/err.txt" >&2; exit 1
  fi
fi
echo "untracked share: $share % (plain run), $strict_share % (strict run, exit $rc)"
