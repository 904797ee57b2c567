#include "service/jobs/circom_job.hpp"

#include "formats/snarkjs_json.hpp"
#include "groth16/verifier.hpp"
#include "proving/proof_request.hpp"
#include "service/errors.hpp"

namespace zkpipe::service::jobs {

namespace {

class CircomJob final : public JobKind {
 public:
  std::string_view name() const override { return "circom"; }

  std::uint32_t partitions(const v1::SubmitProofRequest&) const override { return 1; }

  CheckedJob validate(const v1::SubmitProofRequest& request, std::shared_ptr<const r1cs::PartitionedCircuit>,
                      const JobContext& context) const override {
    const v1::CircomJob& c = request.circom();
    if (c.zkey().empty()) throw ServiceError(ErrorKind::invalid_argument, "circom job without a zkey");
    if (c.witness().empty()) throw ServiceError(ErrorKind::invalid_argument, "circom job without a witness (.wtns)");
    return {context.paths.open(c.zkey())->identity(), context.paths.open(c.witness(), "witness file")->identity(), {}};
  }

  ParameterEntry parameters(const v1::SubmitProofRequest& request, const config::PathPolicy& paths) const override {
    return {paths.confine(request.circom().zkey()), residency::kCircomCircuit};
  }

  PreparedJob prepare(const v1::SubmitProofRequest& request, const CheckedJob& checked,
                      const JobContext& context) const override {
    const v1::CircomJob& circom = request.circom();
    const auto zkey_file = context.paths.reopen(circom.zkey(), checked.key);
    // Open from now until synthesis reads it: what is read is the file checked.
    const auto witness_file = context.paths.reopen(circom.witness(), checked.witness, "witness file");
    PreparedJob out{context.residency.acquire_zkey(zkey_file), {}};
    out.request =
        proving::circom_request(proving::request_basis(out.lease.parameters(), context.sizing),
                                {.witness = witness_file, .zkey = out.lease.zkey(), .r1cs = nullptr, .r1cs_name = {}});
    return out;
  }

  bool verifies(const v1::SubmitProofRequest& request, std::span<const groth16::Proof> proofs,
                const std::string& public_json, const JobContext& context) const override {
    const residency::ParameterResidency::Lease lease = context.residency.acquire_zkey(context.paths.open(request.circom().zkey()));
    const auto inputs = formats::public_from_json(public_json, "the recorded public.json");
    return proofs.size() == 1 &&
           groth16::verify(groth16::PreparedVerifyingKey(lease.parameters()->key().vk), proofs.front(), inputs);
  }

  bool answers_json() const override { return true; }

  std::vector<std::string_view> preload_circuits() const override { return {residency::kCircomCircuit}; }

  Preloaded preload(const v1::PreloadParamsRequest& request, const JobContext& context) const override {
    if (!request.preset().empty()) {
      throw ServiceError(ErrorKind::invalid_argument, "a circom .zkey has no preset: the key is the circuit");
    }
    const auto opened = context.paths.open(request.parameter_file());
    return {context.residency.acquire_zkey(opened), {opened->name(), residency::kCircomCircuit}};
  }
};

}  // namespace

const JobKind& circom_job() {
  static const CircomJob kind;
  return kind;
}

}  // namespace zkpipe::service::jobs
