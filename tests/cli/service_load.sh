#!/usr/bin/env bash
# Load on the daemon (bounded: 64 clients, tiny instances, a minute at most on 2
# cores): 56 clients prove at once while 8 submit and cancel, all of it with 600
# WatchBuffers streams parked (submit, cancel and status must still answer); every
# completed proof verifies, the ledger returns to zero once the key is evicted, RSS
# stays bounded; prints p50 / p99 latency.
set -euo pipefail
zkpipe=$1
clients=${ZKPIPE_LOAD_CLIENTS:-64}
cancelled=$((clients / 8))
max_rss_mib=${ZKPIPE_LOAD_MAX_RSS_MIB:-512}
parked=${ZKPIPE_LOAD_PARKED:-600}
dir=$(mktemp -d)
daemon_pid=
source "$(dirname "$0")/service_lib.sh"
parker=
trap 'cleanup_daemon; if [[ -n $parker ]]; then kill "$parker" 2> /dev/null || true; fi; rm -rf "$dir"' EXIT

# The parked streams come from Python's grpc module (python3-grpcio); the first
# python3 on PATH may be another install (pyenv, a venv) than Debian's.
grpc_python=
for candidate in ${ZKPIPE_PYTHON:-python3 /usr/bin/python3}; do
  if "$candidate" -c 'import grpc' 2> /dev/null; then grpc_python=$candidate; break; fi
done
[[ -n $grpc_python ]] || { echo "FAIL: no python3 with the grpc module (python3-grpcio, scripts/install-deps.sh)" >&2; exit 1; }
mkdir -p "$dir/params" "$dir/data" "$dir/out"
"$zkpipe" setup --preset tiny --out "$dir/params/key.zkp" --quiet 2> /dev/null
sock="unix:$dir/zkpipe.sock"
client_args=(--server "$sock")
# Every client of a unix socket is one peer: room for the parked streams and the provers.
echo "max_waits_per_peer = $((parked + clients + 16))" > "$dir/zkpipe.toml"
start_daemon "$dir/serve.log" --config "$dir/zkpipe.toml" --listen "$sock" --data-dir "$dir/data" --param-root "$dir/params"
key="$dir/params/key.zkp"

# $parked WatchBuffers streams (a snapshot a minute), held open over the whole load
# by one process, until $dir/unpark appears; each must end when cancelled.
"$grpc_python" - "$sock" "$parked" "$dir/parked" "$dir/unpark" << 'PY' &
import os, sys, time, grpc
target, count, parked, unpark = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
channel = grpc.insecure_channel(target)
watch = channel.unary_stream("/zkpipe.v1.Prover/WatchBuffers")
# WatchBuffersRequest{interval_ms: 60000}: field 1, varint 60000.
streams = [watch(bytes([0x08, 0xe0, 0xd4, 0x03])) for _ in range(count)]
for s in streams:
    next(s)  # the first snapshot comes at once: the stream is parked
open(parked, "w").close()
while not os.path.exists(unpark):
    time.sleep(0.2)
for s in streams:
    s.cancel()
ended = sum(1 for s in streams if s.code() == grpc.StatusCode.CANCELLED)
if ended != count:
    print(f"{count - ended} parked streams did not end when cancelled", file=sys.stderr)
# os._exit: the interpreter's teardown of grpc's threads is no part of the test (and
# can stall at exit), so it is skipped once the streams are accounted for.
sys.stderr.flush()
os._exit(0 if ended == count else 1)
PY
parker=$!
for _ in $(seq 600); do [[ -e $dir/parked ]] && break; kill -0 "$parker" 2> /dev/null || break; sleep 0.1; done
[[ -e $dir/parked ]] || { echo "FAIL: $parked WatchBuffers streams were not all answered within 60 s" >&2; exit 1; }
# With every stream parked, submit, cancel and status answer (10 s only catches starvation).
id=$(timeout 10 "$zkpipe" client --server "$sock" submit --preset tiny --key "$key" --seed 1000 | tail -1) ||
  { echo "FAIL: submit got no answer with $parked streams parked" >&2; exit 1; }
timeout 10 "$zkpipe" client --server "$sock" cancel "$id" > /dev/null ||
  { echo "FAIL: cancel got no answer with $parked streams parked" >&2; exit 1; }
timeout 10 "$zkpipe" client --server "$sock" status > /dev/null ||
  { echo "FAIL: status got no answer with $parked streams parked" >&2; exit 1; }

