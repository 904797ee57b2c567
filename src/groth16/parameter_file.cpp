#include "groth16/parameter_file.hpp"

#include <xxhash.h>

#include <array>
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

#include "groth16/key_validation.hpp"
#include "groth16/stored_points.hpp"
#include "io/atomic_file.hpp"
#include "io/file_error.hpp"

namespace zkpipe::groth16 {

namespace {

constexpr std::array<char, 8> kMagic = {'Z', 'K', 'P', 'I', 'P', 'E', 'P', 'K'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kCurveBls12_381 = 1;
constexpr std::uint64_t kPage = 4096;
// In a bulk point section's variant, above its layout (the low 16 bits): every point
// in it was checked to lie in the prime-order subgroup before it was written.
constexpr std::uint32_t kSubgroupChecked = std::uint32_t{1} << 16;
constexpr std::uint32_t kLayoutBits = kSubgroupChecked - 1;

enum class Section : std::uint32_t { kVkPoints, kIc, kDensity, kA, kBG1, kBG2, kH, kL, kCount };
constexpr std::size_t kSectionCount = static_cast<std::size_t>(Section::kCount);
constexpr std::array<const char*, kSectionCount> kSectionNames = {"vk_points", "ic", "density", "a",
                                                                  "b_g1",      "b_g2", "h",     "l"};

struct VkPoints {
  G1Affine alpha_g1;
  G1Affine beta_g1;
  G2Affine beta_g2;
  G2Affine gamma_g2;
  G1Affine delta_g1;
  G2Affine delta_g2;
};

struct Header {
  std::array<char, 8> magic;
  std::uint32_t version;
  std::uint32_t curve;
  std::uint32_t g1_size;  // sizeof(G1Affine): the in-memory layout the file was written with
  std::uint32_t g2_size;
  std::uint64_t num_inputs;
  std::uint64_t num_aux;
  std::uint64_t domain_size;
  std::uint64_t a_count;
  std::uint64_t b_count;  // b_g1 and b_g2 alike
  std::uint64_t h_count;
  std::uint64_t section_count;
};

struct SectionEntry {
  std::uint32_t id;
  // How the section's contents are laid out where there is a choice: the H section's
  // HQuery; 0 for every other section (and for H in files that predate the choice).
  // A bulk point section's also carries kSubgroupChecked.
  std::uint32_t variant;
  std::uint64_t offset;
  std::uint64_t bytes;
  std::uint64_t xxh64;
};

constexpr std::uint64_t kTableOffset = sizeof(Header);
constexpr std::uint64_t kDataStart = kPage;
static_assert(kTableOffset + kSectionCount * sizeof(SectionEntry) <= kDataStart);

std::uint64_t align_up(std::uint64_t x) { return (x + kPage - 1) / kPage * kPage; }

// Density bitmaps as one byte per variable: a_aux, then b_input, then b_aux.
std::vector<std::uint8_t> density_bytes(const QueryDensity& d) {
  std::vector<std::uint8_t> out;
  for (const auto* bits : {&d.a_aux, &d.b_input, &d.b_aux}) {
    for (bool b : *bits) out.push_back(b ? 1 : 0);
  }
  return out;
}

// Points as the file holds them: their bytes with the padding after the infinity flag
// zeroed. In memory it is whatever was there, so written as it is the same key would
// not give the same file, and the process's old memory would leak into it.
template <class Point, class Sink>
void put_points(std::span<const Point> points, const Sink& sink) {
  static_assert(std::is_standard_layout_v<Point> && std::is_trivially_copyable_v<Point>);
  constexpr std::size_t kFlagEnd = offsetof(Point, infinity) + sizeof(bool);
  constexpr std::size_t kRun = 4096;
  std::vector<std::uint8_t> bytes(std::min(kRun, points.size()) * sizeof(Point));
  for (std::size_t start = 0; start < points.size(); start += kRun) {
    const std::size_t n = std::min(kRun, points.size() - start);
    std::memcpy(bytes.data(), points.data() + start, n * sizeof(Point));
    for (std::size_t i = 0; i < n; ++i) {
      std::memset(bytes.data() + i * sizeof(Point) + kFlagEnd, 0, sizeof(Point) - kFlagEnd);
    }
    sink(std::span<const std::uint8_t>(bytes.data(), n * sizeof(Point)));
  }
}

class Reader {
 public:
  explicit Reader(std::shared_ptr<const io::FileMapping> map) : path_(map->name()), map_(std::move(map)) {}

  [[noreturn]] void fail(const std::string& what) const { throw ParameterFileError(path_ + ": " + what); }

  const Header& header() const {
    if (map_->bytes().size() < kDataStart) {
      fail("truncated: " + std::to_string(map_->bytes().size()) + " bytes, the header and section table need " +
           std::to_string(kDataStart));
    }
    return *reinterpret_cast<const Header*>(map_->bytes().data());
  }

  const SectionEntry& entry(Section s) const {
    const auto* table = reinterpret_cast<const SectionEntry*>(map_->bytes().data() + kTableOffset);
    return table[static_cast<std::size_t>(s)];
  }

  // The section's bytes after checking its place, size and checksum.
  std::span<const std::uint8_t> section(Section s, std::uint64_t expected_bytes, bool verify) const {
    const SectionEntry& e = entry(s);
    const std::string name = kSectionNames[static_cast<std::size_t>(s)];
    const std::uint64_t entry_offset = kTableOffset + static_cast<std::uint64_t>(s) * sizeof(SectionEntry);
    if (e.id != static_cast<std::uint32_t>(s)) {
      fail("section table entry at offset " + std::to_string(entry_offset) + ": expected section '" + name +
           "' (id " + std::to_string(static_cast<std::uint32_t>(s)) + "), found id " + std::to_string(e.id));
    }
    if (e.bytes != expected_bytes) {
      fail("section '" + name + "' holds " + std::to_string(e.bytes) + " bytes, the header's counts require " +
           std::to_string(expected_bytes));
    }
    if (e.offset % kPage != 0 || e.offset < kDataStart) {
      fail("section '" + name + "' starts at offset " + std::to_string(e.offset) +
           ", not a page-aligned offset after the header");
    }
    if (e.offset > map_->bytes().size() || e.bytes > map_->bytes().size() - e.offset) {
      fail("truncated: section '" + name + "' spans offsets " + std::to_string(e.offset) + ".." +
           std::to_string(e.offset + e.bytes) + " but the file has " + std::to_string(map_->bytes().size()) + " bytes");
    }
    std::span<const std::uint8_t> bytes(map_->bytes().data() + e.offset, e.bytes);
    if (verify && XXH64(bytes.data(), bytes.size(), 0) != e.xxh64) {
      fail("checksum mismatch in section '" + name + "' at offset " + std::to_string(e.offset) +
           " (the file is corrupt)");
    }
    return bytes;
  }

  template <class T>
  PointArray<T> points(Section s, std::uint64_t count, const LoadOptions& options) const {
    auto bytes = section(s, count * sizeof(T), options.verify_checksums);
    if (options.check_points) check_points<T>(s, bytes, 0, "point");
    return PointArray<T>::file_mapped(std::span<const T>(reinterpret_cast<const T*>(bytes.data()), count), map_);
  }

  // `bytes` lies in section s, `at` bytes from its start; `what` names the points.
  template <class T>
  void check_points(Section s, std::span<const std::uint8_t> bytes, std::uint64_t at, const std::string& what) const {
    const auto bad = first_malformed_point<T>(bytes);
    if (!bad) return;
    const std::uint64_t offset = entry(s).offset + at + *bad * sizeof(T);
    std::string point = what;
    if (bytes.size() != sizeof(T)) point.append(" ").append(std::to_string(*bad));
    fail("section '" + std::string(kSectionNames[static_cast<std::size_t>(s)]) + "' at offset " +
         std::to_string(offset) + ": " + point +
         " is malformed (infinity flag not 0/1, a coordinate not below p, or not on the curve)");
  }

 private:
  std::string path_;
  std::shared_ptr<const io::FileMapping> map_;
};

template <class T>
void check_vk_point(const Reader& r, std::span<const std::uint8_t> vk_bytes, std::size_t at, const char* name) {
  r.check_points<T>(Section::kVkPoints, vk_bytes.subspan(at, sizeof(T)), at, name);
}

ProvingKey read_parameters(const std::shared_ptr<const io::FileMapping>& map, const LoadOptions& options);

}  // namespace

void write_parameter_file(const std::filesystem::path& path, const ProvingKey& key, bool subgroup_checked) {
  auto whole = [](const auto& points) {
    using T = typename std::remove_cvref_t<decltype(points)>::value_type;
    return QueryProducer<T>{points.size(), [span = points.span()](const auto& put) { put(span); }};
  };
  write_parameter_file(path, StreamedKey{subgroup_checked, key.vk, key.density, key.h_query, whole(key.a),
                                         whole(key.b_g1), whole(key.b_g2), whole(key.h), whole(key.l)});
}

void write_parameter_file(const std::filesystem::path& path, const StreamedKey& key) {
  const VerifyingKey& vk = key.vk;
  static_assert(sizeof(VkPoints) == 3 * sizeof(G1Affine) + 3 * sizeof(G2Affine), "VkPoints has no gaps");
  const std::vector<std::uint8_t> density = density_bytes(key.density);

  Header header{};
  header.magic = kMagic;
  header.version = kVersion;
  header.curve = kCurveBls12_381;
  header.g1_size = sizeof(G1Affine);
  header.g2_size = sizeof(G2Affine);
  header.num_inputs = vk.num_inputs();
  header.num_aux = key.l.count;
  header.domain_size = key.h_query == HQuery::kMonomial ? key.h.count + 1 : key.h.count;
  header.a_count = key.a.count;
  header.b_count = key.b_g1.count;
  header.h_count = key.h.count;
  header.section_count = kSectionCount;

  std::array<SectionEntry, kSectionCount> table{};
  try {
    io::AtomicFile out(path);
    out.write_zeros(kDataStart);
    // Each section page-aligned, its checksum taken as its bytes go out.
    auto section = [&](Section s, std::uint32_t variant, const auto& write_payload) {
      out.write_zeros(align_up(out.size()) - out.size());
      const std::uint64_t offset = out.size();
      XXH64_state_t* state = XXH64_createState();
      if (state == nullptr) throw std::bad_alloc();
      const std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)> owned(state, &XXH64_freeState);
      XXH64_reset(state, 0);
      write_payload([&](std::span<const std::uint8_t> bytes) {
        XXH64_update(state, bytes.data(), bytes.size());
        out.write(bytes);
      });
      table[static_cast<std::size_t>(s)] = {static_cast<std::uint32_t>(s), variant, offset, out.size() - offset,
                                            XXH64_digest(state)};
    };
    auto bytes = [&](std::span<const std::uint8_t> payload) {
      return [payload](const auto& sink) { sink(payload); };
    };
    auto query = [&](const auto& producer, Section s) {
      using T = typename std::remove_cvref_t<decltype(producer)>::PointType;
      return [&producer, s, &path](const auto& sink) {
        std::uint64_t put = 0;
        producer.produce([&](std::span<const T> points) {
          put += points.size();
          if (put > producer.count) return;
          put_points(points, sink);
        });
        if (put != producer.count) {
          throw ParameterFileError(path.string() + ": cannot write: the query '" +
                                   kSectionNames[static_cast<std::size_t>(s)] + "' gave " + std::to_string(put) +
                                   " points, not " + std::to_string(producer.count));
        }
      };
    };
    section(Section::kVkPoints, 0, [&](const auto& sink) {
      const std::array<G1Affine, 3> g1{vk.alpha_g1, vk.beta_g1, vk.delta_g1};
      const std::array<G2Affine, 3> g2{vk.beta_g2, vk.gamma_g2, vk.delta_g2};
      // VkPoints' order: α₁, β₁, β₂, γ₂, δ₁, δ₂.
      put_points(std::span(g1).first(2), sink);
      put_points(std::span(g2).first(2), sink);
      put_points(std::span(g1).last(1), sink);
      put_points(std::span(g2).last(1), sink);
    });
    section(Section::kIc, 0, [&](const auto& sink) { put_points(std::span<const G1Affine>(vk.ic), sink); });
    section(Section::kDensity, 0, bytes(std::span<const std::uint8_t>(density)));
    const std::uint32_t checked = key.subgroup_checked ? kSubgroupChecked : 0;
    section(Section::kA, checked, query(key.a, Section::kA));
    section(Section::kBG1, checked, query(key.b_g1, Section::kBG1));
    section(Section::kBG2, checked, query(key.b_g2, Section::kBG2));
    section(Section::kH, checked | static_cast<std::uint32_t>(key.h_query), query(key.h, Section::kH));
    section(Section::kL, checked, query(key.l, Section::kL));

    std::vector<std::uint8_t> head(kDataStart, 0);
    std::memcpy(head.data(), &header, sizeof header);
    std::memcpy(head.data() + kTableOffset, table.data(), sizeof table);
    out.overwrite(0, head);
    out.commit();
  } catch (const io::FileError& e) {
    throw ParameterFileError(e.what());
  }
}

bool points_subgroup_checked(const io::FileMapping& mapping) {
  const std::span<const std::uint8_t> bytes = mapping.bytes();
  if (bytes.size() < kDataStart) return false;
  const auto* table = reinterpret_cast<const SectionEntry*>(bytes.data() + kTableOffset);
  for (Section s : {Section::kA, Section::kBG1, Section::kBG2, Section::kH, Section::kL}) {
    if ((table[static_cast<std::size_t>(s)].variant & kSubgroupChecked) == 0) return false;
  }
  return true;
}

bool is_parameter_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<char, kMagic.size()> magic{};
  return in.read(magic.data(), magic.size()) && magic == kMagic;
}

