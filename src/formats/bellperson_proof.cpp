#include "formats/bellperson_proof.hpp"


#include "ec/serialization.hpp"
#include "formats/format_error.hpp"

namespace zkpipe::formats {

namespace {

constexpr std::size_t kProofBytes = groth16::Proof::kEncodedSize;
constexpr std::size_t kCompressedG1Bytes = ec::kCompressedSize<ec::G1Curve>;
constexpr std::size_t kCompressedG2Bytes = ec::kCompressedSize<ec::G2Curve>;

template <class Curve>
ec::Affine<Curve> proof_point(std::span<const std::uint8_t> bytes, std::size_t at, std::size_t partition,
                              const char* what, const std::string& name) {
  auto where = [&] { return "partition " + std::to_string(partition) + ", proof point " + what + ": "; };
  ec::Affine<Curve> p;
  try {
    p = ec::decode<Curve>(bytes.subspan(at, ec::kCompressedSize<Curve>));
  } catch (const ec::PointDecodeError& e) {
    throw FormatError(name, where() + ec::describe(e.error()), {}, at);
  }
  if (p.is_identity()) throw FormatError(name, where() + "the point at infinity (bellperson refuses it)", {}, at);
  return p;
}

}  // namespace

std::vector<std::uint8_t> encode_bellperson_proofs(std::span<const groth16::Proof> partitions) {
  return groth16::encode_proofs(partitions);
}

std::vector<groth16::Proof> decode_bellperson_proofs(std::span<const std::uint8_t> bytes, const std::string& name,
                                                     std::optional<std::size_t> expected_partitions) {
  if (expected_partitions && bytes.size() != *expected_partitions * kProofBytes) {
    throw FormatError(name, "expected " + std::to_string(*expected_partitions) + " partition proofs of " +
                                std::to_string(kProofBytes) + " bytes (" +
                                std::to_string(*expected_partitions * kProofBytes) + " bytes), found " +
                                std::to_string(bytes.size()) + " bytes");
  }
  if (bytes.empty() || bytes.size() % kProofBytes != 0) {
    throw FormatError(name, "expected a whole number of " + std::to_string(kProofBytes) +
                                "-byte partition proofs, found " + std::to_string(bytes.size()) + " bytes");
  }
  std::vector<groth16::Proof> proofs;
  proofs.reserve(bytes.size() / kProofBytes);
  for (std::size_t at = 0; at < bytes.size(); at += kProofBytes) {
    const std::size_t partition = at / kProofBytes;
    groth16::Proof p;
    p.a = proof_point<ec::G1Curve>(bytes, at, partition, "A", name);
    p.b = proof_point<ec::G2Curve>(bytes, at + kCompressedG1Bytes, partition, "B", name);
    p.c = proof_point<ec::G1Curve>(bytes, at + kCompressedG1Bytes + kCompressedG2Bytes, partition, "C", name);
    proofs.push_back(p);
  }
  return proofs;
}

}  // namespace zkpipe::formats