t0=$(date +%s.%N)
pids=()
for i in $(seq 1 "$clients"); do
  if ((i <= cancelled)); then
    (
      id=$(timeout 60 "$zkpipe" client --server "$sock" submit --preset tiny --key "$key" --seed "$i" --partitions 2 |
        tail -1)
      sleep 0.$((RANDOM % 5))
      timeout 60 "$zkpipe" client --server "$sock" cancel "$id" > "$dir/out/cancel$i.txt" ||
        { echo "FAIL: client $i's cancel of job $id: no answer within 60 s (status $?)" >&2; exit 1; }
    ) &
    pids+=($!)
  else
    (
      start=$(date +%s.%N)
      timeout 180 "$zkpipe" client --server "$sock" prove --preset tiny --key "$key" --seed "$i" \
        --out "$dir/out/p$i.bin" > "$dir/out/prove$i.txt" ||
        { echo "FAIL: client $i's prove: no proof within 180 s (status $?)" >&2; exit 1; }
      echo "$start $(date +%s.%N)" > "$dir/out/latency$i.txt"
    ) &
    pids+=($!)
  fi
done
# The clients only: a bare `wait` would wait for the daemon too.
# A failing client says why; the daemon's state then tells what it was doing.
for pid in "${pids[@]}"; do
  wait "$pid" || {
    echo "FAIL: a client failed; the daemon's status and log:" >&2
    timeout 10 "$zkpipe" client --server "$sock" status >&2 || true
    tail -n 40 "$dir/serve.log" >&2
    exit 1
  }
done
wall=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$t0" "$(date +%s.%N)")
touch "$dir/unpark"
wait_bounded "$parker" 60 "the parked streams' process" || { echo "FAIL: the parked streams did not end cleanly" >&2; exit 1; }

completed=0
for i in $(seq $((cancelled + 1)) "$clients"); do
  "$zkpipe" verify --preset tiny --key "$key" --seed "$i" --proof "$dir/out/p$i.bin" > /dev/null ||
    { echo "FAIL: client $i's proof does not verify" >&2; exit 1; }
  completed=$((completed + 1))
done
# A cancel ends the job (cancelled) unless it had already finished (done).
for i in $(seq 1 "$cancelled"); do grep -Eq ": (cancelled|done)$" "$dir/out/cancel$i.txt"; done

# Nothing of the jobs is left; evicting the key empties the ledger.
"$zkpipe" client --server "$sock" --json status > "$dir/busy.json"
"$zkpipe" client --server "$sock" evict --key "$key" > /dev/null
# Polled (10 s at most, a hang), not slept on: how soon the last references go is
# no figure of the test's.
for _ in $(seq 100); do
  "$zkpipe" client --server "$sock" --json status > "$dir/idle.json"
  python3 -c 'import json, sys; sys.exit(int(json.load(open(sys.argv[1]))["ledger"]["tracked_bytes"]) != 0)' \
    "$dir/idle.json" && break
  sleep 0.1
done
# The daemon's peak RSS over the whole run (kB).
peak_kb=$(awk '/^VmHWM:/ {print $2}' "/proc/$daemon_pid/status")
python3 - "$dir" "$clients" "$cancelled" "$completed" "$max_rss_mib" "$peak_kb" "$wall" << 'PY'
import glob, json, os, sys
d, clients, cancelled, completed, max_rss_mib, peak_kb, wall = sys.argv[1], *map(int, sys.argv[2:7]), sys.argv[7]
busy = json.load(open(os.path.join(d, "busy.json")))
idle = json.load(open(os.path.join(d, "idle.json")))
fail = []
if sum(int(q["jobs"]) for q in busy["queue"]):
    fail.append("jobs still queued after every client returned")
for s in busy["ledger"]["stages"]:
    if s["stage"] not in ("parameters", "device memory") and int(s["bytes"]):
        fail.append(f"{s['stage']} holds {s['bytes']} bytes after the load")
if int(idle["ledger"]["tracked_bytes"]) != 0:
    fail.append(f"ledger tracks {idle['ledger']['tracked_bytes']} bytes after evicting the key")
peak_rss = peak_kb / 1024
if peak_rss > max_rss_mib:
    fail.append(f"peak RSS {peak_rss:.0f} MiB above {max_rss_mib} MiB")
lat = sorted(float(b) - float(a) for a, b in (open(f).read().split() for f in glob.glob(os.path.join(d, "out/latency*.txt"))))
pick = lambda q: lat[min(len(lat) - 1, max(0, int(-(-q * len(lat) // 1)) - 1))]
print(f"service load: {clients} clients ({cancelled} cancelled), {completed} proofs verified in {wall} s; "
      f"latency p50 {pick(0.5):.2f} s, p99 {pick(0.99):.2f} s; peak RSS {peak_rss:.0f} MiB; "
      f"jobs done {busy['jobs_done']}, cancelled {busy['jobs_cancelled']}, failed {busy['jobs_failed']}")
if int(busy["jobs_failed"]):
    fail.append(f"{busy['jobs_failed']} jobs failed")
for f in fail:
    print("FAIL:", f, file=sys.stderr)
sys.exit(1 if fail else 0)
PY
stop_daemon TERM 0