ProvingKey load_parameter_file(const std::filesystem::path& path, const LoadOptions& options) {
  std::shared_ptr<const io::FileMapping> mapping;
  try {
    mapping = io::FileMapping::open(path);
  } catch (const io::FileError& e) {
    throw ParameterFileError(e.what());
  }
  return load_parameter_file(mapping, options);
}

ProvingKey load_parameter_file(const std::shared_ptr<const io::FileMapping>& mapping, const LoadOptions& options) {
  // A file truncated while it is read is reported as such, not as what its zeros look like.
  auto expect_undamaged = [&] {
    try {
      mapping->expect_undamaged();
    } catch (const io::FileError& e) {
      throw ParameterFileError(e.what());
    }
  };
  try {
    ProvingKey key = read_parameters(mapping, options);
    expect_undamaged();
    return key;
  } catch (const ParameterFileError&) {
    expect_undamaged();
    throw;
  }
}

namespace {

ProvingKey read_parameters(const std::shared_ptr<const io::FileMapping>& map, const LoadOptions& options) {
  const Reader r(map);
  const Header& h = r.header();
  if (h.magic != kMagic) r.fail("bad magic at offset 0: not a zkpipe parameter file");
  if (h.version != kVersion) {
    r.fail("unsupported version " + std::to_string(h.version) + " at offset 8 (this build reads version " +
           std::to_string(kVersion) + ")");
  }
  if (h.curve != kCurveBls12_381) r.fail("curve id " + std::to_string(h.curve) + " at offset 12 is not BLS12-381");
  if (h.g1_size != sizeof(G1Affine) || h.g2_size != sizeof(G2Affine)) {
    r.fail("point layout (G1 " + std::to_string(h.g1_size) + " bytes, G2 " + std::to_string(h.g2_size) +
           ") differs from this build's (" + std::to_string(sizeof(G1Affine)) + ", " +
           std::to_string(sizeof(G2Affine)) + ")");
  }
  if (h.section_count != kSectionCount) {
    r.fail("header declares " + std::to_string(h.section_count) + " sections, expected " +
           std::to_string(kSectionCount));
  }
  const std::uint32_t h_variant = r.entry(Section::kH).variant & kLayoutBits;
  if (h_variant != static_cast<std::uint32_t>(HQuery::kMonomial) &&
      h_variant != static_cast<std::uint32_t>(HQuery::kSnarkjsOddCoset)) {
    r.fail("section table entry of 'h' at offset " +
           std::to_string(kTableOffset + static_cast<std::uint64_t>(Section::kH) * sizeof(SectionEntry)) +
           ": unknown H query layout " + std::to_string(h_variant));
  }
  const auto h_query = static_cast<HQuery>(h_variant);
  if (h.domain_size == 0 || (h.domain_size & (h.domain_size - 1)) != 0 ||
      h.h_count != h_query_size(h_query, h.domain_size)) {
    r.fail("inconsistent counts: domain size " + std::to_string(h.domain_size) + " with " +
           std::to_string(h.h_count) + " H points (expected a power of two and " +
           (h_query == HQuery::kMonomial ? "N − 1" : "N") + " points)");
  }
  // 2^40 points would be a 100 TiB file: larger counts are corruption, and bounding
  // them keeps every size computed below far from overflow.
  constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 40;
  if (h.num_inputs > kMaxCount || h.num_aux > kMaxCount || h.domain_size > kMaxCount) {
    r.fail("absurd counts in the header (" + std::to_string(h.num_inputs) + " inputs, " +
           std::to_string(h.num_aux) + " aux, domain " + std::to_string(h.domain_size) + ")");
  }
  if (h.num_inputs == 0 || h.a_count < h.num_inputs || h.a_count > h.num_inputs + h.num_aux ||
      h.b_count > h.num_inputs + h.num_aux) {
    r.fail("inconsistent counts: " + std::to_string(h.a_count) + " A points and " + std::to_string(h.b_count) +
           " B points for " + std::to_string(h.num_inputs) + " inputs and " + std::to_string(h.num_aux) +
           " aux variables");
  }
  // Every count is now bounded by the file's own size through the section checks,
  // so nothing below allocates from an unchecked number.
  const bool verify = options.verify_checksums;
  ProvingKey key;
  auto vk_bytes = r.section(Section::kVkPoints, sizeof(VkPoints), verify);
  // The few verifying-key points are always checked, whatever the options.
  check_vk_point<G1Affine>(r, vk_bytes, offsetof(VkPoints, alpha_g1), "vk_alpha_1");
  check_vk_point<G1Affine>(r, vk_bytes, offsetof(VkPoints, beta_g1), "vk_beta_1");
  check_vk_point<G2Affine>(r, vk_bytes, offsetof(VkPoints, beta_g2), "vk_beta_2");
  check_vk_point<G2Affine>(r, vk_bytes, offsetof(VkPoints, gamma_g2), "vk_gamma_2");
  check_vk_point<G1Affine>(r, vk_bytes, offsetof(VkPoints, delta_g1), "vk_delta_1");
  check_vk_point<G2Affine>(r, vk_bytes, offsetof(VkPoints, delta_g2), "vk_delta_2");
  VkPoints vk_points;
  std::memcpy(&vk_points, vk_bytes.data(), sizeof vk_points);
  key.vk.alpha_g1 = vk_points.alpha_g1;
  key.vk.beta_g1 = vk_points.beta_g1;
  key.vk.beta_g2 = vk_points.beta_g2;
  key.vk.gamma_g2 = vk_points.gamma_g2;
  key.vk.delta_g1 = vk_points.delta_g1;
  key.vk.delta_g2 = vk_points.delta_g2;
  auto ic_bytes = r.section(Section::kIc, h.num_inputs * sizeof(G1Affine), verify);
  r.check_points<G1Affine>(Section::kIc, ic_bytes, 0, "IC point");
  key.vk.ic.resize(h.num_inputs);
  std::memcpy(static_cast<void*>(key.vk.ic.data()), ic_bytes.data(), ic_bytes.size());
  if (auto problem = verifying_key_problem(key.vk, options.insecure_key)) r.fail("verifying key refused: " + *problem);

  auto density = r.section(Section::kDensity, h.num_aux + h.num_inputs + h.num_aux, verify);
  if (auto bad = std::ranges::find_if(density, [](std::uint8_t b) { return b > 1; }); bad != density.end()) {
    r.fail("section 'density' at offset " + std::to_string(r.entry(Section::kDensity).offset + (bad - density.begin())) +
           ": byte " + std::to_string(*bad) + " where a density bit (0 or 1) was expected");
  }
  auto to_bits = [](std::span<const std::uint8_t> bytes) { return std::vector<bool>(bytes.begin(), bytes.end()); };
  key.density.a_aux = to_bits(density.subspan(0, h.num_aux));
  key.density.b_input = to_bits(density.subspan(h.num_aux, h.num_inputs));
  key.density.b_aux = to_bits(density.subspan(h.num_aux + h.num_inputs, h.num_aux));
  auto popcount = [](const std::vector<bool>& bits) { return static_cast<std::uint64_t>(std::count(bits.begin(), bits.end(), true)); };
  if (h.a_count != h.num_inputs + popcount(key.density.a_aux) ||
      h.b_count != popcount(key.density.b_input) + popcount(key.density.b_aux)) {
    r.fail("inconsistent counts: the density section does not match the A/B point counts");
  }

  key.a = r.points<G1Affine>(Section::kA, h.a_count, options);
  key.b_g1 = r.points<G1Affine>(Section::kBG1, h.b_count, options);
  key.b_g2 = r.points<G2Affine>(Section::kBG2, h.b_count, options);
  key.h = r.points<G1Affine>(Section::kH, h.h_count, options);
  key.h_query = h_query;
  key.l = r.points<G1Affine>(Section::kL, h.num_aux, options);
  return key;
}

}  // namespace

}  // namespace zkpipe::groth16
