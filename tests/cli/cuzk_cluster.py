#!/usr/bin/env python3
"""Curio's recovery in a zkpipe cluster, a step at a time (tests/cli/filecoin.sh kills a
daemon between them): `submit` sends a 2 KiB sector's PoRep C2 under a request id, as
Curio does; `prove` sends the same request again, to another daemon, with Prove (Curio's
only recovery), and expects the same job: answered COMPLETED with a 192-byte proof,
which it writes for `zkpipe filecoin verify`. Stubs from proto/cuzk/v1/proving.proto.

  cuzk_cluster.py submit SERVER C1_JSON MINER_ID SECTOR_NUMBER REQUEST_ID
  cuzk_cluster.py prove SERVER C1_JSON MINER_ID SECTOR_NUMBER REQUEST_ID OUT_PROOF
"""
import sys

import grpc

from cuzk.v1 import proving_pb2 as pb
from cuzk.v1 import proving_pb2_grpc as rpc
from cuzk_client import check, porep_request


def main():
    step, server, c1_path, miner, sector, request_id = sys.argv[1:7]
    stub = rpc.ProvingEngineStub(grpc.insecure_channel(server))
    request = porep_request(c1_path, miner, sector, request_id)
    if step == "submit":
        submitted = stub.SubmitProof(request)
        check(submitted.job_id == request_id, f"job id {submitted.job_id!r}")
        print(f"{request_id}: submitted to {server}")
        return
    check(step == "prove", f"unknown step {step!r}")
    proved = stub.Prove(pb.ProveRequest(submit=request), timeout=600)
    result = proved.result
    check(result.status == pb.AwaitProofResponse.COMPLETED, f"Prove at {server}: {result.status} {result.error_message}")
    check(len(result.proof) == 192, f"{len(result.proof)} proof bytes")
    open(sys.argv[7], "wb").write(result.proof)
    print(f"{request_id}: COMPLETED at {server}, {len(result.proof)} bytes")


if __name__ == "__main__":
    main()
