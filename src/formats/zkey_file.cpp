#include "formats/zkey_file.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "ec/subgroup.hpp"
#include "formats/bin_file.hpp"
#include "formats/field_bytes.hpp"
#include "groth16/key_validation.hpp"
#include "ff/huge_pages.hpp"

namespace zkpipe::formats {

using groth16::G1Affine;
using groth16::G2Affine;

namespace {

constexpr std::uint32_t kProtocolSection = 1;
constexpr std::uint32_t kZkeyHeaderSection = 2;
constexpr std::uint32_t kIcSection = 3;
constexpr std::uint32_t kCoefficientSection = 4;
constexpr std::uint32_t kASection = 5;
constexpr std::uint32_t kB1Section = 6;
constexpr std::uint32_t kB2Section = 7;
constexpr std::uint32_t kCSection = 8;
constexpr std::uint32_t kHSection = 9;
constexpr std::uint32_t kGroth16Protocol = 1;
constexpr std::uint32_t kFqBytes = 48;
constexpr std::uint64_t kCoefficientBytes = 12 + kFrBytes;
// snarkjs and circom index wires and rows with u32; a domain beyond 2^28 is far past
// anything a CPU or GPU prover here can hold.
constexpr std::uint32_t kMaxDomainSize = std::uint32_t{1} << 28;

template <class Curve>
constexpr std::uint64_t kPointBytes = 2 * Curve::Field::kBytes;

enum class PointProblem { kNone, kNonCanonical, kNotOnCurve, kNotInSubgroup };

const char* describe(PointProblem p) {
  switch (p) {
    case PointProblem::kNonCanonical: return "a coordinate is not below q";
    case PointProblem::kNotOnCurve: return "not on the curve";
    case PointProblem::kNotInSubgroup: return "not in the prime-order subgroup";
    case PointProblem::kNone: break;
  }
  return "valid";
}

std::optional<ff::Fp2> fp2_from_le_montgomery(std::span<const std::uint8_t> b) {
  auto c0 = fp_from_le_montgomery(b.subspan(0, kFqBytes));
  auto c1 = fp_from_le_montgomery(b.subspan(kFqBytes, kFqBytes));
  if (!c0 || !c1) return std::nullopt;
  return ff::Fp2{*c0, *c1};
}

template <class Curve>
auto coordinate(std::span<const std::uint8_t> b) {
  if constexpr (std::is_same_v<typename Curve::Field, ff::Fp>) {
    return fp_from_le_montgomery(b);
  } else {
    return fp2_from_le_montgomery(b);
  }
}

// Affine x‖y in Montgomery form; all-zero bytes are the point at infinity.
template <class Curve>
PointProblem decode_point(std::span<const std::uint8_t> b, bool check_subgroup, ec::Affine<Curve>& out) {
  constexpr std::size_t half = Curve::Field::kBytes;
  if (std::all_of(b.begin(), b.end(), [](std::uint8_t x) { return x == 0; })) {
    out = ec::Affine<Curve>::identity();
    return PointProblem::kNone;
  }
  auto x = coordinate<Curve>(b.subspan(0, half));
  auto y = coordinate<Curve>(b.subspan(half, half));
  if (!x || !y) return PointProblem::kNonCanonical;
  out = ec::Affine<Curve>::from_xy(*x, *y);
  if (!out.is_on_curve()) return PointProblem::kNotOnCurve;
  if (check_subgroup && !ec::is_in_subgroup(out)) return PointProblem::kNotInSubgroup;
  return PointProblem::kNone;
}

// `count` points filling the rest of the section, validated in parallel; the error
// names the first bad one.
template <class Curve>
std::vector<ec::Affine<Curve>> read_points(SectionReader& s, std::uint64_t count, const std::string& what,
                                           bool check_subgroup) {
  constexpr std::uint64_t size = kPointBytes<Curve>;
  s.expect_remaining(count, size, what + " points");
  const std::uint64_t start = s.offset();
  const auto bytes = s.bytes(count * size);
  std::vector<ec::Affine<Curve>> points;
  ff::resize_on_huge_pages(points, count);
  std::atomic<std::uint64_t> first_bad{count};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, count, 256), [&](const auto& range) {
    for (std::uint64_t i = range.begin(); i < range.end(); ++i) {
      if (decode_point<Curve>(bytes.subspan(i * size, size), check_subgroup, points[i]) != PointProblem::kNone) {
        std::uint64_t seen = first_bad.load();
        while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
        }
        return;
      }
    }
  });
  if (const std::uint64_t i = first_bad.load(); i < count) {
    ec::Affine<Curve> p;
    const PointProblem problem = decode_point<Curve>(bytes.subspan(i * size, size), check_subgroup, p);
    s.fail_at(start + i * size, what + " point " + std::to_string(i) + ": " + describe(problem));
  }
  return points;
}

