#include "service/jobs/filecoin_update_job.hpp"

#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "circuits/filecoin/api/update_vanilla.hpp"
#include "circuits/filecoin/api/vanilla_proofs.hpp"
#include "circuits/filecoin/core/sector_shape.hpp"
#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "service/jobs/filecoin_vanilla_job.hpp"
#include "service/jobs/request_fields.hpp"

namespace zkpipe::service::jobs {

namespace {

constexpr const char* kPrefix = "StackedDrg";
constexpr const char* kSuffix = "V1";
// proving/preset_workload.cpp's name of the SHA-256 SnapDeals circuit: a key set up
// with `zkpipe setup --circuit filecoin-snapdeals` is for "filecoin-snapdeals/<size>".
constexpr const char* kCircuit = "filecoin-snapdeals/";

RegisteredUpdate make(std::uint64_t sector_bytes) {
  const std::string size = filecoin::core::sector_size_name(sector_bytes);
  RegisteredUpdate out;
  out.name = std::string(kPrefix) + size + kSuffix;
  out.sector_bytes = sector_bytes;
  out.shape = filecoin::update::update_shape(sector_bytes / 32, filecoin::core::sector_tree_shape(sector_bytes),
                                             filecoin::update::UpdateHash::kSha256);
  out.circuit_name = std::string(kCircuit) + size;
  return out;
}

// update_vanilla.cpp names a partition "vanilla proof k"; the request's field says it.
std::string without_prefix(const std::string& what, std::size_t k) {
  const std::string prefix = "vanilla proof " + std::to_string(k) + ": ";
  return what.starts_with(prefix) ? what.substr(prefix.size()) : what;
}

}  // namespace

RegisteredUpdate registered_update_proof(std::string_view name) {
  for (const filecoin::core::SectorShape& shape : filecoin::core::published_sector_shapes()) {
    if (std::string(kPrefix) + filecoin::core::sector_size_name(shape.sector_bytes) + kSuffix == name) {
      return make(shape.sector_bytes);
    }
  }
  throw invalid_field(kUpdateProofField, "'" + std::string(name.substr(0, 64)) +
                                       "' is no RegisteredUpdateProof (StackedDrg<size>V1; sizes 2KiB, 8MiB, "
                                       "512MiB, 32GiB, 64GiB)");
}

RegisteredUpdate registered_update_proof(std::uint64_t abi_number) {
  // The Go ABI numbers the sizes in the published order.
  const auto sizes = filecoin::core::published_sector_shapes();
  if (abi_number >= sizes.size()) {
    throw invalid_field("registered_proof", std::to_string(abi_number) + " is no RegisteredUpdateProof (0 to 4)");
  }
  return make(sizes[abi_number].sector_bytes);
}

std::uint32_t filecoin_update_partitions(const v1::FilecoinUpdateJob& job) {
  try {
    return static_cast<std::uint32_t>(registered_update_proof(job.registered_proof()).shape.partitions);
  } catch (const std::exception&) {
    return 0;
  }
}

std::shared_ptr<const filecoin::update::EmptySectorUpdateCircuit> filecoin_update_circuit(
    const v1::FilecoinUpdateJob& job) {
  const RegisteredUpdate registered = registered_update_proof(job.registered_proof());
  const filecoin::api::UpdateCommitments comms{le_field_element(job.comm_r_old(), kUpdateCommROldField),
                                               le_field_element(job.comm_r_new(), kUpdateCommRNewField),
                                               le_field_element(job.comm_d_new(), kUpdateCommDNewField)};
  const std::size_t count = static_cast<std::size_t>(job.vanilla_proofs().size());
  if (count == 0) throw invalid_field(kUpdateVanillaField, "none given (one bincode PartitionProof a partition, in order)");
  if (count != registered.shape.partitions) {
    const std::size_t want = registered.shape.partitions;
    throw invalid_field(kUpdateVanillaField, std::to_string(count) + (count == 1 ? " proof" : " proofs") + ", but a " +
                                           registered.name + " update has " + std::to_string(want) +
                                           (want == 1 ? " partition" : " partitions") +
                                           " (one proof a partition, in order)");
  }
  std::vector<filecoin::update::UpdatePartition> partitions;
  partitions.reserve(count);
  for (std::size_t k = 0; k < count; ++k) {
    const std::string field = std::string(kUpdateVanillaField) + "[" + std::to_string(k) + "]";
    const std::string& blob = job.vanilla_proofs(static_cast<int>(k));
    filecoin::api::UpdatePartitionProof vanilla;
    try {
      // A BincodeError names the field itself ("…[k]: offset N: …").
      vanilla = filecoin::api::parse_update_vanilla_proof(
          std::span(reinterpret_cast<const std::uint8_t*>(blob.data()), blob.size()), field);
    } catch (const std::invalid_argument& e) {
      throw ServiceError(ErrorKind::invalid_argument, e.what());
    }
    try {
      partitions.push_back(filecoin::api::update_partition_from_vanilla(registered.shape, vanilla, k, comms,
                                                                        filecoin::api::kDefaultUpdateHIndex));
    } catch (const std::invalid_argument& e) {
      throw invalid_field(field, without_prefix(e.what(), k));
    }
  }
  return std::make_shared<const filecoin::update::EmptySectorUpdateCircuit>(registered.circuit_name, registered.shape,
                                                                            std::move(partitions));
}

namespace {

class FilecoinUpdateJob final : public FilecoinVanillaJob {
 public:
  std::string_view name() const override { return "filecoin_update"; }
  std::vector<std::string_view> preload_circuits() const override { return {"filecoin-snapdeals"}; }
  std::uint32_t partitions(const v1::SubmitProofRequest& request) const override {
    return filecoin_update_partitions(request.filecoin_update());
  }
  bool drop_documents(v1::SubmitProofRequest& request) const override {
    request.mutable_filecoin_update()->clear_vanilla_proofs();
    return true;
  }

 protected:
  std::shared_ptr<const r1cs::PartitionedCircuit> circuit(const v1::SubmitProofRequest& request) const override {
    return filecoin_update_circuit(request.filecoin_update());
  }
  std::string circuit_name(const v1::SubmitProofRequest& request) const override {
    return registered_update_proof(request.filecoin_update().registered_proof()).circuit_name;
  }
  const std::string& parameter_file(const v1::SubmitProofRequest& request) const override {
    return request.filecoin_update().parameter_file();
  }
  std::string_view parameter_field() const override { return kUpdateParamsField; }
};

}  // namespace

const JobKind& filecoin_update_job() {
  static const FilecoinUpdateJob kind;
  return kind;
}

}  // namespace zkpipe::service::jobs
