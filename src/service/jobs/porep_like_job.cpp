#include "service/jobs/porep_like_job.hpp"

#include <stdexcept>

#include "circuits/porep_like/porep_circuit.hpp"
#include "formats/excerpt.hpp"
#include "service/errors.hpp"

namespace zkpipe::service::jobs {

namespace {

constexpr std::size_t kMaxPartitions = 1024;

ServiceError invalid(const std::string& why) { return {ErrorKind::invalid_argument, why}; }

class PorepLikeJob final : public JobKind {
 public:
  std::string_view name() const override { return "porep"; }

  std::uint32_t partitions(const v1::SubmitProofRequest& request) const override {
    return request.porep().partitions();
  }

  CheckedJob validate(const v1::SubmitProofRequest& request, std::shared_ptr<const r1cs::PartitionedCircuit>,
                      const JobContext& context) const override {
    const v1::PorepInstance& p = request.porep();
    if (!p.circuit().empty() && p.circuit() != "porep-like") {
      throw invalid("unknown circuit '" + formats::excerpt(p.circuit(), 64) + "' (known: porep-like)");
    }
    try {
      porep_like::find_preset(p.preset());
    } catch (const std::invalid_argument& e) {
      throw invalid(formats::excerpt(e.what(), 300));
    }
    if (p.partitions() < 1 || p.partitions() > kMaxPartitions) {
      throw invalid("partitions must be between 1 and " + std::to_string(kMaxPartitions) + ", not " +
                    std::to_string(p.partitions()));
    }
    const auto opened = context.paths.open(p.parameter_file());
    try {
      // Refused now when the key was read before (cheap: counts cached); otherwise
      // the load checks it before compiling the evaluator.
      context.residency.check_shape(opened->name(), [&] {
        v1::PorepInstance one = p;
        one.set_partitions(1);
        return porep_circuit(one);
      });
    } catch (const residency::ShapeMismatch& e) {
      throw invalid(formats::excerpt(e.what(), 1000));
    }
    return {opened->identity(), {}, {}};
  }

  ParameterEntry parameters(const v1::SubmitProofRequest& request, const config::PathPolicy& paths) const override {
    return {paths.confine(request.porep().parameter_file()), porep_circuit_name(request.porep())};
  }

  PreparedJob prepare(const v1::SubmitProofRequest& request, const CheckedJob& checked,
                      const JobContext& context) const override {
    const auto circuit = porep_circuit(request.porep());
    const auto key_file = context.paths.reopen(request.porep().parameter_file(), checked.key);
    return circuit_job(context.residency.acquire(key_file, *circuit), circuit, context.sizing);
  }

  bool verifies(const v1::SubmitProofRequest& request, std::span<const groth16::Proof> proofs, const std::string&,
                const JobContext& context) const override {
    const auto circuit = porep_circuit(request.porep());
    const residency::ParameterResidency::Lease lease =
        context.residency.acquire(context.paths.open(request.porep().parameter_file()), *circuit);
    return every_partition_verifies(lease.parameters()->key(), proofs, *circuit);
  }

  std::vector<std::string_view> preload_circuits() const override { return {"porep-like"}; }

  Preloaded preload(const v1::PreloadParamsRequest& request, const JobContext& context) const override {
    if (request.preset().empty()) throw invalid("preset is required: the circuit the parameters were set up for");
    v1::PorepInstance one;
    one.set_preset(request.preset());
    one.set_partitions(1);
    std::shared_ptr<const r1cs::PartitionedCircuit> circuit;
    try {
      circuit = porep_circuit(one);
    } catch (const std::invalid_argument& e) {
      throw invalid(formats::excerpt(e.what(), 300));
    }
    const auto opened = context.paths.open(request.parameter_file());
    return {context.residency.acquire(opened, *circuit), {opened->name(), circuit->name()}};
  }
};

}  // namespace

const JobKind& porep_like_job() {
  static const PorepLikeJob kind;
  return kind;
}

std::shared_ptr<const r1cs::PartitionedCircuit> porep_circuit(const v1::PorepInstance& porep) {
  return std::make_shared<porep_like::PorepLikeCircuit>(porep_like::find_preset(porep.preset()), porep.seed(),
                                                         porep.partitions());
}

std::string porep_circuit_name(const v1::PorepInstance& porep) {
  return "porep-like/" + porep_like::find_preset(porep.preset()).name;
}

}  // namespace zkpipe::service::jobs
