#include "formats/bellperson_vk.hpp"

#include "ec/serialization.hpp"
#include "formats/format_error.hpp"
#include "groth16/key_validation.hpp"

namespace zkpipe::formats {

namespace {

constexpr std::size_t kG1Bytes = ec::kUncompressedSize<ec::G1Curve>;
constexpr std::size_t kG2Bytes = ec::kUncompressedSize<ec::G2Curve>;
constexpr std::size_t kFixedBytes = 3 * kG1Bytes + 3 * kG2Bytes + 4;

template <class Curve>
void append(std::vector<std::uint8_t>& out, const ec::Affine<Curve>& p) {
  const auto e = ec::encode_uncompressed(p);
  out.insert(out.end(), e.begin(), e.end());
}

class Decoder {
 public:
  Decoder(std::span<const std::uint8_t> bytes, const std::string& name) : bytes_(bytes), name_(name) {}

  template <class Curve>
  ec::Affine<Curve> point(const char* what) {
    constexpr std::size_t size = ec::kUncompressedSize<Curve>;
    const std::size_t at = pos_;
    pos_ += size;
    try {
      return ec::decode<Curve>(bytes_.subspan(at, size));
    } catch (const ec::PointDecodeError& e) {
      throw FormatError(name_, std::string(what) + ": " + e.what(), {}, at);
    }
  }

  // A point the key needs finite: β·G1 and δ·G1 (unused by verification, used by
  // the prover) at infinity are as degenerate as the other points' would be.
  template <class Curve>
  ec::Affine<Curve> finite_point(const char* what) {
    const std::size_t at = pos_;
    const ec::Affine<Curve> p = point<Curve>(what);
    if (p.is_identity()) throw FormatError(name_, std::string(what) + ": the point at infinity", {}, at);
    return p;
  }

  std::uint32_t u32_be() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | bytes_[pos_++];
    return v;
  }

  std::size_t offset() const { return pos_; }

 private:
  std::span<const std::uint8_t> bytes_;
  const std::string& name_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<std::uint8_t> encode_bellperson_vk(const groth16::VerifyingKey& vk) {
  std::vector<std::uint8_t> out;
  out.reserve(kFixedBytes + vk.ic.size() * kG1Bytes);
  append(out, vk.alpha_g1);
  append(out, vk.beta_g1);
  append(out, vk.beta_g2);
  append(out, vk.gamma_g2);
  append(out, vk.delta_g1);
  append(out, vk.delta_g2);
  const auto n = static_cast<std::uint32_t>(vk.ic.size());
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(n >> shift));
  for (const auto& p : vk.ic) append(out, p);
  return out;
}

groth16::VerifyingKey decode_bellperson_vk(std::span<const std::uint8_t> bytes, const std::string& name,
                                           groth16::InsecureKey insecure) {
  if (bytes.size() < kFixedBytes) {
    throw FormatError(name, "truncated: " + std::to_string(bytes.size()) + " bytes, a verifying key needs at least " +
                                std::to_string(kFixedBytes));
  }
  Decoder d(bytes, name);
  groth16::VerifyingKey vk;
  vk.alpha_g1 = d.point<ec::G1Curve>("alpha_g1");
  vk.beta_g1 = d.finite_point<ec::G1Curve>("beta_g1");
  vk.beta_g2 = d.point<ec::G2Curve>("beta_g2");
  vk.gamma_g2 = d.point<ec::G2Curve>("gamma_g2");
  vk.delta_g1 = d.finite_point<ec::G1Curve>("delta_g1");
  vk.delta_g2 = d.point<ec::G2Curve>("delta_g2");
  const std::size_t count_at = d.offset();
  const std::uint32_t count = d.u32_be();
  const std::size_t rest = bytes.size() - kFixedBytes;
  if (rest % kG1Bytes != 0 || rest / kG1Bytes != count) {
    throw FormatError(name, "the IC count " + std::to_string(count) + " does not match the " + std::to_string(rest) +
                                " bytes that follow", {}, count_at);
  }
  vk.ic.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) vk.ic.push_back(d.point<ec::G1Curve>("ic point"));
  if (auto problem = groth16::verifying_key_problem(vk, insecure)) throw FormatError(name, "verifying key refused: " + *problem);
  return vk;
}

}  // namespace zkpipe::formats
