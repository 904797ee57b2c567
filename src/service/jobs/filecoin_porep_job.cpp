#include "service/jobs/filecoin_porep_job.hpp"

#include <filesystem>
#include <system_error>

#include "circuits/filecoin/api/c1_circuit.hpp"
#include "circuits/filecoin/api/sector_values.hpp"
#include "ec/serialization.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/bellperson_vk.hpp"
#include "formats/excerpt.hpp"
#include "formats/format_error.hpp"
#include "groth16/verifier.hpp"
#include "io/file_error.hpp"
#include "io/file_mapping.hpp"
#include "service/errors.hpp"

namespace zkpipe::service::jobs {

namespace {

// bellperson_vk.hpp's layout: α₁ β₁ β₂ γ₂ δ₁ δ₂, the IC count, then IC.
constexpr std::size_t kG1 = ec::kUncompressedSize<ec::G1Curve>;
constexpr std::size_t kG2 = ec::kUncompressedSize<ec::G2Curve>;
constexpr std::size_t kIcAt = 3 * kG1 + 3 * kG2 + 4;

}  // namespace

const filecoin::core::SealProof& filecoin_seal_proof(const v1::FilecoinPorepJob& job) {
  return *filecoin::api::parse_sector_values(job.sector_json(), kSectorField).registered_proof;
}

std::uint32_t filecoin_partitions(const v1::FilecoinPorepJob& job) {
  try {
    return static_cast<std::uint32_t>(filecoin_seal_proof(job).partitions());
  } catch (const std::exception&) {
    // Asked while answering and journaling, which must not throw.
    return 0;
  }
}

proving::FilecoinPorepInstance filecoin_instance(const v1::FilecoinPorepJob& job) {
  return proving::filecoin_porep_instance(job.c1_json(), kC1Field, job.sector_json(), kSectorField);
}

std::string filecoin_circuit_name(const filecoin::core::SealProof& proof) {
  return filecoin::api::stacked_circuit_shape(proof).name();
}

void check_filecoin_key_file(const std::shared_ptr<const io::ReadOnlyFile>& params, std::size_t public_inputs) {
  std::shared_ptr<const io::FileMapping> mapping;
  try {
    mapping = io::FileMapping::map(params);
  } catch (const io::FileError& e) {
    throw formats::FormatError(params->name(), e.reason());
  }
  // The counts alone (a few words read where the file's size puts them): no point is
  // decoded but the verifying key's.
  const formats::BellpersonParamsCounts counts = formats::read_bellperson_params_counts(mapping);
  if (counts.ic != public_inputs + 1) {
    throw formats::FormatError(params->name(), "the verifying key has " + std::to_string(counts.ic) +
                                                   " IC points; the seal proof's circuit has " +
                                                   std::to_string(public_inputs) + " public inputs (" +
                                                   std::to_string(public_inputs + 1) +
                                                   " IC points): parameters of another circuit");
  }
  formats::decode_bellperson_vk(mapping->bytes().first(kIcAt + counts.ic * kG1), params->name());
  mapping->expect_undamaged();
}

namespace {

ServiceError invalid(const std::string& why) { return {ErrorKind::invalid_argument, why}; }

// The key file, a missing one under a root NOT_FOUND (outside the roots confine() has
// answered PERMISSION_DENIED before looking).
std::shared_ptr<const io::ReadOnlyFile> open_params(const v1::FilecoinPorepJob& job, const config::PathPolicy& paths) {
  try {
    return paths.open(job.parameter_file(), kFilecoinParamsField);
  } catch (const ServiceError& e) {
    std::error_code ec;
    const std::filesystem::path path = std::filesystem::path(job.parameter_file()).lexically_normal();
    if (e.kind() == ErrorKind::invalid_argument && path.is_absolute() &&
        std::filesystem::symlink_status(path, ec).type() == std::filesystem::file_type::not_found) {
      throw ServiceError(ErrorKind::not_found, e.what());
    }
    throw;
  }
}

class FilecoinPorepJob final : public JobKind {
 public:
  std::string_view name() const override { return "filecoin_porep"; }

  std::uint32_t partitions(const v1::SubmitProofRequest& request) const override {
    return filecoin_partitions(request.filecoin_porep());
  }

