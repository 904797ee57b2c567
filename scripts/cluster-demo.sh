#!/usr/bin/env bash
# Cluster mode end to end: a throwaway PostgreSQL 15 on a loopback port, three
# `zkpipe serve --queue postgresql://…` daemons on it, a batch of PoRep-like proofs
# submitted round-robin to them, one daemon killed with kill -9 mid-run (and,
# with --db-restart, the database restarted mid-run); every proof is awaited from
# a surviving daemon and checked with `zkpipe verify`, and the queue is checked for
# partitions recorded once each. Prints one line:
#
#   cluster: N/N proofs verified in T s (R proofs/min), K partitions re-claimed …
#
#   scripts/cluster-demo.sh [--zkpipe PATH] [--proofs N] [--partitions P] [--preset P]
#                           [--db-restart] [--no-kill] [--independent]
#
# --independent runs the same batch on three daemons with their own SQLite queues
# (no database, no kill): the benchmark's baseline. Exits non-zero if anything is
# off; 77 when PostgreSQL 15 is not installed (scripts/install-deps.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
zkpipe=build/apps/zkpipe
proofs=20
partitions=4
preset=tiny
db_restart=0
kill_one=1
independent=0
lease=3
heartbeat=0.5
while (($#)); do
  case $1 in
    --zkpipe) zkpipe=$2; shift ;;
    --proofs) proofs=$2; shift ;;
    --partitions) partitions=$2; shift ;;
    --preset) preset=$2; shift ;;
    --db-restart) db_restart=1 ;;
    --no-kill) kill_one=0 ;;
    --independent) independent=1; kill_one=0 ;;
    *) echo "cluster-demo: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
zkpipe=$(realpath "$zkpipe")
source scripts/lib/postgres.sh
if [[ $independent -eq 0 ]] && ! pg_available; then
  echo "cluster-demo: PostgreSQL 15 is not installed ($pg_bin); scripts/install-deps.sh installs it" >&2
  exit 77
fi

dir=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
  done
  pg_destroy
  rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "cluster-demo: FAIL: $*" >&2; exit 1; }

queue=
if [[ $independent -eq 0 ]]; then
  pg_create || fail "could not start PostgreSQL"
  queue=$pg_url
fi

mkdir -p "$dir/params"
"$zkpipe" setup --preset "$preset" --out "$dir/params/key.zkp" --quiet 2> /dev/null

