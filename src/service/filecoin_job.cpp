#include "service/filecoin_job.hpp"

#include "circuits/filecoin/api/c1_circuit.hpp"
#include "circuits/filecoin/api/sector_values.hpp"
#include "ec/serialization.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/bellperson_vk.hpp"
#include "formats/format_error.hpp"
#include "io/file_error.hpp"
#include "io/file_mapping.hpp"

namespace zkpipe::service {

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

}  // namespace zkpipe::service