  CheckedJob validate(const v1::SubmitProofRequest& request, std::shared_ptr<const r1cs::PartitionedCircuit> read,
                      const JobContext& context) const override {
    const v1::FilecoinPorepJob& job = request.filecoin_porep();
    if (job.c1_json().empty()) {
      throw invalid(std::string(kC1Field) + " is empty: give the commit-phase-1 output (c1.json)");
    }
    if (job.sector_json().empty()) {
      throw invalid(std::string(kSectorField) + " is empty: give the sector's values (sector.json)");
    }
    const auto key = open_params(job, context.paths);
    // Everything the documents can be wrong about, now: the job then fails only for
    // what changes after (its parameter file).
    if (!read) {
      try {
        read = filecoin_instance(job).circuit;
      } catch (const filecoin::api::C1OutputError& e) {
        throw invalid(formats::excerpt(e.what(), 2000));
      } catch (const std::invalid_argument& e) {
        throw invalid(formats::excerpt(e.what(), 2000));
      }
    }
    try {
      check_filecoin_key_file(key, read->public_inputs(0).size());
    } catch (const formats::FormatError& e) {
      throw invalid(std::string(kFilecoinParamsField) + ": " + formats::excerpt(e.what(), 1000));
    }
    return {key->identity(), {}, std::move(read)};
  }

  ParameterEntry parameters(const v1::SubmitProofRequest& request, const config::PathPolicy& paths) const override {
    const v1::FilecoinPorepJob& job = request.filecoin_porep();
    return {paths.confine(job.parameter_file(), kFilecoinParamsField), filecoin_circuit_name(filecoin_seal_proof(job))};
  }

  PreparedJob prepare(const v1::SubmitProofRequest& request, const CheckedJob& checked,
                      const JobContext& context) const override {
    const v1::FilecoinPorepJob& job = request.filecoin_porep();
    // A job read back from a queue holds only the documents' bytes: read them again.
    std::shared_ptr<const r1cs::PartitionedCircuit> circuit =
        checked.circuit ? checked.circuit : filecoin_instance(job).circuit;
    const auto key_file = context.paths.reopen(job.parameter_file(), checked.key, kFilecoinParamsField);
    return circuit_job(context.residency.acquire_filecoin(key_file, filecoin_seal_proof(job)), std::move(circuit),
                       context.sizing);
  }

  bool verifies(const v1::SubmitProofRequest& request, std::span<const groth16::Proof> proofs, const std::string&,
                const JobContext& context) const override {
    const v1::FilecoinPorepJob& job = request.filecoin_porep();
    const filecoin::api::SectorValues sector = filecoin::api::parse_sector_values(job.sector_json(), kSectorField);
    const residency::ParameterResidency::Lease lease = context.residency.acquire_filecoin(
        context.paths.open(job.parameter_file(), kFilecoinParamsField), *sector.registered_proof);
    const groth16::PreparedVerifyingKey pvk(lease.parameters()->key().vk);
    // As verify_seal checks a seal proof: the inputs from the sector's values alone.
    const auto inputs = proving::filecoin_porep_public_inputs(sector);
    if (proofs.size() != inputs.size()) return false;
    for (std::size_t p = 0; p < proofs.size(); ++p) {
      if (!groth16::verify(pvk, proofs[p], inputs[p])) return false;
    }
    return true;
  }

  bool drop_documents(v1::SubmitProofRequest& request) const override {
    request.mutable_filecoin_porep()->clear_c1_json();
    return true;
  }

  std::vector<std::string_view> preload_circuits() const override { return {kFilecoinPorepCircuit}; }

  Preloaded preload(const v1::PreloadParamsRequest& request, const JobContext& context) const override {
    if (request.preset().empty()) {
      throw invalid("preset is required: the registered seal proof the parameters are for (e.g. StackedDrg32GiBV1_1)");
    }
    const filecoin::core::SealProof* seal = nullptr;
    try {
      seal = &filecoin::core::seal_proof(request.preset());
    } catch (const std::invalid_argument& e) {
      throw invalid(formats::excerpt(e.what(), 300));
    }
    const auto opened = context.paths.open(request.parameter_file());
    return {context.residency.acquire_filecoin(opened, *seal), {opened->name(), filecoin_circuit_name(*seal)}};
  }
};

}  // namespace

const JobKind& filecoin_porep_job() {
  static const FilecoinPorepJob kind;
  return kind;
}

}  // namespace zkpipe::service::jobs
