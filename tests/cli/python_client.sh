#!/usr/bin/env bash
# docs/python_client.py against a live `zkpipe serve`: the Python stubs are generated
# with grpc_tools.protoc (Debian 12's python3-grpc-tools, whose protoc rejects proto3
# `optional`), the example proves a tiny PoRep-like job through a unix socket with a
# bearer token, and its proof verifies with `zkpipe verify`; without the token it
# reports UNAUTHENTICATED. Skipped (77) where no python3 has the grpc module
# (python3-grpcio).
#
#   [ZKPIPE_PYTHON=INTERPRETER] python_client.sh ZKPIPE
set -euo pipefail
zkpipe=$1
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
daemon_pid=
source "$(dirname "$0")/service_lib.sh"
trap 'cleanup_daemon; rm -rf "$dir"' EXIT

# The first python3 on PATH may be another install (pyenv, a venv) than Debian's.
python=
for candidate in ${ZKPIPE_PYTHON:-python3 /usr/bin/python3}; do
  if "$candidate" -c 'import grpc' 2> /dev/null; then python=$candidate; break; fi
done
if [[ -z $python ]]; then echo "SKIP: no python3 with the grpc module (python3-grpcio)"; exit 77; fi
if ! "$python" -c 'import grpc_tools.protoc' 2> /dev/null; then
  echo "FAIL: $python has grpc but not grpc_tools (python3-grpc-tools)" >&2; exit 1
fi

mkdir -p "$dir/stubs"
"$python" -m grpc_tools.protoc -I "$source_dir/proto" --python_out="$dir/stubs" --grpc_python_out="$dir/stubs" \
  "$source_dir/proto/zkpipe/v1/zkpipe.proto"
example() { PYTHONPATH="$dir/stubs" "$python" "$source_dir/docs/python_client.py" "$@"; }

mkdir -p "$dir/params" "$dir/data"
"$zkpipe" setup --preset tiny --out "$dir/params/key.zkp" --quiet 2> /dev/null
echo "s3cret" > "$dir/token"
sock="unix:$dir/zkpipe.sock"
client_args=(--server "$sock" --token-file "$dir/token")
start_daemon "$dir/serve.log" --listen "$sock" --data-dir "$dir/data" --param-root "$dir/params" \
  --token-file "$dir/token" --pw 1

example --server "$sock" --token-file "$dir/token" --key "$dir/params/key.zkp" --preset tiny --seed 7 \
  --partitions 3 --out "$dir/p.bin" > "$dir/out.txt"
cat "$dir/out.txt"
grep -q "^job 1: DONE, 3 partitions, 576 proof bytes" "$dir/out.txt"
grep -q "^daemon: 1 jobs done" "$dir/out.txt"
grep -q "^device 0: .*, 3 partitions proved" "$dir/out.txt"
"$zkpipe" verify --preset tiny --key "$dir/params/key.zkp" --seed 7 --partitions 3 --proof "$dir/p.bin" | grep -q "^OK"

rc=0
example --server "$sock" --key "$dir/params/key.zkp" > /dev/null 2> "$dir/err.txt" || rc=$?
if [[ $rc -ne 1 ]] || ! grep -q "UNAUTHENTICATED" "$dir/err.txt"; then
  echo "FAIL: without the token the example exited $rc:" >&2; cat "$dir/err.txt" >&2; exit 1
fi

stop_daemon TERM 0
echo "cli python_client: OK"
