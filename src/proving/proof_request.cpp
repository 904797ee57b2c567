#include "proving/proof_request.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "formats/snarkjs_witness.hpp"
#include "formats/wtns_file.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"

namespace zkpipe::proving {

groth16::PartitionFootprint partition_footprint(const groth16::ProvingKey& key, bool through_evaluator,
                                                const groth16::ProverBackend& backend) {
  const groth16::CircuitShape shape = groth16::CircuitShape::of(key);
  return through_evaluator ? groth16::PartitionFootprint::of_deferred(shape, backend)
                           : groth16::PartitionFootprint::of(shape, backend);
}

RequestBasis request_basis(std::shared_ptr<const engine::ResidentParameters> parameters,
                           const groth16::ProverBackend& backend, groth16::InsecureKey insecure) {
  RequestBasis basis;
  basis.footprint = partition_footprint(parameters->key(), parameters->evaluator() != nullptr, backend);
  basis.pvk = std::make_shared<const groth16::PreparedVerifyingKey>(parameters->key().vk, insecure);
  basis.parameters = std::move(parameters);
  return basis;
}

PreparedRequest preset_request(const RequestBasis& basis, std::shared_ptr<const r1cs::PartitionedCircuit> circuit) {
  PreparedRequest out;
  engine::ProofRequest& request = out.request;
  request.label = circuit->name();
  request.parameters = basis.parameters;
  request.partitions = circuit->partitions();
  request.footprint = basis.footprint;
  request.footprint.expect_wide_values(circuit->wide_aux_bound(basis.parameters->key().num_aux()));
  request.synthesize = [circuit, evaluator = basis.parameters->evaluator()](std::size_t p) {
    return evaluator ? groth16::synthesize_witness(*circuit, p, evaluator) : groth16::synthesize_witness(*circuit, p);
  };
  // One multi-pairing for all partitions instead of one pairing check each.
  request.verify = [circuit, pvk = basis.pvk](std::span<const groth16::Proof> proofs) {
    std::vector<std::vector<ff::Fr>> inputs;
    inputs.reserve(proofs.size());
    for (std::size_t p = 0; p < proofs.size(); ++p) inputs.push_back(circuit->public_inputs(p));
    return groth16::verify_batch(*pvk, proofs, inputs);
  };
  out.check = [circuit, pvk = basis.pvk](std::size_t p, const groth16::Proof& proof) {
    return groth16::verify(*pvk, proof, circuit->public_inputs(p));
  };
  return out;
}

PreparedRequest circom_request(const RequestBasis& basis, CircomInstance instance) {
  if (instance.witness == nullptr) throw std::invalid_argument("a circom job needs its witness file");
  if (instance.zkey == nullptr && instance.r1cs == nullptr) {
    throw std::invalid_argument(instance.witness->name() +
                                ": a circom job needs the .zkey's coefficient lists or the circuit's .r1cs");
  }
  PreparedRequest out;
  out.public_signals = std::make_shared<std::vector<ff::Fr>>();
  engine::ProofRequest& request = out.request;
  request.label = "circom " + instance.witness->name();
  request.parameters = basis.parameters;
  request.partitions = 1;
  // A circom key has no evaluator: a, b, c are computed in synthesis.
  request.footprint = basis.footprint;
  const auto public_signals = out.public_signals;
  request.synthesize = [instance = std::move(instance), parameters = basis.parameters,
                        public_signals](std::size_t) {
    const std::vector<ff::Fr> assignment = formats::read_wtns(instance.witness);
    groth16::PartitionWitness w;
    if (instance.zkey != nullptr) {
      if (instance.r1cs != nullptr) {
        // The .r1cs's terms index the witness: one of another size is refused first.
        if (assignment.size() != instance.r1cs->header.n_wires) {
          throw std::invalid_argument(instance.witness->name() + " holds " + std::to_string(assignment.size()) +
                                      " values; " + instance.r1cs_name + " has " +
                                      std::to_string(instance.r1cs->header.n_wires) + " wires");
        }
        if (const auto bad = instance.r1cs->first_unsatisfied(assignment)) {
          throw std::runtime_error(instance.witness->name() + " does not satisfy constraint " + std::to_string(*bad) +
                                   " of " + instance.r1cs_name);
        }
      }
      const ZkeyCircuit& zkey = *instance.zkey;
      w = formats::zkey_witness(zkey.header, zkey.a_coefficients, zkey.b_coefficients, parameters->key(), assignment);
    } else {
      w = formats::r1cs_witness(*instance.r1cs, parameters->key(), assignment);
    }
    public_signals->assign(w.assignment.inputs.begin() + 1, w.assignment.inputs.end());
    return w;
  };
  out.check = [pvk = basis.pvk, public_signals](std::size_t p, const groth16::Proof& proof) {
    return p == 0 && groth16::verify(*pvk, proof, *public_signals);
  };
  request.verify = [check = out.check](std::span<const groth16::Proof> proofs) {
    return proofs.size() == 1 && check(0, proofs[0]);
  };
  return out;
}

}  // namespace zkpipe::proving