daemon_args() {  # N
  local n=$1
  echo --listen "unix:$dir/d$n.sock" --data-dir "$dir/data$n" --param-root "$dir/params" --pw 1 --name "d$n"
  if [[ $independent -eq 0 ]]; then
    echo --queue "$queue" --lease-seconds "$lease" --heartbeat-seconds "$heartbeat"
  fi
}
start_daemon() {  # N
  local n=$1
  # shellcheck disable=SC2046
  "$zkpipe" serve $(daemon_args "$n") > "$dir/d$n.log" 2>&1 &
  pids[$n]=$!
  for _ in $(seq 100); do
    [[ -S $dir/d$n.sock ]] && return 0
    kill -0 "${pids[$n]}" 2> /dev/null || { cat "$dir/d$n.log" >&2; fail "daemon d$n did not start"; }
    sleep 0.1
  done
  fail "daemon d$n did not listen"
}
client() {  # N args…
  local n=$1
  shift
  "$zkpipe" client --server "unix:$dir/d$n.sock" "$@"
}
for n in 1 2 3; do start_daemon "$n"; done
# Every daemon sees the whole cluster.
if [[ $independent -eq 0 ]]; then
  client 1 status | grep -q "cluster (answered by d1)" || fail "status shows no cluster"
  [[ $(client 3 --json status | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["cluster"]["daemons"]))') -eq 3 ]] ||
    fail "status does not list the 3 daemons"
fi

t0=$(date +%s.%N)
ids=()
for ((i = 0; i < proofs; i++)); do
  ids+=("$(client $((i % 3 + 1)) submit --preset "$preset" --key "$dir/params/key.zkp" --seed $((i + 1)) \
    --partitions "$partitions" | tail -1)")
done

if [[ $kill_one -eq 1 ]]; then
  # kill -9 d2 while it holds leases and the batch is under way.
  leases() { client 1 --json status | python3 -c '
import json, sys
c = json.load(sys.stdin)["cluster"]
# uint64 fields are strings in protobuf JSON.
print(sum(int(d["leases"]) for d in c["daemons"] if d["name"] == sys.argv[1]),
      sum(int(d["partitions_proved"]) for d in c["daemons"]))' "$1"; }
  for _ in $(seq 300); do
    read -r held proved < <(leases d2)
    ((held > 0 && proved > 0)) && break
    sleep 0.05
  done
  ((held > 0)) || fail "d2 never held a lease: the kill would prove nothing"
  kill -9 "${pids[2]}"
  wait "${pids[2]}" 2> /dev/null || true
  unset 'pids[2]'
  tk=$(date +%s.%N)
  if [[ $db_restart -eq 1 ]]; then
    # The database restarts while d2's leases are still running out.
    pg_stop
    sleep 1
    pg_start
  fi
fi

for i in "${!ids[@]}"; do
  n=$((i % 3 + 1))
  [[ $kill_one -eq 1 && $n -eq 2 ]] && n=1  # awaited from a survivor
  client "$n" await "${ids[$i]}" --timeout 300 --out "$dir/p$i.bin" 2> /dev/null | grep -q "done" ||
    fail "job ${ids[$i]} did not complete"
done
t1=$(date +%s.%N)
verified=0
for i in "${!ids[@]}"; do
  "$zkpipe" verify --preset "$preset" --key "$dir/params/key.zkp" --seed $((i + 1)) --partitions "$partitions" \
    --proof "$dir/p$i.bin" | grep -q "^OK" && verified=$((verified + 1))
done
((verified == proofs)) || fail "$verified of $proofs proofs verified"

# The survivors drain and stop (SIGTERM) before the queue is inspected.
for n in "${!pids[@]}"; do
  kill -TERM "${pids[$n]}"
  wait "${pids[$n]}" || fail "daemon d$n exited with status $? on SIGTERM"
  unset "pids[$n]"
done

summary=""
if [[ $independent -eq 0 ]]; then
  # Exactly once: one recorded proof per partition, and the daemons' counts add up.
  total=$((proofs * partitions))
  [[ $(pg_query "SELECT count(*) FROM zkpipe_partitions WHERE state = 2 AND proof IS NOT NULL") -eq $total ]] ||
    fail "not every partition has one recorded proof"
  [[ $(pg_query "SELECT count(*) FROM zkpipe_partitions WHERE proved_by IS NULL") -eq 0 ]] || fail "unattributed partitions"
  [[ $(pg_query "SELECT count(*) FROM zkpipe_jobs WHERE state = 3") -eq $proofs ]] || fail "not every job is done"
  reclaimed=$(pg_query "SELECT count(*) FROM zkpipe_partitions WHERE claims > 1")
  split=$(pg_query "SELECT count(*) FROM (SELECT job_id FROM zkpipe_partitions GROUP BY job_id HAVING count(DISTINCT proved_by) > 1) s")
  if [[ $kill_one -eq 1 ]]; then
    ((reclaimed > 0)) || fail "no partition was re-claimed after the kill"
    # The first re-claim by the database's clock (same host), from the kill.
    first=$(pg_query "SELECT extract(epoch FROM min(claimed_at)) FROM zkpipe_partitions WHERE claims > 1")
    reclaim_seconds=$(python3 -c "import sys; print(f'{float(sys.argv[1]) - float(sys.argv[2]):.2f}')" "$first" "$tk")
    summary=", $reclaimed partitions re-claimed after kill -9 of d2 (first $reclaim_seconds s after the kill; lease ${lease} s, heartbeat ${heartbeat} s)"
  fi
  summary+=", $split proofs assembled from partitions of several daemons"
  [[ $db_restart -eq 1 ]] && summary+=", database restarted mid-run"
  mode="3 daemons on one PostgreSQL queue"
else
  mode="3 independent daemons (SQLite)"
fi
python3 - "$proofs" "$t0" "$t1" "$summary" "$mode" "$partitions" "$preset" << 'PY'
import sys
n, t0, t1, summary, mode, parts, preset = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7]
s = t1 - t0
print(f"cluster: {n}/{n} proofs verified in {s:.1f} s ({60 * n / s:.1f} proofs/min; {mode}, {preset} x {parts} partitions){summary}")
PY
