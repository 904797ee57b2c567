// A PoRep-like preset job (zkpipe.v1.PorepInstance): the preset's circuit for the
// seed, with as many partitions as asked (at most 1024), proved with a zkpipe key of
// that preset's shape.
#pragma once

#include <memory>
#include <string>

#include "r1cs/partitioned_circuit.hpp"
#include "service/jobs/job_kind.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service::jobs {

const JobKind& porep_like_job();

std::shared_ptr<const r1cs::PartitionedCircuit> porep_circuit(const v1::PorepInstance& porep);
// The circuit's name as PorepLikeCircuit::name() gives it, without building the circuit.
std::string porep_circuit_name(const v1::PorepInstance& porep);

}  // namespace zkpipe::service::jobs
