// A circom job (zkpipe.v1.CircomJob): one partition, its witness from a .wtns file
// and its key and coefficient lists from a .zkey, both confined to the parameter
// roots; the answer carries proof.json and public.json as snarkjs writes them.
#pragma once

#include "service/jobs/job_kind.hpp"

namespace zkpipe::service::jobs {

const JobKind& circom_job();

}  // namespace zkpipe::service::jobs
