#include "formats/r1cs_file.hpp"

#include "formats/bin_file.hpp"
#include "formats/field_bytes.hpp"

namespace zkpipe::formats {

namespace {

constexpr std::uint32_t kR1csHeaderSection = 1;
constexpr std::uint32_t kConstraintSection = 2;
constexpr std::uint32_t kWireLabelSection = 3;
constexpr std::uint32_t kCustomGatesListSection = 4;
constexpr std::uint32_t kCustomGatesUseSection = 5;
constexpr std::uint64_t kTermBytes = 4 + kFrBytes;

R1csHeader read_header(SectionReader s) {
  const std::uint64_t n8_at = s.offset();
  const std::uint32_t n8 = s.u32();
  if (n8 != kFrBytes) s.fail_at(n8_at, "field size " + std::to_string(n8) + " bytes; BLS12-381 Fr needs 32");
  const std::uint64_t prime_at = s.offset();
  if (!is_le_integer(s.bytes(n8), ff::Fr::kModulus)) {
    s.fail_at(prime_at, "the field prime is not BLS12-381's r (compile the circuit with --prime bls12381)");
  }
  R1csHeader h;
  h.n_wires = s.u32();
  h.n_pub_out = s.u32();
  h.n_pub_in = s.u32();
  h.n_prv_in = s.u32();
  h.n_labels = s.u64();
  h.n_constraints = s.u32();
  s.expect_end();
  if (h.n_wires == 0 || std::uint64_t{h.n_pub_out} + h.n_pub_in + h.n_prv_in + 1 > h.n_wires) {
    s.fail_at(prime_at + n8, "inconsistent counts: " + std::to_string(h.n_wires) + " wires cannot hold ONE, " +
                                 std::to_string(h.n_pub_out) + " outputs, " + std::to_string(h.n_pub_in) +
                                 " public and " + std::to_string(h.n_prv_in) + " private inputs");
  }
  return h;
}

void read_linear_combination(SectionReader& s, const R1csHeader& h, std::vector<R1csTerm>& terms) {
  const std::uint32_t n = s.u32();
  s.expect_at_least(n, kTermBytes, "terms");
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint64_t at = s.offset();
    const std::uint32_t wire = s.u32();
    if (wire >= h.n_wires) {
      s.fail_at(at, "term names wire " + std::to_string(wire) + ", the circuit has " + std::to_string(h.n_wires));
    }
    auto coefficient = fr_from_le_canonical(s.bytes(kFrBytes));
    if (!coefficient) s.fail_at(at + 4, "coefficient is not below r");
    terms.push_back({wire, *coefficient});
  }
}

}  // namespace

namespace {

R1csFile parse_r1cs(const BinFile& file) {
  if (file.has(kCustomGatesListSection) || file.has(kCustomGatesUseSection)) {
    throw FormatError(file.name(), "custom gates (sections 4/5) are not supported by Groth16");
  }
  R1csFile r;
  r.header = read_header(file.section(kR1csHeaderSection, "header"));

  SectionReader s = file.section(kConstraintSection, "constraints");
  // Every constraint takes at least its three term counts: bounds the reservation.
  s.expect_at_least(r.header.n_constraints, 3 * 4, "constraints");
  r.lc_start.reserve(3 * std::size_t{r.header.n_constraints} + 1);
  r.lc_start.push_back(0);
  for (std::uint32_t i = 0; i < r.header.n_constraints; ++i) {
    for (int m = 0; m < 3; ++m) {
      read_linear_combination(s, r.header, r.terms);
      r.lc_start.push_back(r.terms.size());
    }
  }
  s.expect_end();

  if (file.has(kWireLabelSection)) {
    SectionReader labels = file.section(kWireLabelSection, "wire to label map");
    labels.expect_remaining(r.header.n_wires, 8, "wire labels");
    r.wire_to_label.reserve(r.header.n_wires);
    for (std::uint32_t i = 0; i < r.header.n_wires; ++i) r.wire_to_label.push_back(labels.u64());
  }
  return r;
}

}  // namespace

R1csFile read_r1cs(const std::filesystem::path& path) {
  const BinFile file = BinFile::open(path, "r1cs", 1);
  return file.parse([&] { return parse_r1cs(file); });
}

std::optional<std::size_t> R1csFile::first_unsatisfied(std::span<const ff::Fr> witness) const {
  auto eval = [&](std::size_t i, int m) {
    ff::Fr acc = ff::Fr::zero();
    for (const R1csTerm& t : lc(i, m)) acc += t.coefficient * witness[t.wire];
    return acc;
  };
  for (std::size_t i = 0; i < header.n_constraints; ++i) {
    if (!(eval(i, 0) * eval(i, 1) == eval(i, 2))) return i;
  }
  return std::nullopt;
}

}  // namespace zkpipe::formats
