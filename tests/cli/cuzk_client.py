#!/usr/bin/env python3
"""Drives zkpipe's cuzk.v1.ProvingEngine as Curio's cuzk client does, with stubs
generated from proto/cuzk/v1/proving.proto (the cuzk API's wire form): a PoRep C2
from the envelope curio sends (base64 of the C1 output), an await that times out, a
cancel that cancels and a retry of the cancelled request that queues anew, refusals,
status, metrics, PreloadSRS and EvictSRS. Writes the
proof for `zkpipe filecoin verify`; exits non-zero naming the first check that failed.

  cuzk_client.py SERVER C1_JSON MINER_ID SECTOR_NUMBER OUT_PROOF
"""
import base64
import json
import sys

import grpc

from cuzk.v1 import proving_pb2 as pb
from cuzk.v1 import proving_pb2_grpc as rpc


def check(condition, what):
    if not condition:
        sys.exit(f"FAIL: {what}")


def porep_request(c1_path, miner, sector, request_id):
    """A 2 KiB sector's PoRep C2 as Curio submits it: the C1 output in curio's envelope."""
    c1 = open(c1_path, "rb").read()
    envelope = json.dumps({"SectorNum": int(sector), "Phase1Out": base64.b64encode(c1).decode(),
                           "SectorSize": 2048}).encode()
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048,
                                 registered_proof=5, vanilla_proof=envelope, sector_number=int(sector),
                                 miner_id=int(miner))


def main():
    server, c1_path, miner, sector, out = sys.argv[1:6]
    stub = rpc.ProvingEngineStub(grpc.insecure_channel(server))

    def porep(request_id, miner_id=int(miner)):
        return porep_request(c1_path, miner_id, sector, request_id)

    # The daemon may have proved other jobs (zkpipe.v1's) before: counted from here.
    completed_before = stub.GetStatus(pb.GetStatusRequest()).total_proofs_completed
    submitted = stub.SubmitProof(porep("sector-a"))
    check(submitted.job_id == "sector-a", f"job id {submitted.job_id!r}")
    timed_out = stub.AwaitProof(pb.AwaitProofRequest(job_id="sector-a", timeout_ms=1))
    check(timed_out.status == pb.AwaitProofResponse.TIMEOUT, f"await of 1 ms: status {timed_out.status}")
    done = stub.AwaitProof(pb.AwaitProofRequest(job_id="sector-a"))
    check(done.status == pb.AwaitProofResponse.COMPLETED, f"status {done.status}: {done.error_message}")
    check(len(done.proof) == 192, f"{len(done.proof)} proof bytes")
    check(done.total_ms > 0, "no total_ms")
    open(out, "wb").write(done.proof)
    print(f"sector-a: COMPLETED, {len(done.proof)} bytes, total {done.total_ms} ms")

    # Prove (submit and await in one call) of the same request, as a client retrying it
    # does: the job proved above answers, nothing is proved twice (the test_service
    # Cuzk tests Prove new jobs).
    proved = stub.Prove(pb.ProveRequest(submit=porep("sector-a")))
    check(proved.result.status == pb.AwaitProofResponse.COMPLETED, f"Prove: {proved.result.error_message}")
    check(proved.result.proof == done.proof, "Prove of the same request: another proof")

    stub.SubmitProof(porep("sector-c"))
    cancelled = stub.CancelProof(pb.CancelProofRequest(job_id="sector-c"))
    check(cancelled.was_running, "cancel of a job in flight: was_running false")
    answer = stub.AwaitProof(pb.AwaitProofRequest(job_id="sector-c"))
    check(answer.status == pb.AwaitProofResponse.CANCELLED, f"cancelled job: status {answer.status}")
    print("sector-c: CANCELLED")
    # Curio's only recovery is the same request again: the cancelled job's id gets a
    # new job, in flight rather than "cancelled" at once (cancelled again here: one
    # proof less to wait for).
    stub.SubmitProof(porep("sector-c"))
    retried = stub.AwaitProof(pb.AwaitProofRequest(job_id="sector-c", timeout_ms=1))
    check(retried.status == pb.AwaitProofResponse.TIMEOUT, f"retry of cancelled sector-c: status {retried.status}")
    check(stub.CancelProof(pb.CancelProofRequest(job_id="sector-c")).was_running, "the retry was not in flight")
    print("sector-c retried: a new job in flight")

    def refused(request, code, text):
        try:
            stub.SubmitProof(request)
        except grpc.RpcError as e:
            check(e.code() == code and text in e.details(), f"{code}, {text!r}: got {e.code()} {e.details()}")
            return
        check(False, f"accepted, expected {code}")

    refused(porep("x", int(miner) + 1), grpc.StatusCode.INVALID_ARGUMENT, "miner_id")
    snap = porep("x")
    snap.proof_kind = pb.SNAP_DEALS_UPDATE
    snap.registered_proof = 0  # StackedDrg2KiBV1, but no commitments
    refused(snap, grpc.StatusCode.INVALID_ARGUMENT, "comm_r_old must be exactly 32 bytes, got 0")
    try:
        stub.AwaitProof(pb.AwaitProofRequest(job_id="x"))
        check(False, "await of an unknown job answered")
    except grpc.RpcError as e:
        check(e.code() == grpc.StatusCode.NOT_FOUND, f"unknown job: {e.code()}")

    status = stub.GetStatus(pb.GetStatusRequest())
    completed = completed_before + 1
    check(status.total_proofs_completed == completed, f"{status.total_proofs_completed} completed, not {completed}")
    check(not status.queues, f"queues left: {status.queues}")
    metrics = stub.GetMetrics(pb.GetMetricsRequest()).prometheus_text
    check(f"\ncuzk_proofs_completed_total {completed}\n" in metrics, "metrics: completed total")

    # The key sector-a was proved with is still resident (idle keys stay 10 minutes).
    preloaded = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"))
    check(preloaded.already_loaded, "preload of the resident key: not already loaded")
    evicted = stub.EvictSRS(pb.EvictSrsRequest(circuit_id="porep-2k"))
    check(evicted.was_loaded and evicted.freed_bytes > 0, f"evict: {evicted}")
    evicted = stub.EvictSRS(pb.EvictSrsRequest(circuit_id="porep-2k"))
    check(not evicted.was_loaded, "second evict freed something")
    print("cuzk client: OK")


if __name__ == "__main__":
    main()