// One of the key's fixed points (α, β, γ, δ): never the point at infinity.
template <class Curve>
ec::Affine<Curve> read_fixed_point(SectionReader& s, const char* name, bool check_subgroup) {
  const std::uint64_t at = s.offset();
  ec::Affine<Curve> p;
  const PointProblem problem = decode_point<Curve>(s.bytes(kPointBytes<Curve>), check_subgroup, p);
  if (problem != PointProblem::kNone) s.fail_at(at, std::string(name) + ": " + describe(problem));
  if (p.infinity) s.fail_at(at, std::string(name) + " is the point at infinity");
  return p;
}

ZkeyHeader read_header(SectionReader& s, groth16::VerifyingKey& vk, bool check_subgroup) {
  const std::uint64_t n8q_at = s.offset();
  if (s.u32() != kFqBytes) s.fail_at(n8q_at, "base field size is not 48 bytes (not BLS12-381)");
  const std::uint64_t q_at = s.offset();
  if (!is_le_integer(s.bytes(kFqBytes), ff::Fp::kModulus)) s.fail_at(q_at, "the base field prime is not BLS12-381's q");
  const std::uint64_t n8r_at = s.offset();
  if (s.u32() != kFrBytes) s.fail_at(n8r_at, "scalar field size is not 32 bytes (not BLS12-381)");
  const std::uint64_t r_at = s.offset();
  if (!is_le_integer(s.bytes(kFrBytes), ff::Fr::kModulus)) s.fail_at(r_at, "the scalar field prime is not BLS12-381's r");
  const std::uint64_t counts_at = s.offset();
  ZkeyHeader h;
  h.n_vars = s.u32();
  h.n_public = s.u32();
  h.domain_size = s.u32();
  if (h.n_vars == 0 || h.n_public >= h.n_vars) {
    s.fail_at(counts_at, "inconsistent counts: " + std::to_string(h.n_vars) + " variables with " +
                             std::to_string(h.n_public) + " public signals");
  }
  if (h.domain_size == 0 || (h.domain_size & (h.domain_size - 1)) != 0 || h.domain_size > kMaxDomainSize ||
      h.domain_size < std::uint64_t{h.n_public} + 1) {
    s.fail_at(counts_at + 8, "domain size " + std::to_string(h.domain_size) +
                                 " is not a power of two between nPublic + 1 and 2^28");
  }
  vk.alpha_g1 = read_fixed_point<ec::G1Curve>(s, "alpha_1", check_subgroup);
  vk.beta_g1 = read_fixed_point<ec::G1Curve>(s, "beta_1", check_subgroup);
  vk.beta_g2 = read_fixed_point<ec::G2Curve>(s, "beta_2", check_subgroup);
  vk.gamma_g2 = read_fixed_point<ec::G2Curve>(s, "gamma_2", check_subgroup);
  vk.delta_g1 = read_fixed_point<ec::G1Curve>(s, "delta_1", check_subgroup);
  vk.delta_g2 = read_fixed_point<ec::G2Curve>(s, "delta_2", check_subgroup);
  s.expect_end();
  return h;
}

