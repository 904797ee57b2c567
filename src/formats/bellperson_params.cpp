#include "formats/bellperson_params.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "ec/serialization.hpp"
#include "ff/huge_pages.hpp"
#include "formats/bellperson_vk.hpp"
#include "formats/format_error.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/qap.hpp"
#include "io/atomic_file.hpp"
#include "io/file_error.hpp"
#include "poly/evaluation_domain.hpp"

namespace zkpipe::formats {

using groth16::G1Affine;
using groth16::G2Affine;

namespace {

constexpr std::uint64_t kParamsG1Bytes = ec::kUncompressedSize<ec::G1Curve>;
constexpr std::uint64_t kParamsG2Bytes = ec::kUncompressedSize<ec::G2Curve>;
// α₁ β₁ β₂ γ₂ δ₁ δ₂: the verifying key's points before its IC count.
constexpr std::uint64_t kVkPointBytes = 3 * kParamsG1Bytes + 3 * kParamsG2Bytes;
constexpr std::uint64_t kCountBytes = 4;
// Points decoded per task: enough to amortize the scheduling, few enough that the
// cores share a query evenly.
constexpr std::uint64_t kDecodeGrain = 1024;
constexpr std::uint64_t kEncodeChunk = std::uint64_t{1} << 16;

std::uint32_t load_u32_be(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
}

// One query's place in the file: where its count is, how many points follow it.
struct QueryExtent {
  const char* name;
  std::uint64_t count_offset = 0;
  std::uint64_t count = 0;
  std::uint64_t point_bytes = 0;

  std::uint64_t points_offset() const { return count_offset + kCountBytes; }
  std::uint64_t end() const { return points_offset() + count * point_bytes; }
};

// The file's structure from its counts alone, before a point is decoded: every
// count must fit in what remains, and the last query must end the file.
class Layout {
 public:
  Layout(std::span<const std::uint8_t> bytes, const std::string& name) {
    if (bytes.size() < kVkPointBytes + kCountBytes) {
      throw FormatError(name, "truncated: " + std::to_string(bytes.size()) + " bytes, the verifying key's points and IC count need " +
                                  std::to_string(kVkPointBytes + kCountBytes));
    }
    std::uint64_t at = kVkPointBytes;
    for (std::size_t i = 0; i < queries_.size(); ++i) {
      QueryExtent& q = queries_[i];
      q.count_offset = at;
      if (bytes.size() - at < kCountBytes) {
        throw FormatError(name, std::string("expected the u32 count of ") + q.name + ", the file ends", {}, at);
      }
      q.count = load_u32_be(bytes.data() + at);
      const std::uint64_t remaining = bytes.size() - q.points_offset();
      if (q.count * q.point_bytes > remaining) {
        throw FormatError(name, std::string("expected ") + std::to_string(q.count) + " " + q.name + " points (" +
                                    std::to_string(q.count * q.point_bytes) + " bytes), only " +
                                    std::to_string(remaining) + " bytes remain (truncated or a corrupt count)",
                          {}, at);
      }
      at = q.end();
    }
    if (at != bytes.size()) {
      throw FormatError(name, "expected the end of the file after the b_g2 points, found " +
                                  std::to_string(bytes.size() - at) + " more bytes", {}, at);
    }
  }

  const QueryExtent& ic() const { return queries_[0]; }
  const QueryExtent& h() const { return queries_[1]; }
  const QueryExtent& l() const { return queries_[2]; }
  const QueryExtent& a() const { return queries_[3]; }
  const QueryExtent& b_g1() const { return queries_[4]; }
  const QueryExtent& b_g2() const { return queries_[5]; }

