#include "formats/wtns_file.hpp"

#include "formats/bin_file.hpp"
#include "formats/field_bytes.hpp"

namespace zkpipe::formats {

namespace {

constexpr std::uint32_t kWtnsHeaderSection = 1;
constexpr std::uint32_t kValuesSection = 2;

}  // namespace

namespace {

std::vector<ff::Fr> parse_wtns(const BinFile& file) {
  SectionReader h = file.section(kWtnsHeaderSection, "header");
  const std::uint64_t n8_at = h.offset();
  const std::uint32_t n8 = h.u32();
  if (n8 != kFrBytes) h.fail_at(n8_at, "field size " + std::to_string(n8) + " bytes; BLS12-381 Fr needs 32");
  const std::uint64_t prime_at = h.offset();
  if (!is_le_integer(h.bytes(n8), ff::Fr::kModulus)) {
    h.fail_at(prime_at, "the field prime is not BLS12-381's r (compile the circuit with --prime bls12381)");
  }
  const std::uint32_t count = h.u32();
  h.expect_end();
  if (count == 0) h.fail_at(prime_at + n8, "the witness is empty (it must start with ONE)");

  SectionReader s = file.section(kValuesSection, "witness values");
  s.expect_remaining(count, kFrBytes, "values");
  std::vector<ff::Fr> values;
  values.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t at = s.offset();
    auto v = fr_from_le_canonical(s.bytes(kFrBytes));
    if (!v) s.fail_at(at, "witness value " + std::to_string(i) + " is not below r");
    values.push_back(*v);
  }
  if (!values[0].is_one()) s.fail_at(s.offset() - count * std::uint64_t{kFrBytes}, "w[0] is not 1");
  return values;
}

}  // namespace

std::vector<ff::Fr> read_wtns(const std::filesystem::path& path) {
  const BinFile file = BinFile::open(path, "wtns", 2);
  return file.parse([&] { return parse_wtns(file); });
}

std::vector<ff::Fr> read_wtns(std::shared_ptr<const io::ReadOnlyFile> opened) {
  const BinFile file = BinFile::open(std::move(opened), "wtns", 2);
  return file.parse([&] { return parse_wtns(file); });
}

}  // namespace zkpipe::formats