struct ParsedCoefficient {
  std::uint32_t matrix;
  ZkeyCoefficient coefficient;
};

// What is wrong with coefficient record `bytes`, or "" when it is valid.
std::string coefficient_problem(std::span<const std::uint8_t> bytes, const ZkeyHeader& h, ParsedCoefficient& out,
                                std::uint64_t& field_offset) {
  out.matrix = static_cast<std::uint32_t>(load_le(bytes.subspan(0, 4)));
  out.coefficient.row = static_cast<std::uint32_t>(load_le(bytes.subspan(4, 4)));
  out.coefficient.wire = static_cast<std::uint32_t>(load_le(bytes.subspan(8, 4)));
  auto value = fr_from_le_double_montgomery(bytes.subspan(12, kFrBytes));
  if (out.matrix > 1) {
    field_offset = 0;
    return "matrix " + std::to_string(out.matrix) + " is neither A (0) nor B (1)";
  }
  if (out.coefficient.row >= h.domain_size) {
    field_offset = 4;
    return "row " + std::to_string(out.coefficient.row) + " is outside the domain of " + std::to_string(h.domain_size);
  }
  if (out.coefficient.wire >= h.n_vars) {
    field_offset = 8;
    return "wire " + std::to_string(out.coefficient.wire) + ", the key has " + std::to_string(h.n_vars);
  }
  if (!value) {
    field_offset = 12;
    return "value is not below r";
  }
  out.coefficient.value = *value;
  return {};
}

// Parsed and validated in parallel; the error names the first bad record.
void read_coefficients(SectionReader& s, const ZkeyHeader& h, Zkey& z) {
  const std::uint32_t count = s.u32();
  s.expect_remaining(count, kCoefficientBytes, "coefficients");
  const std::uint64_t start = s.offset();
  const auto bytes = s.bytes(count * kCoefficientBytes);
  std::vector<ParsedCoefficient> parsed;
  ff::resize_on_huge_pages(parsed, count);
  std::atomic<std::uint64_t> first_bad{count};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, count, 4096), [&](const auto& range) {
    std::uint64_t field_offset = 0;
    for (std::uint64_t i = range.begin(); i < range.end(); ++i) {
      if (coefficient_problem(bytes.subspan(i * kCoefficientBytes, kCoefficientBytes), h, parsed[i], field_offset)
              .empty()) {
        continue;
      }
      std::uint64_t seen = first_bad.load();
      while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
      }
      return;
    }
  });
  if (const std::uint64_t i = first_bad.load(); i < count) {
    ParsedCoefficient bad;
    std::uint64_t field_offset = 0;
    const std::string problem =
        coefficient_problem(bytes.subspan(i * kCoefficientBytes, kCoefficientBytes), h, bad, field_offset);
    s.fail_at(start + i * kCoefficientBytes + field_offset, "coefficient " + std::to_string(i) + ": " + problem);
  }
  const auto in_a = static_cast<std::size_t>(
      std::count_if(parsed.begin(), parsed.end(), [](const ParsedCoefficient& c) { return c.matrix == 0; }));
  z.a_coefficients.reserve(in_a);
  z.b_coefficients.reserve(parsed.size() - in_a);
  for (const ParsedCoefficient& c : parsed) {
    (c.matrix == 0 ? z.a_coefficients : z.b_coefficients).push_back(c.coefficient);
  }
}