 private:
  std::array<QueryExtent, 6> queries_ = {
      QueryExtent{"ic", 0, 0, kParamsG1Bytes},   QueryExtent{"h", 0, 0, kParamsG1Bytes},
      QueryExtent{"l", 0, 0, kParamsG1Bytes},    QueryExtent{"a", 0, 0, kParamsG1Bytes},
      QueryExtent{"b_g1", 0, 0, kParamsG1Bytes}, QueryExtent{"b_g2", 0, 0, kParamsG2Bytes}};
};

// What is wrong with one query point, or nullptr: a failed decoding, or the point
// at infinity (which bellperson never stores in a query).
template <class Curve>
const char* point_problem(std::span<const std::uint8_t> encoded, ec::SubgroupCheck check, ec::Affine<Curve>& out) {
  try {
    out = ec::decode<Curve>(encoded, check);
  } catch (const ec::PointDecodeError& e) {
    return ec::describe(e.error());
  }
  if (out.is_identity()) return "the point at infinity, which a query never holds";
  return nullptr;
}

// Points [begin, begin + out.size()) of a query, decoded into `out` on all cores; the
// error names the first bad one.
template <class Curve>
void decode_points(std::span<const std::uint8_t> file, const QueryExtent& q, std::uint64_t begin,
                   std::span<ec::Affine<Curve>> out, const std::string& name, const BellpersonReadOptions& options) {
  const ec::SubgroupCheck check =
      options.check_subgroup ? ec::SubgroupCheck::kCheck : ec::SubgroupCheck::kSkipForTrustedInput;
  const auto bytes = file.subspan(q.points_offset() + begin * q.point_bytes, out.size() * q.point_bytes);
  std::atomic<std::uint64_t> first_bad{out.size()};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, out.size(), kDecodeGrain), [&](const auto& range) {
    for (std::uint64_t i = range.begin(); i < range.end(); ++i) {
      if (point_problem<Curve>(bytes.subspan(i * q.point_bytes, q.point_bytes), check, out[i]) != nullptr) {
        std::uint64_t seen = first_bad.load();
        while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
        }
        return;
      }
    }
  });
  if (const std::uint64_t i = first_bad.load(); i < out.size()) {
    ec::Affine<Curve> ignored;
    const char* problem = point_problem<Curve>(bytes.subspan(i * q.point_bytes, q.point_bytes), check, ignored);
    throw FormatError(name, std::string(q.name) + " point " + std::to_string(begin + i) + ": " + problem, {},
                      q.points_offset() + (begin + i) * q.point_bytes);
  }
}

template <class Curve>
groth16::PointArray<ec::Affine<Curve>> decode_query(std::span<const std::uint8_t> file, const QueryExtent& q,
                                                    const std::string& name, const BellpersonReadOptions& options) {
  std::vector<ec::Affine<Curve>> points;
  ff::resize_on_huge_pages(points, q.count);
  decode_points<Curve>(file, q, 0, std::span(points), name, options);
  return points;
}

// A query decoded a chunk at a time into one reused buffer, each chunk handed on
// (to the native file's writer) and its pages of the mapping given back.
template <class Curve>
groth16::QueryProducer<ec::Affine<Curve>> chunked_query(const io::FileMapping& mapping, const QueryExtent& q,
                                                        const BellpersonReadOptions& options,
                                                        const std::function<void(std::uint64_t)>& advanced) {
  return {q.count, [&mapping, q, options, advanced](const auto& put) {
            std::vector<ec::Affine<Curve>> chunk;
            const std::uint64_t step = std::max<std::uint64_t>(options.convert_chunk_points, 1);
            for (std::uint64_t begin = 0; begin < q.count; begin += step) {
              chunk.resize(static_cast<std::size_t>(std::min(step, q.count - begin)));
              decode_points<Curve>(mapping.bytes(), q, begin, std::span(chunk), mapping.name(), options);
              put(std::span<const ec::Affine<Curve>>(chunk));
              mapping.release(q.points_offset() + begin * q.point_bytes, chunk.size() * q.point_bytes);
              if (advanced) advanced(chunk.size());
            }
          }};
}

BellpersonParams parse(std::span<const std::uint8_t> bytes, const std::string& name,
                       const BellpersonReadOptions& options) {
  const Layout layout(bytes, name);
  BellpersonParams p;
  // The .vk reader checks the verifying key's points (subgroup included, always)
  // and refuses a degenerate key; its offsets are the file's.
  p.vk = decode_bellperson_vk(bytes.first(layout.ic().end()), name, options.insecure_key);
  p.h = decode_query<ec::G1Curve>(bytes, layout.h(), name, options);
  p.l = decode_query<ec::G1Curve>(bytes, layout.l(), name, options);
  p.a = decode_query<ec::G1Curve>(bytes, layout.a(), name, options);
  p.b_g1 = decode_query<ec::G1Curve>(bytes, layout.b_g1(), name, options);
  p.b_g2 = decode_query<ec::G2Curve>(bytes, layout.b_g2(), name, options);
  return p;
}

std::size_t count_set(const std::vector<bool>& bits) {
  return static_cast<std::size_t>(std::count(bits.begin(), bits.end(), true));
}

// Streams a .params file through an io::AtomicFile (whose errors the caller turns
// into FormatErrors).
class ParamsWriter {
 public:
  explicit ParamsWriter(const std::filesystem::path& path) : path_(path), out_(path) {}

  void bytes(std::span<const std::uint8_t> b) { out_.write(b); }

  void u32(std::uint64_t count, const char* what) {
    if (count > std::numeric_limits<std::uint32_t>::max()) {
      throw FormatError(path_.string(), std::string("cannot write: ") + std::to_string(count) + " " + what +
                                            " points do not fit the format's u32 count");
    }
    const std::array<std::uint8_t, 4> be = {static_cast<std::uint8_t>(count >> 24), static_cast<std::uint8_t>(count >> 16),
                                            static_cast<std::uint8_t>(count >> 8), static_cast<std::uint8_t>(count)};
    bytes(be);
  }

