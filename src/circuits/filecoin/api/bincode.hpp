// bincode 1.3's legacy encoding (bincode::serialize / deserialize), the one
// filecoin-proofs-api uses for the vanilla proofs it hands to a SNARK: integers
// fixed-width little-endian, sequence lengths u64, enum variants a u32 index then the
// payload, fixed arrays and struct fields in order with no prefix. The reader is
// bounded: a sequence's length is checked against the bytes left before anything is
// allocated for it, so a hostile length is an error, never an allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "circuits/filecoin/core/node_bytes.hpp"

namespace zkpipe::filecoin::api {

// A blob that is not what its reader expects: "<source>: offset <offset>: <problem>".
class BincodeError : public std::invalid_argument {
 public:
  BincodeError(std::string source, std::uint64_t offset, const std::string& problem);

  const std::string& source() const { return source_; }
  std::uint64_t offset() const { return offset_; }

 private:
  std::string source_;
  std::uint64_t offset_;
};

class BincodeReader {
 public:
  // `source` names the blob in errors ("vanilla proof 3").
  BincodeReader(std::span<const std::uint8_t> bytes, std::string source)
      : bytes_(bytes), source_(std::move(source)) {}

  std::uint64_t offset() const { return pos_; }
  std::uint64_t remaining() const { return bytes_.size() - pos_; }

  // `what` names the value in the error when the blob ends first.
  std::uint32_t u32(std::string_view what);
  std::uint64_t u64(std::string_view what);
  // A hasher domain (32 bytes, no prefix) holding a canonical Fr, as filecoin-proofs
  // writes every Poseidon and SHA-256 node.
  core::NodeBytes field_element(std::string_view what);
  // A sequence's u64 length, refused unless that many elements of at least
  // `min_element_bytes` each fit in the bytes left.
  std::size_t length(std::string_view what, std::uint64_t min_element_bytes);
  // bincode itself ignores trailing bytes; a blob with any is not one that
  // filecoin-proofs (or the writer below) wrote, so it is refused.
  void expect_end() const;

  [[noreturn]] void fail(const std::string& problem) const { fail_at(pos_, problem); }
  [[noreturn]] void fail_at(std::uint64_t offset, const std::string& problem) const;

 private:
  std::span<const std::uint8_t> take(std::uint64_t n, std::string_view what);

  std::span<const std::uint8_t> bytes_;
  std::string source_;
  std::uint64_t pos_ = 0;
};

class BincodeWriter {
 public:
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void bytes(std::span<const std::uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void length(std::size_t n) { u64(n); }

  std::vector<std::uint8_t> take() { return std::move(out_); }

 private:
  std::vector<std::uint8_t> out_;
};

}  // namespace zkpipe::filecoin::api
