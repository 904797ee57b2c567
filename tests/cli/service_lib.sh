# Helpers for the service tests: start a daemon in the background, wait for it,
# stop it. Sourced; expects $zkpipe and $dir.

# start_daemon LOG ARGS... : starts `zkpipe serve ARGS` and waits until it answers.
start_daemon() {
  local log=$1
  shift
  daemon_log=$log
  "$zkpipe" serve "$@" > "$log" 2>&1 &
  daemon_pid=$!
  for _ in $(seq 100); do
    if "$zkpipe" client "${client_args[@]}" status > /dev/null 2>&1; then return 0; fi
    if ! kill -0 "$daemon_pid" 2> /dev/null; then
      echo "FAIL: the daemon exited at start:" >&2; cat "$log" >&2; return 1
    fi
    sleep 0.1
  done
  echo "FAIL: the daemon did not answer within 10 s" >&2; cat "$log" >&2
  return 1
}

# wait_bounded PID SECONDS WHAT : waits for PID to exit (its status returned), or fails
# naming WHAT after SECONDS: a hang must end the test with its place, not at ctest's
# timeout with no word of where.
wait_bounded() {
  local pid=$1 deadline=$((SECONDS + $2))
  while kill -0 "$pid" 2> /dev/null; do
    if ((SECONDS >= deadline)); then echo "FAIL: $3 did not end within $2 s" >&2; return 124; fi
    sleep 0.1
  done
  wait "$pid"
}

# stop_daemon SIGNAL EXPECTED_STATUS : signals the daemon, waits for it (a minute at
# most; the log is printed if it hangs), checks its exit status.
stop_daemon() {
  kill -"$1" "$daemon_pid"
  local rc=0
  wait_bounded "$daemon_pid" 60 "the daemon after SIG$1" || rc=$?
  if [[ $rc -eq 124 ]] && kill -0 "$daemon_pid" 2> /dev/null; then
    [[ -n ${daemon_log:-} ]] && tail -n 40 "$daemon_log" >&2
    return 1
  fi
  daemon_pid=
  if [[ $rc -ne $2 ]]; then echo "FAIL: the daemon exited $rc after SIG$1, expected $2" >&2; return 1; fi
}

# wait_for_progress ID : waits until job ID has a partition proved (a minute at
# most: each await below asks the daemon for up to a second). A test that acts on a
# job mid-run waits for this rather than for a fixed time, which a loaded machine
# may spend loading the key.
wait_for_progress() {
  local progress
  for _ in $(seq 60); do
    progress=$("$zkpipe" client "${client_args[@]}" await "$1" --timeout 0.1 2>&1 > /dev/null || true)
    if grep -Eq "^job $1: (running, [1-9][0-9]*/|done)" <<< "$progress"; then return 0; fi
  done
  echo "FAIL: job $1 had no partition proved within a minute: $progress" >&2
  return 1
}

cleanup_daemon() {
  if [[ -n ${daemon_pid:-} ]]; then kill -9 "$daemon_pid" 2> /dev/null || true; wait "$daemon_pid" 2> /dev/null || true; fi
}
