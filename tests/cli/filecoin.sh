#!/usr/bin/env bash
# Filecoin PoRep C2 end to end on a 2 KiB sector (its partition is 2.7 M constraints,
# a 2^22 domain): test-only parameters, a sector sealed in memory, its C1 output proved
# through the engine (the .params converted once into a mapped key cache) and the proof
# verified from the sector's values; then refusals:
# a tampered proof (exit 1), a malformed one, a C1 output of another sector and a
# truncated one (exit 2, naming what is wrong, nothing written); parameters of another
# sector size are refused in tests/proving/filecoin_porep_test.cpp.
set -euo pipefail
zkpipe=$(readlink -f "$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# expect_exit CODE CMD...: CMD's exit status is CODE; its stderr is in $dir/err.txt.
expect_exit() {
  local want=$1 rc=0
  shift
  "$@" > "$dir/out.txt" 2> "$dir/err.txt" || rc=$?
  [ "$rc" -eq "$want" ] || { cat "$dir/err.txt" >&2; fail "$*: exit $rc, expected $want"; }
}

"$zkpipe" filecoin setup --sector-size 2KiB --params "$dir/p.params" --vk "$dir/p.vk" --backend cpu --quiet \
  2> "$dir/setup.txt"
grep -q "TEST-ONLY parameters" "$dir/setup.txt"
test -s "$dir/p.zkpev"

"$zkpipe" filecoin seal --sector-size 2KiB --random-data --seed 5 --out-dir "$dir/s" > "$dir/seal.txt" 2>/dev/null
grep -Eq "^comm_r [0-9a-f]{64}$" "$dir/seal.txt"
grep -q "\"comm_r\": \"$(sed -n 's/^comm_r //p' "$dir/seal.txt")\"" "$dir/s/sector.json"

"$zkpipe" filecoin c2 --c1 "$dir/s/c1.json" --sector "$dir/s/sector.json" --params "$dir/p.params" \
  --out "$dir/proof.bin" --backend cpu --no-subgroup-check --pw 1 2> "$dir/c2.txt" > /dev/null
grep -q "^converted $dir/p.params into $dir/p.params.zkp (mapped from now on)" "$dir/c2.txt" || { cat "$dir/c2.txt" >&2; fail "cache not written"; }
test "$(stat -c %s "$dir/proof.bin")" -eq 192
"$zkpipe" filecoin verify --vk "$dir/p.vk" --sector "$dir/s/sector.json" --proof "$dir/proof.bin" | grep -qx valid

# Proving that cannot fit is refused before the key is read: here the key decoded into
# host memory (--no-key-cache) under an address-space limit of about 1.4 GiB.
rc=0
bash -c 'ulimit -v 1500000 && exec "$0" filecoin c2 --c1 "$1/s/c1.json" --sector "$1/s/sector.json" \
  --params "$1/p.params" --no-key-cache --out "$1/refused.bin" --backend cpu --pw 1' "$zkpipe" "$dir" \
  2> "$dir/refused.txt" > /dev/null || rc=$?
[ "$rc" -eq 2 ] && grep -q "proving this C1 output needs about .*the key decoded into host memory" "$dir/refused.txt" ||
  { cat "$dir/refused.txt" >&2; fail "c2 that cannot fit not refused before the key is read (exit $rc)"; }
[ ! -e "$dir/refused.bin" ] || fail "a refused c2 wrote a proof"

# The .params was converted into the key cache beside it, without the subgroup check.
# That the next run maps it, that a checking run converts such a cache again, and a
# damaged cache or a file at its place that is no cache, are the key cache's unit tests
# (tests/proving/bellperson_key_test.cpp): a second 2^22 proof here would add a minute
# of this machine's two cores to the longest test.
test -s "$dir/p.params.zkp"

# A's sign bit flipped: still a point on the curve, no longer the proof.
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[0] ^= 0x20; open(sys.argv[2], "wb").write(b)' \
  "$dir/proof.bin" "$dir/tampered.bin"
expect_exit 1 "$zkpipe" filecoin verify --vk "$dir/p.vk" --sector "$dir/s/sector.json" --proof "$dir/tampered.bin"
grep -qx "invalid: partition 0" "$dir/out.txt"
# Cut short: malformed, not invalid.
head -c 100 "$dir/proof.bin" > "$dir/short.bin"
expect_exit 2 "$zkpipe" filecoin verify --vk "$dir/p.vk" --sector "$dir/s/sector.json" --proof "$dir/short.bin"
grep -q "short.bin" "$dir/err.txt"

# Bad C1 outputs: refused before any work, naming the file and the field; no proof file.
python3 - "$dir" <<'EOF'
import base64, json, sys
d = sys.argv[1]
raw = open(f"{d}/s/c1.json", "rb").read()
c1 = json.loads(raw)
c1["comm_r"][0] ^= 1
bad = json.dumps(c1, separators=(",", ":")).encode()
open(f"{d}/comm_r.json", "wb").write(bad)
open(f"{d}/truncated.json", "wb").write(raw[: len(raw) // 2])
# lotus-bench's Commit2In around the bad output: read through the wrapper.
open(f"{d}/wrapped.json", "w").write(json.dumps(
    {"SectorNum": 1, "Phase1Out": base64.b64encode(bad).decode(), "SectorSize": 2048}))
EOF
c2() {
  expect_exit 2 "$zkpipe" filecoin c2 --c1 "$1" --sector "$2" --params "$dir/p.params" --out "$dir/bad.bin" \
    --backend cpu --quiet
  ! ls "$dir"/bad.bin* > /dev/null 2>&1 || fail "a proof file was written for $1"
}
c2 "$dir/comm_r.json" "$dir/s/sector.json"
grep -q "comm_r.json: comm_r: .* is not the sector's comm_r" "$dir/err.txt"
c2 "$dir/wrapped.json" "$dir/s/sector.json"
grep -q "wrapped.json Phase1Out: comm_r" "$dir/err.txt"
c2 "$dir/truncated.json" "$dir/s/sector.json"
grep -q "truncated.json: not valid JSON" "$dir/err.txt"

# Sizes that cannot be sealed in memory are refused with the way to get a C1 output.
expect_exit 2 "$zkpipe" filecoin seal --sector-size 32GiB --random-data --out-dir "$dir/s32"
grep -q "too large to seal in memory" "$dir/err.txt"
test ! -e "$dir/s32"
# PoSt: the circuits' counts, and a Window PoSt of two synthetic partitions proved and
# verified through the engine.
"$zkpipe" circuit info --circuit filecoin-window-post --sector-size 2KiB > "$dir/info.txt"
grep -Eq "^public inputs +23 " "$dir/info.txt"
"$zkpipe" circuit info --circuit filecoin-winning-post --sector-size 32GiB > "$dir/info.txt"
grep -Eq "^public inputs +133 " "$dir/info.txt"
# Sector sizes are read one way: any case, or bytes; anything else is refused by name.
"$zkpipe" circuit info --circuit filecoin-winning-post --sector-size "32 gib" > "$dir/info.txt"
grep -Eq "^public inputs +133 " "$dir/info.txt"
"$zkpipe" circuit info --circuit filecoin-winning-post --sector-size 34359738368 > "$dir/info.txt"
grep -Eq "^public inputs +133 " "$dir/info.txt"
expect_exit 2 "$zkpipe" circuit info --circuit filecoin-winning-post --sector-size 32GB
grep -q "expected 2KiB, 8MiB, 512MiB, 32GiB, 64GiB or a number of bytes" "$dir/err.txt"
(cd "$dir" && "$zkpipe" bench batch --circuit filecoin-window-post --sector-size 2KiB --partitions 2 -c 1 \
  --backend cpu --quiet > "$dir/post.txt" 2>&1) || { cat "$dir/post.txt" >&2; fail "window post bench"; }
grep -q "1/1 proofs verified" "$dir/post.txt"
# SnapDeals: the Poseidon variant's counts, and 2 KiB updates proved and verified
# while a critical Window PoSt (its key the one set up above) is proved into the
# batch and then alone; both of its proofs verify (its latencies are the bench's
# figures, not the test's).
"$zkpipe" circuit info --circuit filecoin-snapdeals-poseidon --sector-size 2KiB > "$dir/info.txt"
grep -Eq "^public inputs +5 " "$dir/info.txt"
(cd "$dir" && "$zkpipe" bench batch --circuit filecoin-snapdeals-poseidon --sector-size 2KiB -c 3 -j 2 \
  --critical-circuit filecoin-window-post --critical-sector-size 2KiB --critical-partitions 2 --critical-after 1 \
  --backend cpu --quiet > "$dir/snap.txt" 2>&1) || { cat "$dir/snap.txt" >&2; fail "snapdeals bench"; }
grep -q "3/3 proofs verified" "$dir/snap.txt"
grep -Eq "^critical filecoin-window-post/2KiB after 1 batch proofs: latency .*, both verified$" "$dir/snap.txt" ||
  { cat "$dir/snap.txt" >&2; fail "the critical Window PoSt in the SnapDeals batch"; }
expect_exit 2 "$zkpipe" circuit info --circuit filecoin-spacerace-post --sector-size 2KiB
grep -q "unknown circuit 'filecoin-spacerace-post'" "$dir/err.txt"
# The daemon: PoSt and SnapDeals jobs through `zkpipe client`, then cuzk's API. Where
# the build has no daemon, said and left out.
python=
for candidate in ${ZKPIPE_PYTHON:-python3 /usr/bin/python3}; do
  if "$candidate" -c 'import grpc, grpc_tools.protoc' 2> /dev/null; then python=$candidate; break; fi
done
if ! "$zkpipe" serve --help > /dev/null 2>&1; then
  echo "daemon: not tested (this zkpipe has no daemon)"
else
  source_dir=$(cd "$(dirname "$0")/../.." && pwd)
  mkdir -p "$dir/data"
  printf 'cuzk_params = { "porep-2k" = "%s" }\nmax_request_bytes = "16MiB"\n' "$dir/p.params" > "$dir/serve.toml"
  sock="unix:$dir/zkpipe.sock"
  client_args=(--server "$sock")
  daemon_pid=
  source "$(dirname "$0")/service_lib.sh"
  trap 'cleanup_daemon; rm -rf "$dir"' EXIT
  start_daemon "$dir/serve.log" --config "$dir/serve.toml" --listen "$sock" --data-dir "$dir/data" \
    --param-root "$dir" --backend cpu --pw 1
  # A Window PoSt partition from its vanilla proofs (`filecoin vanilla` writes a 2 KiB
  # partition's, the bench above set the key up): `client prove` sends the files and
  # writes the 192-byte proof the daemon checked.
  read -ra post_options <<< "$("$zkpipe" filecoin vanilla --kind window-post --sector-size 2KiB --seed 5 \
    --out-dir "$dir/wv" 2> /dev/null)"
  "$zkpipe" client "${client_args[@]}" prove "${post_options[@]}" \
    --params "$dir/out/params/filecoin-window-post-2KiB.zkpk" --out "$dir/wpost.bin" > "$dir/wpost.txt" ||
    { cat "$dir/wpost.txt" "$dir/serve.log" >&2; fail "client prove --filecoin-post"; }
  [[ $(stat -c %s "$dir/wpost.bin") -eq 192 ]] || fail "the Window PoSt proof is not 192 bytes"
  # A SnapDeals update's request as the client builds it: with comm_r_new swapped for
  # comm_r_old its vanilla proof's challenges are refused at submit, naming the field.
  "$zkpipe" filecoin vanilla --kind snapdeals --sector-size 2KiB --seed 5 --out-dir "$dir/sv" > /dev/null 2>&1
  job_field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$dir/sv/job.json" "$1"; }
  comm_r_old=$(job_field comm_r_old)
  expect_exit 2 "$zkpipe" client "${client_args[@]}" submit --filecoin-update StackedDrg2KiBV1 \
    --comm-r-old "$comm_r_old" --comm-r-new "$comm_r_old" --comm-d-new "$(job_field comm_d_new)" \
    --vanilla "$dir/sv/vanilla-0.bin" --params "$dir/no-such-key.zkpk"
  grep -q "INVALID_ARGUMENT: filecoin_update.vanilla_proofs\[0\]: comm_r_new is not Poseidon" "$dir/err.txt" ||
    { cat "$dir/err.txt" >&2; fail "the swapped comm_r_new"; }
  expect_exit 2 "$zkpipe" client "${client_args[@]}" submit --filecoin-update StackedDrg2KiBV1 \
    --comm-r-old "${comm_r_old:1}" --comm-r-new "$comm_r_old" --comm-d-new "$comm_r_old" \
    --vanilla "$dir/sv/vanilla-0.bin" --params "$dir/k.zkpk"
  grep -q "comm-r-old: expected 64 hex digits (32 bytes), got 63 characters" "$dir/err.txt" ||
    { cat "$dir/err.txt" >&2; fail "a short --comm-r-old"; }
  # cuzk.v1.ProvingEngine: Curio's cuzk client's calls (tests/cli/cuzk_client.py, stubs
  # from proto/cuzk/v1/proving.proto) against the daemon, proving a sector of miner
  # 1000 from the envelope curio sends; the proof verifies. Where python3 has no grpc,
  # said and left out.
  if [[ -z $python ]]; then
    echo "cuzk API: not tested (no python3 with grpc and grpc_tools)"
  else
    mkdir -p "$dir/stubs"
    "$python" -m grpc_tools.protoc -I "$source_dir/proto" --python_out="$dir/stubs" --grpc_python_out="$dir/stubs" \
      "$source_dir/proto/cuzk/v1/proving.proto"
    miner_prover_id=e807$(printf '0%.0s' $(seq 60))  # miner 1000's ID address payload (LEB128)
    "$zkpipe" filecoin seal --sector-size 2KiB --random-data --seed 6 --prover-id "$miner_prover_id" --sector-id 42 \
      --out-dir "$dir/m" > /dev/null 2>&1
    PYTHONPATH="$dir/stubs" "$python" "$source_dir/tests/cli/cuzk_client.py" "$sock" "$dir/m/c1.json" 1000 42 \
      "$dir/cuzk.bin" || { cat "$dir/serve.log" >&2; fail "cuzk client"; }
  fi
  stop_daemon TERM 0
  if [[ -n $python ]]; then
    "$zkpipe" filecoin verify --vk "$dir/p.vk" --sector "$dir/m/sector.json" --proof "$dir/cuzk.bin" | grep -qx valid
  fi

  # Cluster mode (a throwaway PostgreSQL 15: scripts/lib/postgres.sh): Curio submits the
  # sector under a request id to c2, alone on the queue, which claims its partition and
  # is killed with kill -9 while it holds the lease; Curio's recovery, the same request
  # with Prove, goes to c1: the same job, its partition re-claimed once the lease runs
  # out, proved; the proof verifies. (Every Filecoin kind through the queue, in-process:
  # tests/service/cluster_queue_test.cpp.)
  source "$source_dir/scripts/lib/postgres.sh"
  if [[ -z $python ]]; then
    echo "cluster: not tested (no python3 with grpc and grpc_tools)"
  elif ! pg_available; then
    echo "cluster: not tested (PostgreSQL 15 is not installed; scripts/install-deps.sh installs it)"
  else
    cluster_pids=()
    trap 'for p in "${cluster_pids[@]}"; do kill -9 "$p" 2> /dev/null || true; done; pg_destroy; cleanup_daemon; rm -rf "$dir"' EXIT
    pg_create || fail "could not start PostgreSQL"
    serve_cluster() {  # N
      "$zkpipe" serve --config "$dir/serve.toml" --listen "unix:$dir/c$1.sock" --data-dir "$dir/cdata$1" \
        --param-root "$dir" --backend cpu --pw 1 --name "c$1" --queue "$pg_url" --lease-seconds 3 \
        --heartbeat-seconds 1 > "$dir/c$1.log" 2>&1 &
      cluster_pids[$1]=$!
      for _ in $(seq 100); do
        "$zkpipe" client --server "unix:$dir/c$1.sock" status > /dev/null 2>&1 && return 0
        sleep 0.1
      done
      cat "$dir/c$1.log" >&2
      fail "cluster daemon c$1 did not answer"
    }
    cluster_status() {  # N FIELD: the cluster's FIELD (leases: daemon cN's) from cN's status
      "$zkpipe" client --server "unix:$dir/c$1.sock" --json status | python3 -c '
import json, sys
c = json.load(sys.stdin)["cluster"]
# uint64 fields are strings in protobuf JSON.
if sys.argv[2] == "leases":
    print(sum(int(d.get("leases", 0)) for d in c["daemons"] if d["name"] == sys.argv[1]))
else:
    print(int(c.get(sys.argv[2], 0)))' "c$1" "$2"
    }
    cuzk_cluster() { PYTHONPATH="$dir/stubs:$source_dir/tests/cli" "$python" "$source_dir/tests/cli/cuzk_cluster.py" "$@"; }
    serve_cluster 2
    cuzk_cluster submit "unix:$dir/c2.sock" "$dir/m/c1.json" 1000 42 sector-k > /dev/null
    held=0
    for _ in $(seq 600); do
      held=$(cluster_status 2 leases)
      ((held > 0)) && break
      sleep 0.1
    done
    ((held > 0)) || { cat "$dir/c2.log" >&2; fail "c2 never held the partition's lease"; }
    kill -9 "${cluster_pids[2]}"
    serve_cluster 1
    cuzk_cluster prove "unix:$dir/c1.sock" "$dir/m/c1.json" 1000 42 sector-k "$dir/cluster.bin" > /dev/null ||
      { cat "$dir/c1.log" >&2; fail "the retry at c1"; }
    (($(cluster_status 1 reclaimed_partitions) >= 1)) || fail "the partition c2 held was not re-claimed"
    "$zkpipe" filecoin verify --vk "$dir/p.vk" --sector "$dir/m/sector.json" --proof "$dir/cluster.bin" | grep -qx valid
    echo "cluster: c2 killed holding the lease; the retry at c1 proved the same job"
  fi
fi
echo "cli filecoin: OK"
