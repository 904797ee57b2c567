#include "groth16/proof.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ec/serialization.hpp"

namespace zkpipe::groth16 {

std::array<std::uint8_t, Proof::kEncodedSize> Proof::encode() const {
  std::array<std::uint8_t, kEncodedSize> out{};
  auto ea = ec::encode_compressed(a);
  auto eb = ec::encode_compressed(b);
  auto ec_ = ec::encode_compressed(c);
  auto it = std::copy(ea.begin(), ea.end(), out.begin());
  it = std::copy(eb.begin(), eb.end(), it);
  std::copy(ec_.begin(), ec_.end(), it);
  return out;
}

namespace {

template <class Decode>
auto decode_part(const char* name, std::span<const std::uint8_t> bytes, Decode decode) {
  try {
    return decode(bytes);
  } catch (const ec::PointDecodeError& e) {
    throw ec::PointDecodeError(e.error(), std::string("proof point ") + name + ": " + e.what());
  }
}

}  // namespace

Proof Proof::decode(std::span<const std::uint8_t> bytes) {
  if (bytes.size() != kEncodedSize) {
    throw std::invalid_argument("proof: expected " + std::to_string(kEncodedSize) + " bytes, got " +
                                std::to_string(bytes.size()));
  }
  Proof p;
  p.a = decode_part("A", bytes.subspan(0, 48), [](auto b) { return ec::decode_g1(b); });
  p.b = decode_part("B", bytes.subspan(48, 96), [](auto b) { return ec::decode_g2(b); });
  p.c = decode_part("C", bytes.subspan(144, 48), [](auto b) { return ec::decode_g1(b); });
  return p;
}

std::vector<std::uint8_t> encode_proofs(std::span<const Proof> proofs) {
  std::vector<std::uint8_t> out;
  out.reserve(proofs.size() * Proof::kEncodedSize);
  for (const Proof& p : proofs) {
    auto e = p.encode();
    out.insert(out.end(), e.begin(), e.end());
  }
  return out;
}

std::vector<Proof> decode_proofs(std::span<const std::uint8_t> bytes) {
  if (bytes.size() % Proof::kEncodedSize != 0) {
    throw std::invalid_argument("proof file: " + std::to_string(bytes.size()) +
                                " bytes is not a multiple of " + std::to_string(Proof::kEncodedSize));
  }
  std::vector<Proof> proofs;
  for (std::size_t off = 0; off < bytes.size(); off += Proof::kEncodedSize) {
    try {
      proofs.push_back(Proof::decode(bytes.subspan(off, Proof::kEncodedSize)));
    } catch (const ec::PointDecodeError& e) {
      throw ec::PointDecodeError(e.error(), "partition " + std::to_string(off / Proof::kEncodedSize) +
                                                " (offset " + std::to_string(off) + "): " + e.what());
    }
  }
  return proofs;
}

}  // namespace zkpipe::groth16