  // The count, then the points uncompressed, encoded a chunk at a time on all cores.
  template <class Curve>
  void query(std::span<const ec::Affine<Curve>> points, const char* what) {
    constexpr std::size_t size = ec::kUncompressedSize<Curve>;
    u32(points.size(), what);
    std::vector<std::uint8_t> buffer;
    for (std::size_t start = 0; start < points.size(); start += kEncodeChunk) {
      const std::size_t n = std::min<std::size_t>(kEncodeChunk, points.size() - start);
      buffer.resize(n * size);
      std::atomic<std::size_t> first_infinity{n};
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, kDecodeGrain), [&](const auto& range) {
        for (std::size_t i = range.begin(); i < range.end(); ++i) {
          const auto& p = points[start + i];
          if (p.is_identity()) {
            std::size_t seen = first_infinity.load();
            while (i < seen && !first_infinity.compare_exchange_weak(seen, i)) {
            }
          }
          const auto e = ec::encode_uncompressed(p);
          std::copy(e.begin(), e.end(), buffer.begin() + static_cast<std::ptrdiff_t>(i * size));
        }
      });
      if (const std::size_t i = first_infinity.load(); i < n) {
        throw FormatError(path_.string(), std::string("cannot write: ") + what + " point " + std::to_string(start + i) +
                                              " is the point at infinity, which bellperson refuses to read");
      }
      bytes(buffer);
    }
  }

  void commit() { out_.commit(); }

 private:
  std::filesystem::path path_;
  io::AtomicFile out_;
};

}  // namespace

BellpersonParams read_bellperson_params(const std::filesystem::path& path, const BellpersonReadOptions& options) {
  std::shared_ptr<const io::FileMapping> mapping;
  try {
    mapping = io::FileMapping::open(path);
  } catch (const io::FileError& e) {
    throw FormatError(path.string(), e.what());
  }
  return read_bellperson_params(mapping, options);
}

BellpersonParams read_bellperson_params(const std::shared_ptr<const io::FileMapping>& mapping,
                                        const BellpersonReadOptions& options) {
  // A file truncated while it is read shows zeros past its new end; that is
  // reported as what happened, not as the bad point the zeros make.
  auto expect_undamaged = [&] {
    try {
      mapping->expect_undamaged();
    } catch (const io::FileError& e) {
      throw FormatError(mapping->name(), e.what());
    }
  };
  try {
    BellpersonParams params = parse(mapping->bytes(), mapping->name(), options);
    expect_undamaged();
    return params;
  } catch (const FormatError&) {
    expect_undamaged();
    throw;
  }
}

CircuitRequirements circuit_requirements(const r1cs::CompiledR1cs& circuit) {
  return {circuit.num_constraints, groth16::query_density(circuit)};
}

CircuitRequirements circuit_requirements(const r1cs::R1csMatrices& circuit) {
  return {circuit.num_constraints(), groth16::query_density(circuit)};
}

BellpersonParamsCounts read_bellperson_params_counts(const std::shared_ptr<const io::FileMapping>& mapping) {
  const Layout layout(mapping->bytes(), mapping->name());
  return {layout.ic().count, layout.h().count,    layout.l().count,
          layout.a().count,  layout.b_g1().count, layout.b_g2().count};
}

groth16::VerifyingKey read_bellperson_params_vk(const std::shared_ptr<const io::FileMapping>& mapping,
                                                groth16::InsecureKey insecure_key) {
  const Layout layout(mapping->bytes(), mapping->name());
  return decode_bellperson_vk(mapping->bytes().first(layout.ic().end()), mapping->name(), insecure_key);
}

void check_params_fit(const BellpersonParamsCounts& counts, const CircuitRequirements& circuit,
                      const std::string& name) {
  const groth16::QueryDensity& d = circuit.density;
  if (d.a_aux.size() != d.b_aux.size()) {
    throw std::invalid_argument("circuit requirements: A and B densities cover " + std::to_string(d.a_aux.size()) +
                                " and " + std::to_string(d.b_aux.size()) + " aux variables");
  }
  auto mismatch = [&](const std::string& what, std::size_t in_file, std::size_t expected) {
    throw FormatError(name, "the parameters do not fit the circuit: " + what + ": the file has " +
                                std::to_string(in_file) + ", the circuit needs " + std::to_string(expected));
  };
  if (counts.ic != circuit.num_inputs()) {
    mismatch("IC points (public inputs + 1 for ONE)", counts.ic, circuit.num_inputs());
  }
  if (counts.l != circuit.num_aux()) mismatch("L points (one per aux variable)", counts.l, circuit.num_aux());
  const std::size_t a_count = circuit.num_inputs() + count_set(d.a_aux);
  if (counts.a != a_count) mismatch("A points (inputs and the aux variables in A)", counts.a, a_count);
  const std::size_t b_count = count_set(d.b_input) + count_set(d.b_aux);
  if (counts.b_g1 != b_count) mismatch("B₁ points (the variables in B)", counts.b_g1, b_count);
  if (counts.b_g2 != b_count) mismatch("B₂ points (the variables in B)", counts.b_g2, b_count);
  const std::size_t domain = poly::EvaluationDomain(std::max<std::size_t>(circuit.num_constraints, 1)).size();
  if (counts.h + 1 != domain) {
    mismatch("H points (domain size − 1, the domain the smallest power of two holding " +
                 std::to_string(circuit.num_constraints) + " constraints)",
             counts.h, domain - 1);
  }
}