// Builds the density-pruned A and B queries in place: inputs always sit in A; an aux
// wire (or for B any wire) whose points are at infinity appears in no constraint of
// that matrix.
void build_queries(const ZkeyHeader& h, std::vector<G1Affine> a, std::vector<G1Affine> b1,
                   std::vector<G2Affine> b2, groth16::ProvingKey& key) {
  const std::size_t num_inputs = std::size_t{h.n_public} + 1;
  key.density.b_input.resize(num_inputs);
  key.density.a_aux.resize(h.n_vars - num_inputs);
  key.density.b_aux.resize(h.n_vars - num_inputs);
  std::size_t in_a = num_inputs;
  std::size_t in_b = 0;
  for (std::size_t i = 0; i < h.n_vars; ++i) {
    const bool b_used = !b1[i].infinity || !b2[i].infinity;
    if (i < num_inputs) {
      key.density.b_input[i] = b_used;
    } else {
      key.density.a_aux[i - num_inputs] = !a[i].infinity;
      key.density.b_aux[i - num_inputs] = b_used;
      if (!a[i].infinity) a[in_a++] = a[i];
    }
    if (b_used) {
      b1[in_b] = b1[i];
      b2[in_b] = b2[i];
      ++in_b;
    }
  }
  a.resize(in_a);
  b1.resize(in_b);
  b2.resize(in_b);
  key.a = std::move(a);
  key.b_g1 = std::move(b1);
  key.b_g2 = std::move(b2);
}

Zkey parse_zkey(const BinFile& file, const ZkeyReadOptions& options) {
  const bool subgroup = options.check_subgroup;
  {
    SectionReader s = file.section(kProtocolSection, "protocol");
    const std::uint64_t at = s.offset();
    const std::uint32_t protocol = s.u32();
    if (protocol != kGroth16Protocol) {
      s.fail_at(at, "protocol " + std::to_string(protocol) + " is not Groth16 (1); PLONK/FFLONK keys are not supported");
    }
    s.expect_end();
  }
  Zkey z;
  groth16::ProvingKey& key = z.key;
  SectionReader header_section = file.section(kZkeyHeaderSection, "header");
  const ZkeyHeader h = read_header(header_section, key.vk, subgroup);
  z.header = h;
  const std::uint64_t num_inputs = std::uint64_t{h.n_public} + 1;

  SectionReader ic = file.section(kIcSection, "IC");
  key.vk.ic = read_points<ec::G1Curve>(ic, num_inputs, "IC", subgroup);
  if (auto problem = groth16::verifying_key_problem(key.vk, options.insecure_key)) {
    throw FormatError(file.name(), "verifying key refused: " + *problem, kIcSection);
  }

  SectionReader coefficients = file.section(kCoefficientSection, "coefficients");
  read_coefficients(coefficients, h, z);

  SectionReader a_section = file.section(kASection, "A");
  auto a = read_points<ec::G1Curve>(a_section, h.n_vars, "A", subgroup);
  SectionReader b1_section = file.section(kB1Section, "B1");
  auto b1 = read_points<ec::G1Curve>(b1_section, h.n_vars, "B1", subgroup);
  SectionReader b2_section = file.section(kB2Section, "B2");
  auto b2 = read_points<ec::G2Curve>(b2_section, h.n_vars, "B2", subgroup);
  build_queries(h, std::move(a), std::move(b1), std::move(b2), key);

  SectionReader c_section = file.section(kCSection, "C");
  key.l = read_points<ec::G1Curve>(c_section, h.n_vars - num_inputs, "C", subgroup);
  SectionReader h_section = file.section(kHSection, "H");
  key.h = read_points<ec::G1Curve>(h_section, h.domain_size, "H", subgroup);
  key.h_query = groth16::HQuery::kSnarkjsOddCoset;
  return z;
}

}  // namespace

Zkey read_zkey(const std::filesystem::path& path, const ZkeyReadOptions& options) {
  const BinFile file = BinFile::open(path, "zkey", 1);
  return file.parse([&] { return parse_zkey(file, options); });
}

Zkey read_zkey(std::shared_ptr<const io::ReadOnlyFile> opened, const ZkeyReadOptions& options) {
  const BinFile file = BinFile::open(std::move(opened), "zkey", 1);
  return file.parse([&] { return parse_zkey(file, options); });
}

}  // namespace zkpipe::formats
