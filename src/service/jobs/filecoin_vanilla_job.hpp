// What a Filecoin PoSt job and a SnapDeals update job have in common: the circuit is
// read from vanilla proofs that travel in the request (journaled with it), and proved
// with a zkpipe key or Filecoin's .params named by a field of the request. At submit
// the proofs are read and checked whole and the key is looked at without decoding its
// queries; the circuit read then is what the engine proves. Each of the two kinds
// says how its circuit is read and where its fields are.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "r1cs/partitioned_circuit.hpp"
#include "service/jobs/job_kind.hpp"

namespace zkpipe::service::jobs {

class FilecoinVanillaJob : public JobKind {
 public:
  CheckedJob validate(const v1::SubmitProofRequest& request, std::shared_ptr<const r1cs::PartitionedCircuit> read,
                      const JobContext& context) const override;
  ParameterEntry parameters(const v1::SubmitProofRequest& request, const config::PathPolicy& paths) const override;
  PreparedJob prepare(const v1::SubmitProofRequest& request, const CheckedJob& checked,
                      const JobContext& context) const override;
  bool verifies(const v1::SubmitProofRequest& request, std::span<const groth16::Proof> proofs,
                const std::string& public_json, const JobContext& context) const override;
  // The circuit's shape at the sector size the preset names.
  Preloaded preload(const v1::PreloadParamsRequest& request, const JobContext& context) const override;

 protected:
  // The circuit, every vanilla proof checked. Throws ServiceError invalid_argument
  // naming the field (and the proof).
  virtual std::shared_ptr<const r1cs::PartitionedCircuit> circuit(const v1::SubmitProofRequest& request) const = 0;
  // The name its key is resident under, known without reading the proofs.
  virtual std::string circuit_name(const v1::SubmitProofRequest& request) const = 0;
  virtual const std::string& parameter_file(const v1::SubmitProofRequest& request) const = 0;
  // The request's field naming the parameter file, as errors name it.
  virtual std::string_view parameter_field() const = 0;
};

}  // namespace zkpipe::service::jobs