groth16::ProvingKey to_proving_key(BellpersonParams params, const CircuitRequirements& circuit,
                                   const std::string& name) {
  check_params_fit({params.vk.ic.size(), params.h.size(), params.l.size(), params.a.size(), params.b_g1.size(),
                    params.b_g2.size()},
                   circuit, name);
  const groth16::QueryDensity& d = circuit.density;
  groth16::ProvingKey key;
  key.vk = std::move(params.vk);
  key.density = d;
  key.a = std::move(params.a);
  key.b_g1 = std::move(params.b_g1);
  key.b_g2 = std::move(params.b_g2);
  key.h = std::move(params.h);
  key.h_query = groth16::HQuery::kMonomial;
  key.l = std::move(params.l);
  return key;
}

void convert_bellperson_params(const std::shared_ptr<const io::FileMapping>& mapping, const CircuitRequirements& circuit,
                               const std::filesystem::path& out, const BellpersonReadOptions& options,
                               const ConvertProgress& progress) {
  const std::string& name = mapping->name();
  auto expect_undamaged = [&] {
    try {
      mapping->expect_undamaged();
    } catch (const io::FileError& e) {
      throw FormatError(name, e.what());
    }
  };
  try {
    const Layout layout(mapping->bytes(), name);
    check_params_fit({layout.ic().count, layout.h().count, layout.l().count, layout.a().count, layout.b_g1().count,
                      layout.b_g2().count},
                     circuit, name);
    const std::uint64_t total =
        layout.h().count + layout.l().count + layout.a().count + layout.b_g1().count + layout.b_g2().count;
    std::uint64_t done = 0;
    auto advanced = [&](std::uint64_t points) {
      done += points;
      if (progress) progress(done, total);
    };
    groth16::StreamedKey key;
    key.subgroup_checked = options.check_subgroup;
    key.vk = decode_bellperson_vk(mapping->bytes().first(layout.ic().end()), name, options.insecure_key);
    key.density = circuit.density;
    key.h_query = groth16::HQuery::kMonomial;
    key.a = chunked_query<ec::G1Curve>(*mapping, layout.a(), options, advanced);
    key.b_g1 = chunked_query<ec::G1Curve>(*mapping, layout.b_g1(), options, advanced);
    key.b_g2 = chunked_query<ec::G2Curve>(*mapping, layout.b_g2(), options, advanced);
    key.h = chunked_query<ec::G1Curve>(*mapping, layout.h(), options, advanced);
    key.l = chunked_query<ec::G1Curve>(*mapping, layout.l(), options, advanced);
    groth16::write_parameter_file(out, key);
    expect_undamaged();
  } catch (const FormatError&) {
    expect_undamaged();
    throw;
  }
}

void write_bellperson_params(const std::filesystem::path& path, const groth16::ProvingKey& key) {
  if (key.h_query != groth16::HQuery::kMonomial) {
    throw FormatError(path.string(), "cannot write: the key's H query is in snarkjs's odd-coset layout; "
                                     "bellperson's holds τ^j·Z(τ)/δ");
  }
  try {
    ParamsWriter out(path);
    out.bytes(encode_bellperson_vk(key.vk));
    out.query<ec::G1Curve>(key.h.span(), "h");
    out.query<ec::G1Curve>(key.l.span(), "l");
    out.query<ec::G1Curve>(key.a.span(), "a");
    out.query<ec::G1Curve>(key.b_g1.span(), "b_g1");
    out.query<ec::G2Curve>(key.b_g2.span(), "b_g2");
    out.commit();
  } catch (const io::FileError& e) {
    throw FormatError(e.file(), e.reason());
  }
}

void write_bellperson_vk(const std::filesystem::path& path, const groth16::VerifyingKey& vk) {
  try {
    io::write_file_atomically(path, encode_bellperson_vk(vk));
  } catch (const io::FileError& e) {
    throw FormatError(e.file(), e.reason());
  }
}

}  // namespace zkpipe::formats
