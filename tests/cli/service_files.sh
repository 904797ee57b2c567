#!/usr/bin/env bash
# zkpipe serve and files that change under it. A resident key truncated in place:
# the next job fails naming the change and the daemon goes on (status answers, and a
# job proves once the key is restored). A key replaced by rename: the next job
# proves with the new key, not the stale mapping. A witness path swapped to point
# outside the root after its job was accepted: the job proves with the file checked
# at submit or fails, never reads the outside file.
#
#   service_files.sh ZKPIPE FIXTURES     (FIXTURES: tests/fixtures/chain-2e10)
set -euo pipefail
zkpipe=$1
fixtures=$2
dir=$(mktemp -d)
daemon_pid=
source "$(dirname "$0")/service_lib.sh"
trap 'cleanup_daemon; rm -rf "$dir"' EXIT

mkdir -p "$dir/params" "$dir/data"
"$zkpipe" setup --preset tiny --out "$dir/params/key.zkp" --quiet 2> /dev/null
"$zkpipe" setup --preset tiny --setup-seed 99 --out "$dir/other.zkp" --quiet 2> /dev/null
cp "$dir/params/key.zkp" "$dir/key.saved"
sock="unix:$dir/zkpipe.sock"
client_args=(--server "$sock")
client() { "$zkpipe" client "${client_args[@]}" "$@"; }
verify() { "$zkpipe" verify --preset tiny --key "$1" --seed "$2" --proof "$3" > /dev/null; }

start_daemon "$dir/serve.log" --listen "$sock" --data-dir "$dir/data" --param-root "$dir/params" --pw 1

# Resident, then truncated in place: the next job fails with the change, and the
# daemon (which would have died of SIGBUS reading the mapping) answers.
client prove --preset tiny --key "$dir/params/key.zkp" --seed 1 --out "$dir/1.bin" | grep -q "done"
size=$(stat -c %s "$dir/params/key.zkp")
truncate -s 4096 "$dir/params/key.zkp"
rc=0
client prove --preset tiny --key "$dir/params/key.zkp" --seed 2 --out "$dir/2.bin" > "$dir/2.txt" 2>&1 || rc=$?
if [[ $rc -ne 1 ]] || ! grep -q "failed (parameter file $dir/params/key.zkp changed since it was loaded (size $size → 4096))" "$dir/2.txt"; then
  echo "FAIL: the job on a truncated key exited $rc:" >&2; cat "$dir/2.txt" >&2; cat "$dir/serve.log" >&2; exit 1
fi
kill -0 "$daemon_pid"
client status | grep -q "failed 1"
# Restored in place (cp rewrites the same inode): loaded again, proves.
cp "$dir/key.saved" "$dir/params/key.zkp"
client prove --preset tiny --key "$dir/params/key.zkp" --seed 3 --out "$dir/3.bin" | grep -q "done"
verify "$dir/params/key.zkp" 3 "$dir/3.bin"

# Replaced by rename (another setup): the stale resident key is dropped, the new one proves.
cp "$dir/other.zkp" "$dir/params/key.zkp.new"
mv "$dir/params/key.zkp.new" "$dir/params/key.zkp"
client prove --preset tiny --key "$dir/params/key.zkp" --seed 4 --out "$dir/4.bin" | grep -q "done"
verify "$dir/other.zkp" 4 "$dir/4.bin"
if verify "$dir/key.saved" 4 "$dir/4.bin"; then echo "FAIL: proved with the replaced key" >&2; exit 1; fi

# A witness named through a link under the root; once the job is accepted, queued
# behind a long job, the link and the file it named are swapped to point outside the
# root, at a witness that does not satisfy the circuit.
cp "$fixtures/circuit_final.zkey" "$dir/params/"
mkdir "$dir/params/w"
cp "$fixtures/witness.wtns" "$dir/params/w/witness.wtns"
ln -s w/witness.wtns "$dir/params/link.wtns"
python3 - "$fixtures/witness.wtns" "$dir/outside.wtns" <<'PY'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
data[-32] = 5  # the last wire's value: still a well-formed witness, no longer satisfying
open(sys.argv[2], 'wb').write(data)
PY
# The .zkey resident, the job starts (opens its files) as soon as it is accepted.
client preload --zkey "$dir/params/circuit_final.zkey" > /dev/null
long=$(client submit --preset tiny --key "$dir/params/key.zkp" --seed 5 --partitions 40 | tail -1)
id=$(client submit --zkey "$dir/params/circuit_final.zkey" --witness "$dir/params/link.wtns" --priority low | tail -1)
sleep 0.5
ln -sfn "$dir/outside.wtns" "$dir/params/link.wtns"
ln -sfn "$dir/outside.wtns" "$dir/params/w/witness.wtns"
rc=0
client await "$id" --out "$dir/proof.json" --public "$dir/public.json" > "$dir/w.txt" 2>&1 || rc=$?
if [[ $rc -eq 0 ]]; then
  "$zkpipe" groth16 verify "$fixtures/verification_key.json" "$dir/public.json" "$dir/proof.json" | grep -q "^OK"
  cmp <(tr -d ' \n' < "$dir/public.json") <(tr -d ' \n' < "$fixtures/public.json")
elif ! grep -Eq "outside the allowed roots|the path changed after it was checked|another file than the one checked" "$dir/w.txt"; then
  echo "FAIL: the swapped witness's job failed otherwise (it read the outside file?):" >&2; cat "$dir/w.txt" >&2; exit 1
fi
client await "$long" 2> /dev/null | grep -q "done"
stop_daemon TERM 0
echo "cli service_files: OK"
