#include "circuits/filecoin/api/bincode.hpp"

#include <algorithm>

#include "ff/fr.hpp"

namespace zkpipe::filecoin::api {

namespace {

std::uint64_t load_le(std::span<const std::uint8_t> b) {
  std::uint64_t v = 0;
  for (std::size_t i = b.size(); i-- > 0;) v = (v << 8) | b[i];
  return v;
}

void store_le(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace

BincodeError::BincodeError(std::string source, std::uint64_t offset, const std::string& problem)
    : std::invalid_argument(source + ": offset " + std::to_string(offset) + ": " + problem),
      source_(std::move(source)),
      offset_(offset) {}

void BincodeReader::fail_at(std::uint64_t offset, const std::string& problem) const {
  throw BincodeError(source_, offset, problem);
}

std::span<const std::uint8_t> BincodeReader::take(std::uint64_t n, std::string_view what) {
  if (n > remaining()) {
    fail("expected " + std::to_string(n) + " bytes (" + std::string(what) + "), " + std::to_string(remaining()) +
         " left");
  }
  const auto out = bytes_.subspan(pos_, n);
  pos_ += n;
  return out;
}

std::uint32_t BincodeReader::u32(std::string_view what) { return static_cast<std::uint32_t>(load_le(take(4, what))); }

std::uint64_t BincodeReader::u64(std::string_view what) { return load_le(take(8, what)); }

core::NodeBytes BincodeReader::field_element(std::string_view what) {
  const std::uint64_t at = pos_;
  const auto b = take(32, what);
  ff::Limbs<4> limbs{};
  for (std::size_t i = 0; i < 4; ++i) limbs[i] = load_le(b.subspan(8 * i, 8));
  if (!ff::limbs_less(limbs, ff::Fr::kModulus)) {
    fail_at(at, std::string(what) + " is a non-canonical field element (its 32 little-endian bytes are not below r)");
  }
  core::NodeBytes out{};
  std::copy(b.begin(), b.end(), out.begin());
  return out;
}

std::size_t BincodeReader::length(std::string_view what, std::uint64_t min_element_bytes) {
  const std::uint64_t at = pos_;
  const std::uint64_t n = u64(std::string(what) + " count");
  if (n > remaining() / min_element_bytes) {
    fail_at(at, std::string(what) + " count " + std::to_string(n) + " exceeds the " + std::to_string(remaining()) +
                    " bytes left (at least " + std::to_string(min_element_bytes) + " bytes each)");
  }
  return static_cast<std::size_t>(n);
}

void BincodeReader::expect_end() const {
  if (remaining() != 0) fail(std::to_string(remaining()) + " trailing bytes after the proof");
}

void BincodeWriter::u32(std::uint32_t v) { store_le(out_, v, 4); }

void BincodeWriter::u64(std::uint64_t v) { store_le(out_, v, 8); }

}  // namespace zkpipe::filecoin::api
