#include "service/jobs/filecoin_post_job.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "circuits/filecoin/api/post_vanilla.hpp"
#include "circuits/filecoin/api/vanilla_proofs.hpp"
#include "circuits/filecoin/core/sector_shape.hpp"
#include "service/jobs/filecoin_vanilla_job.hpp"
#include "service/jobs/request_fields.hpp"

namespace zkpipe::service::jobs {

namespace {

using filecoin::core::ApiVersion;
using filecoin::post::PostKind;

struct Version {
  PostKind kind;
  const char* prefix;
  const char* suffix;
  ApiVersion api;
};
constexpr std::array<Version, 4> kVersions{{{PostKind::kWinning, "StackedDrgWinning", "V1", ApiVersion::k1_0_0},
                                            {PostKind::kWindow, "StackedDrgWindow", "V1", ApiVersion::k1_0_0},
                                            {PostKind::kWindow, "StackedDrgWindow", "V1_1", ApiVersion::k1_1_0},
                                            {PostKind::kWindow, "StackedDrgWindow", "V1_2", ApiVersion::k1_2_0}}};

RegisteredPost make(const Version& v, std::uint64_t sector_bytes) {
  return {std::string(v.prefix) + filecoin::core::sector_size_name(sector_bytes) + v.suffix,
          filecoin::post::post_proof(v.kind, sector_bytes), v.api};
}

}  // namespace

RegisteredPost registered_post_proof(std::string_view name) {
  for (const Version& v : kVersions) {
    for (const filecoin::core::SectorShape& shape : filecoin::core::published_sector_shapes()) {
      RegisteredPost registered = make(v, shape.sector_bytes);
      if (registered.name == name) return registered;
    }
  }
  throw invalid_field(kPostProofField, "'" + std::string(name.substr(0, 64)) +
                                     "' is no RegisteredPoStProof (StackedDrgWinning<size>V1, "
                                     "StackedDrgWindow<size>V1, V1_1 or V1_2; sizes 2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
}

RegisteredPost registered_post_proof(std::uint64_t abi_number) {
  if (abi_number >= 15) {
    throw invalid_field("registered_proof", std::to_string(abi_number) + " is no RegisteredPoStProof (0 to 14)");
  }
  // The Go ABI numbers each kind's sizes in the published order.
  const std::uint64_t sector_bytes = filecoin::core::published_sector_shapes()[abi_number % 5].sector_bytes;
  const Version& v = abi_number < 5 ? kVersions[0] : abi_number < 10 ? kVersions[1] : kVersions[3];
  return make(v, sector_bytes);
}

std::shared_ptr<const filecoin::post::FallbackPostCircuit> filecoin_post_circuit(const v1::FilecoinPostJob& job) {
  const RegisteredPost registered = registered_post_proof(job.registered_proof());
  le_field_element(job.randomness(), kPostRandomnessField);
  filecoin::post::PostRandomness randomness{};
  std::copy(job.randomness().begin(), job.randomness().end(), randomness.begin());
  if (job.vanilla_proofs().empty()) throw invalid_field(kPostVanillaField, "none given");
  const std::size_t most = registered.proof.kind == PostKind::kWinning ? 1 : registered.proof.sector_count;
  if (static_cast<std::size_t>(job.vanilla_proofs().size()) > most) {
    throw invalid_field(kPostVanillaField, std::to_string(job.vanilla_proofs().size()) + " proofs, but a " +
                                         registered.name + " partition has at most " + std::to_string(most));
  }
  try {
    std::vector<filecoin::api::FallbackPostSectorProof> vanilla;
    vanilla.reserve(job.vanilla_proofs().size());
    for (int i = 0; i < job.vanilla_proofs().size(); ++i) {
      const std::string& blob = job.vanilla_proofs(i);
      vanilla.push_back(filecoin::api::parse_post_vanilla_proof(
          std::span(reinterpret_cast<const std::uint8_t*>(blob.data()), blob.size()),
          std::string(kPostVanillaField) + "[" + std::to_string(i) + "]"));
    }
    filecoin::post::PostPartition partition = filecoin::api::post_partition_from_vanilla(registered.proof, vanilla);
    filecoin::api::check_post_challenges(registered.proof, vanilla, randomness, registered.api, job.partition_index());
    std::vector<filecoin::post::PostPartition> partitions;
    partitions.push_back(std::move(partition));
    return std::make_shared<const filecoin::post::FallbackPostCircuit>(
        registered.proof.name(), registered.proof.tree_shape(), std::move(partitions));
  } catch (const std::invalid_argument& e) {
    throw invalid_field(kPostVanillaField, e.what());
  }
}

namespace {

class FilecoinPostJob final : public FilecoinVanillaJob {
 public:
  std::string_view name() const override { return "filecoin_post"; }
  std::vector<std::string_view> preload_circuits() const override {
    return {"filecoin-window-post", "filecoin-winning-post"};
  }
  std::uint32_t partitions(const v1::SubmitProofRequest&) const override { return 1; }
  bool drop_documents(v1::SubmitProofRequest& request) const override {
    request.mutable_filecoin_post()->clear_vanilla_proofs();
    return true;
  }

 protected:
  std::shared_ptr<const r1cs::PartitionedCircuit> circuit(const v1::SubmitProofRequest& request) const override {
    return filecoin_post_circuit(request.filecoin_post());
  }
  std::string circuit_name(const v1::SubmitProofRequest& request) const override {
    return registered_post_proof(request.filecoin_post().registered_proof()).proof.name();
  }
  const std::string& parameter_file(const v1::SubmitProofRequest& request) const override {
    return request.filecoin_post().parameter_file();
  }
  std::string_view parameter_field() const override { return kPostParamsField; }
};

}  // namespace

const JobKind& filecoin_post_job() {
  static const FilecoinPostJob kind;
  return kind;
}

}  // namespace zkpipe::service::jobs
