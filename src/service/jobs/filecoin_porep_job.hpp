// A Filecoin PoRep job (zkpipe.v1.FilecoinPorepJob) as the daemon handles it: the
// C1 output and sector.json travel in the request, so the journal (and the cluster's
// queue) keeps them with the job and a restart finds them there; the seal proof's
// .params file is named by path, confined to the parameter roots like every key.
//
// At submit the two documents are read and checked together (everything a C1 output
// can be wrong about, before anything is queued), and the .params file is looked at
// without decoding its queries: its counts must match its size (a truncated
// download), and its verifying key, read from its head, must be one for the seal
// proof's public inputs (a key of another seal proof). The queries' sizes are checked
// against the circuit when the key is loaded, before any point is decoded. Errors
// name the request's field. The circuit read then (or by the cuzk front end, from
// the C1 envelope it was sent) is what the engine proves: the C1 output is parsed
// once, unless the job is read back from the journal after a restart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "circuits/filecoin/core/seal_proof.hpp"
#include "io/read_only_file.hpp"
#include "proving/filecoin_porep.hpp"
#include "service/jobs/job_kind.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service::jobs {

const JobKind& filecoin_porep_job();

// The request's fields, as the errors name them.
inline constexpr std::string_view kC1Field = "filecoin_porep.c1_json";
inline constexpr std::string_view kSectorField = "filecoin_porep.sector_json";
inline constexpr std::string_view kFilecoinParamsField = "filecoin_porep.parameter_file";
// PreloadParams' circuit for a seal proof's .params (its preset: the registered proof).
inline constexpr const char* kFilecoinPorepCircuit = "filecoin-porep";

// The seal proof sector_json registers. Throws filecoin::api::C1OutputError naming the field.
const filecoin::core::SealProof& filecoin_seal_proof(const v1::FilecoinPorepJob& job);
// Its partition count; 0 for a job whose sector_json cannot be read (refused at
// submit, so only a damaged journal holds one; it fails when it starts).
std::uint32_t filecoin_partitions(const v1::FilecoinPorepJob& job);

// Both documents read and checked together. Throws filecoin::api::C1OutputError naming
// the field and the JSON path.
proving::FilecoinPorepInstance filecoin_instance(const v1::FilecoinPorepJob& job);

// The name the seal proof's key is resident under: its circuit shape's, which every
// sector of the proof's size shares.
std::string filecoin_circuit_name(const filecoin::core::SealProof& proof);

// Checks the opened .params file's counts against its size, and that its verifying
// key is one for a circuit of `public_inputs` inputs (ONE not counted). Throws
// formats::FormatError naming the file (and the offset): counts that do not match the
// size, an IC count other than public_inputs + 1, a verifying-key point that does not
// decode, a key that lets proofs be forged.
void check_filecoin_key_file(const std::shared_ptr<const io::ReadOnlyFile>& params, std::size_t public_inputs);

}  // namespace zkpipe::service::jobs
