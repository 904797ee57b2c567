#include "ec/serialization.hpp"

#include <algorithm>
#include <optional>

#include "ec/subgroup.hpp"

namespace zkpipe::ec {

namespace {

constexpr std::uint8_t kCompressedFlag = 0x80;
constexpr std::uint8_t kInfinityFlag = 0x40;
constexpr std::uint8_t kSortFlag = 0x20;
constexpr std::uint8_t kFlagMask = kCompressedFlag | kInfinityFlag | kSortFlag;

void write_coordinate(const Fp& a, std::span<std::uint8_t> out) {
  a.to_bytes_be(out.first<Fp::kBytes>());
}

void write_coordinate(const Fp2& a, std::span<std::uint8_t> out) {
  a.c1.to_bytes_be(out.first<Fp::kBytes>());
  a.c0.to_bytes_be(out.subspan<Fp::kBytes, Fp::kBytes>());
}

// nullopt when the coordinate (or one of its Fp parts) is not below p.
template <class Field>
std::optional<Field> read_coordinate(std::span<const std::uint8_t> in);

template <>
std::optional<Fp> read_coordinate<Fp>(std::span<const std::uint8_t> in) {
  return Fp::from_bytes_be(in.first<Fp::kBytes>());
}

template <>
std::optional<Fp2> read_coordinate<Fp2>(std::span<const std::uint8_t> in) {
  auto c1 = Fp::from_bytes_be(in.first<Fp::kBytes>());
  auto c0 = Fp::from_bytes_be(in.subspan<Fp::kBytes, Fp::kBytes>());
  if (!c0 || !c1) return std::nullopt;
  return Fp2{*c0, *c1};
}

template <class Curve>
[[noreturn]] void fail(DecodeError error, const std::string& detail = {}) {
  std::string message = std::string(Curve::kName) + " point decoding failed: " + describe(error);
  if (!detail.empty()) message += " (" + detail + ")";
  throw PointDecodeError(error, message);
}

template <class Curve>
void check_infinity_encoding(std::span<const std::uint8_t> bytes) {
  bool other_bits = (bytes[0] & ~kFlagMask) != 0 || (bytes[0] & kSortFlag) != 0 ||
                    std::any_of(bytes.begin() + 1, bytes.end(), [](std::uint8_t b) { return b != 0; });
  if (other_bits) fail<Curve>(DecodeError::kInvalidInfinity);
}

}  // namespace

const char* describe(DecodeError error) {
  switch (error) {
    case DecodeError::kWrongLength:
      return "wrong length";
    case DecodeError::kCompressionFlagMismatch:
      return "compression flag (0x80) does not match the encoding length";
    case DecodeError::kSortFlagNotAllowed:
      return "sort flag (0x20) set on an uncompressed encoding";
    case DecodeError::kInvalidInfinity:
      return "point at infinity (0x40) with other bits set";
    case DecodeError::kNonCanonicalCoordinate:
      return "coordinate is not below the field modulus";
    case DecodeError::kNotOnCurve:
      return "point is not on the curve";
    case DecodeError::kNotInSubgroup:
      return "point is not in the prime-order subgroup";
  }
  return "unknown error";
}

template <class Curve>
std::array<std::uint8_t, kCompressedSize<Curve>> encode_compressed(const Affine<Curve>& p) {
  std::array<std::uint8_t, kCompressedSize<Curve>> out{};
  if (p.infinity) {
    out[0] = kCompressedFlag | kInfinityFlag;
    return out;
  }
  write_coordinate(p.x, out);
  out[0] |= kCompressedFlag;
  if (p.y.is_lexicographically_largest()) out[0] |= kSortFlag;
  return out;
}

template <class Curve>
std::array<std::uint8_t, kUncompressedSize<Curve>> encode_uncompressed(const Affine<Curve>& p) {
  constexpr std::size_t kCoordinate = Curve::Field::kBytes;
  std::array<std::uint8_t, kUncompressedSize<Curve>> out{};
  if (p.infinity) {
    out[0] = kInfinityFlag;
    return out;
  }
  std::span<std::uint8_t> s(out);
  write_coordinate(p.x, s.first(kCoordinate));
  write_coordinate(p.y, s.subspan(kCoordinate));
  return out;
}

template <class Curve>
Affine<Curve> decode(std::span<const std::uint8_t> bytes, SubgroupCheck check) {
  using Field = typename Curve::Field;
  constexpr std::size_t kCoordinate = Field::kBytes;

  const bool compressed_length = bytes.size() == kCompressedSize<Curve>;
  if (!compressed_length && bytes.size() != kUncompressedSize<Curve>) {
    fail<Curve>(DecodeError::kWrongLength,
                "got " + std::to_string(bytes.size()) + " bytes, expected " +
                    std::to_string(kCompressedSize<Curve>) + " compressed or " +
                    std::to_string(kUncompressedSize<Curve>) + " uncompressed");
  }
  const bool compressed = (bytes[0] & kCompressedFlag) != 0;
  const bool infinity = (bytes[0] & kInfinityFlag) != 0;
  const bool sort = (bytes[0] & kSortFlag) != 0;
  if (compressed != compressed_length) {
    fail<Curve>(DecodeError::kCompressionFlagMismatch,
                std::to_string(bytes.size()) + " bytes with the flag " +
                    (compressed ? "set" : "clear"));
  }
  if (!compressed && sort) fail<Curve>(DecodeError::kSortFlagNotAllowed);
  if (infinity) {
    check_infinity_encoding<Curve>(bytes);
    return Affine<Curve>::identity();
  }

  std::array<std::uint8_t, kCoordinate> x_bytes{};
  std::copy_n(bytes.begin(), kCoordinate, x_bytes.begin());
  x_bytes[0] &= static_cast<std::uint8_t>(~kFlagMask);
  const std::optional<Field> x = read_coordinate<Field>(x_bytes);
  if (!x) fail<Curve>(DecodeError::kNonCanonicalCoordinate, "x");

  Affine<Curve> p;
  if (compressed) {
    const std::optional<Field> y = (x->square() * *x + Curve::b()).sqrt();
    if (!y) fail<Curve>(DecodeError::kNotOnCurve, "x^3 + b is not a square");
    p = Affine<Curve>::from_xy(*x, y->is_lexicographically_largest() == sort ? *y : -*y);
  } else {
    const std::optional<Field> y = read_coordinate<Field>(bytes.subspan(kCoordinate));
    if (!y) fail<Curve>(DecodeError::kNonCanonicalCoordinate, "y");
    p = Affine<Curve>::from_xy(*x, *y);
    if (!p.is_on_curve()) fail<Curve>(DecodeError::kNotOnCurve);
  }
  if (check == SubgroupCheck::kCheck && !is_in_subgroup(p)) {
    fail<Curve>(DecodeError::kNotInSubgroup);
  }
  return p;
}

template std::array<std::uint8_t, kCompressedSize<G1Curve>> encode_compressed(const Affine<G1Curve>&);
template std::array<std::uint8_t, kCompressedSize<G2Curve>> encode_compressed(const Affine<G2Curve>&);
template std::array<std::uint8_t, kUncompressedSize<G1Curve>> encode_uncompressed(
    const Affine<G1Curve>&);
template std::array<std::uint8_t, kUncompressedSize<G2Curve>> encode_uncompressed(
    const Affine<G2Curve>&);
template Affine<G1Curve> decode<G1Curve>(std::span<const std::uint8_t>, SubgroupCheck);
template Affine<G2Curve> decode<G2Curve>(std::span<const std::uint8_t>, SubgroupCheck);

}  // namespace zkpipe::ec
