// Point encodings in the zcash / IETF layout shared by Filecoin, bellperson and blst.
//
//   G1: compressed 48 bytes, uncompressed 96 bytes (x then y, 48 bytes each)
//   G2: compressed 96 bytes, uncompressed 192 bytes; an Fp2 coordinate is written
//       c1 then c0
//   big-endian; the three top bits of the first byte are flags:
//     0x80 compressed, 0x40 point at infinity (every other bit zero),
//     0x20 y is the lexicographically largest of {y, -y} (compressed form only)
//
// Decoding validates everything and throws PointDecodeError naming the check that
// failed. The subgroup check can be skipped, explicitly, for trusted input.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "ec/affine.hpp"
#include "ec/curves.hpp"

namespace zkpipe::ec {

enum class DecodeError : std::uint8_t {
  kWrongLength,              // neither the compressed nor the uncompressed size
  kCompressionFlagMismatch,  // the 0x80 flag disagrees with the length
  kSortFlagNotAllowed,       // the 0x20 flag on an uncompressed encoding
  kInvalidInfinity,          // the 0x40 flag with any other bit set
  kNonCanonicalCoordinate,   // a coordinate is not below p
  kNotOnCurve,               // (x, y) off the curve, or no y exists for x
  kNotInSubgroup,            // on the curve but outside the prime-order subgroup
};

// A one-line explanation of the error, without the curve or the sizes.
const char* describe(DecodeError error);

class PointDecodeError : public std::runtime_error {
 public:
  PointDecodeError(DecodeError error, const std::string& message)
      : std::runtime_error(message), error_(error) {}

  DecodeError error() const { return error_; }

 private:
  DecodeError error_;
};

enum class SubgroupCheck : std::uint8_t {
  kCheck,
  kSkipForTrustedInput,  // only for points produced by this program or a trusted party
};

template <class Curve>
inline constexpr std::size_t kCompressedSize = Curve::Field::kBytes;

template <class Curve>
inline constexpr std::size_t kUncompressedSize = 2 * Curve::Field::kBytes;

template <class Curve>
std::array<std::uint8_t, kCompressedSize<Curve>> encode_compressed(const Affine<Curve>& p);

template <class Curve>
std::array<std::uint8_t, kUncompressedSize<Curve>> encode_uncompressed(const Affine<Curve>& p);

// Either form, told apart by the length (which must agree with the 0x80 flag).
template <class Curve>
Affine<Curve> decode(std::span<const std::uint8_t> bytes,
                     SubgroupCheck check = SubgroupCheck::kCheck);

inline Affine<G1Curve> decode_g1(std::span<const std::uint8_t> bytes,
                                 SubgroupCheck check = SubgroupCheck::kCheck) {
  return decode<G1Curve>(bytes, check);
}

inline Affine<G2Curve> decode_g2(std::span<const std::uint8_t> bytes,
                                 SubgroupCheck check = SubgroupCheck::kCheck) {
  return decode<G2Curve>(bytes, check);
}

}  // namespace zkpipe::ec
