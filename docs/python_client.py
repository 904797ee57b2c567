#!/usr/bin/env python3
"""A small zkpipe.v1 client: submits a PoRep-like proof to a running `zkpipe serve`,
awaits it, writes the proof and prints the job's and the daemon's status.

It needs Python stubs generated from proto/zkpipe/v1/zkpipe.proto (it generates none
itself), e.g. with Debian 12's python3-grpcio and python3-grpc-tools:

    mkdir -p /tmp/stubs
    python3 -m grpc_tools.protoc -I proto --python_out=/tmp/stubs --grpc_python_out=/tmp/stubs \
        proto/zkpipe/v1/zkpipe.proto
    PYTHONPATH=/tmp/stubs python3 docs/python_client.py --server unix:/tmp/zkpipe.sock \
        --key /srv/params/tiny.zkp --preset tiny --seed 7 --partitions 3 --out proof.bin

Exit status: 0 when the job is done; 1 when it failed, was cancelled, did not finish
within --deadline-seconds, or a call was refused (the gRPC status is printed); 2 on bad
arguments or an unreadable token file.
"""
import argparse
import sys
import time

import grpc

from zkpipe.v1 import zkpipe_pb2, zkpipe_pb2_grpc

# The daemon answers AwaitProof after at most this long; the loop asks again until
# the job ends, printing progress in between.
AWAIT_SLICE_MS = 10_000
TERMINAL_STATES = (zkpipe_pb2.JOB_STATE_DONE, zkpipe_pb2.JOB_STATE_FAILED, zkpipe_pb2.JOB_STATE_CANCELLED)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="unix:/tmp/zkpipe.sock",
                        help="daemon address: unix:PATH or HOST:PORT (default %(default)s)")
    parser.add_argument("--token-file", help="send the bearer token in this file (as `zkpipe client` does)")
    parser.add_argument("--key", required=True,
                        help="parameter file from `zkpipe setup`, under one of the daemon's --param-root")
    parser.add_argument("--preset", default="tiny", help="PoRep-like preset (default %(default)s)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--partitions", type=int, default=1)
    parser.add_argument("--out", help="write the proof here (the file `zkpipe prove` writes)")
    parser.add_argument("--deadline-seconds", type=float, default=600,
                        help="give up waiting after this long (default %(default)s)")
    return parser.parse_args()


def read_token(path):
    # The daemon takes the file's first line, without surrounding blanks.
    try:
        with open(path, encoding="utf-8") as f:
            token = f.readline().strip(" \t\r\n")
    except OSError as e:
        usage_error(f"token file {path} cannot be read: {e.strerror}")
    if not token:
        usage_error(f"token file {path} is empty")
    return token


def usage_error(message):
    print(f"python_client: {message}", file=sys.stderr)
    sys.exit(2)


def state_name(state):
    return zkpipe_pb2.JobState.Name(state).removeprefix("JOB_STATE_")


def await_job(stub, job_id, metadata, deadline_seconds):
    give_up = time.monotonic() + deadline_seconds
    while True:
        # The call's own timeout leaves the daemon room to answer after its wait.
        reply = stub.AwaitProof(zkpipe_pb2.AwaitProofRequest(job_id=job_id, wait_ms=AWAIT_SLICE_MS),
                                metadata=metadata, timeout=AWAIT_SLICE_MS / 1000 + 30)
        if reply.state in TERMINAL_STATES:
            return reply
        print(f"job {job_id}: {state_name(reply.state)}, "
              f"{reply.partitions_done}/{reply.partitions} partitions", file=sys.stderr)
        if time.monotonic() > give_up:
            sys.exit(f"job {job_id} did not finish within {deadline_seconds} s")


def print_status(status):
    print(f"daemon: {status.jobs_done} jobs done, {status.jobs_failed} failed, "
          f"{status.jobs_cancelled} cancelled, up {status.uptime_seconds:.1f} s")
    for device in status.devices:
        # `ordinal` is set only for a device that drives a GPU (a oneof, so it has presence).
        gpu = f" on GPU {device.ordinal}" if device.HasField("ordinal") else ""
        print(f"device {device.index}: {device.backend}{gpu}, {device.partitions_proved} partitions proved")


def main():
    args = parse_args()
    metadata = [("authorization", "Bearer " + read_token(args.token_file))] if args.token_file else []
    with grpc.insecure_channel(args.server) as channel:
        stub = zkpipe_pb2_grpc.ProverStub(channel)
        try:
            request = zkpipe_pb2.SubmitProofRequest(
                porep=zkpipe_pb2.PorepInstance(circuit="porep-like", preset=args.preset, seed=args.seed,
                                               partitions=args.partitions, parameter_file=args.key),
                priority=zkpipe_pb2.PRIORITY_NORMAL,
                label="docs/python_client.py")
            job_id = stub.SubmitProof(request, metadata=metadata, timeout=30).job_id
            print(f"job {job_id}: submitted")
            reply = await_job(stub, job_id, metadata, args.deadline_seconds)
            status = stub.GetStatus(zkpipe_pb2.GetStatusRequest(), metadata=metadata, timeout=30)
        except grpc.RpcError as e:
            print(f"python_client: {e.code().name}: {e.details()}", file=sys.stderr)
            return 1

    state = state_name(reply.state)
    if reply.state != zkpipe_pb2.JOB_STATE_DONE:
        print(f"job {job_id}: {state}: {reply.error}")
        return 1
    print(f"job {job_id}: {state}, {reply.partitions} partitions, {len(reply.proof)} proof bytes, "
          f"{reply.timings.total:.2f} s")
    if args.out:
        with open(args.out, "wb") as f:
            f.write(reply.proof)
    print_status(status)
    return 0


if __name__ == "__main__":
    sys.exit(main())
