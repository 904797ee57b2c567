#include "groth16/evaluator_file.hpp"

#include <xxhash.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/file_error.hpp"

namespace zkpipe::groth16 {

namespace {

using ff::Fr;
using r1cs::CompiledMatrix;
using r1cs::CompiledR1cs;
using r1cs::DensityBitmap;
using r1cs::Variable;

// The sections hold these byte for byte, and the loader views them in place.
static_assert(sizeof(Variable) == 4 && std::is_trivially_copyable_v<Variable>);
static_assert(sizeof(Fr) == 32 && std::is_trivially_copyable_v<Fr>);

constexpr std::array<char, 8> kMagic = {'Z', 'K', 'P', 'I', 'P', 'E', 'E', 'V'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint64_t kPage = 4096;

// Matrix m ∈ {A, B, C} owns sections 3m, 3m + 1, 3m + 2; density d ∈ {a_aux,
// b_input, b_aux} section kAAuxDensity + d.
enum class Section : std::uint32_t {
  kARowOffsets,
  kAColumns,
  kACoefficients,
  kBRowOffsets,
  kBColumns,
  kBCoefficients,
  kCRowOffsets,
  kCColumns,
  kCCoefficients,
  kCoefficientTable,
  kAAuxDensity,
  kBInputDensity,
  kBAuxDensity,
  kCount
};
constexpr std::size_t kSectionCount = static_cast<std::size_t>(Section::kCount);
constexpr std::array<const char*, kSectionCount> kSectionNames = {
    "a.row_offsets",  "a.columns",       "a.coefficients", "b.row_offsets",  "b.columns",
    "b.coefficients", "c.row_offsets",   "c.columns",      "c.coefficients", "coefficient_table",
    "a_aux_density",  "b_input_density", "b_aux_density"};

Section row_offsets_section(std::size_t matrix) { return static_cast<Section>(3 * matrix); }
Section columns_section(std::size_t matrix) { return static_cast<Section>(3 * matrix + 1); }
Section coefficients_section(std::size_t matrix) { return static_cast<Section>(3 * matrix + 2); }
Section density_section(std::size_t density) {
  return static_cast<Section>(static_cast<std::size_t>(Section::kAAuxDensity) + density);
}
std::size_t index_of(Section s) { return static_cast<std::size_t>(s); }
std::string name_of(Section s) { return kSectionNames[index_of(s)]; }

// Everything the section sizes follow from; also the shape hash's first bytes.
struct Counts {
  std::uint64_t num_inputs;
  std::uint64_t num_aux;
  std::uint64_t num_constraints;
  std::array<std::uint64_t, 3> nonzeros;  // A, B, C
  std::uint64_t table_size;
  std::array<std::uint64_t, 3> density_sizes;  // a_aux, b_input, b_aux, in bits
};
static_assert(std::has_unique_object_representations_v<Counts>, "hashed as bytes: no padding");

struct Header {
  std::array<char, 8> magic;
  std::uint32_t version;
  std::uint32_t fr_size;  // sizeof(Fr): the in-memory layout the table was written with
  Counts counts;
  std::array<char, kEvaluatorCircuitNameBytes> circuit_name;  // NUL-padded
  std::uint64_t shape_hash;
  std::uint64_t key_fingerprint;
  std::uint64_t section_count;
};
static_assert(std::is_trivially_copyable_v<Header> && sizeof(Header) == 184);

struct SectionEntry {
  std::uint32_t id;
  std::uint32_t reserved;  // 0: room for a layout variant without a new version
  std::uint64_t offset;
  std::uint64_t bytes;
  std::uint64_t xxh64;
};
static_assert(sizeof(SectionEntry) == 32);

constexpr std::uint64_t kTableOffset = sizeof(Header);
constexpr std::uint64_t kDataStart = kPage;
static_assert(kTableOffset + kSectionCount * sizeof(SectionEntry) <= kDataStart);

using Payloads = std::array<std::span<const std::uint8_t>, kSectionCount>;

std::uint64_t align_up(std::uint64_t x) { return (x + kPage - 1) / kPage * kPage; }
std::uint64_t density_words(std::uint64_t bits) { return bits / 64 + (bits % 64 != 0 ? 1 : 0); }

template <class T>
std::span<const std::uint8_t> bytes_of(std::span<const T> s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size_bytes()};
}

template <class T>
std::span<const std::uint8_t> bytes_of_value(const T& v) {
  static_assert(std::has_unique_object_representations_v<T>, "hashed as bytes: no padding");
  return bytes_of(std::span<const T>(&v, 1));
}

// Only for sections whose size and alignment the loader has checked.
template <class T>
std::span<const T> view_as(std::span<const std::uint8_t> bytes) {
  return {reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T)};
}

std::string hex(std::uint64_t v) {
  std::array<char, 19> text{};
  std::snprintf(text.data(), text.size(), "0x%016llx", static_cast<unsigned long long>(v));
  return text.data();
}

// Names read from a corrupt file end up in logs: no control bytes.
std::string printable(std::string_view s) {
  std::string out(s);
  std::ranges::replace_if(
      out, [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }, '?');
  return out;
}

std::array<std::uint64_t, kSectionCount> section_sizes(const Counts& c) {
  std::array<std::uint64_t, kSectionCount> sizes{};
  for (std::size_t m = 0; m < 3; ++m) {
    sizes[index_of(row_offsets_section(m))] = (c.num_constraints + 1) * sizeof(std::uint64_t);
    sizes[index_of(columns_section(m))] = c.nonzeros[m] * sizeof(Variable);
    sizes[index_of(coefficients_section(m))] = c.nonzeros[m] * sizeof(std::uint32_t);
  }
  sizes[index_of(Section::kCoefficientTable)] = c.table_size * sizeof(Fr);
  for (std::size_t d = 0; d < 3; ++d) {
    sizes[index_of(density_section(d))] = density_words(c.density_sizes[d]) * sizeof(std::uint64_t);
  }
  return sizes;
}

Counts counts_of(const CompiledR1cs& e) {
  return Counts{e.num_inputs,
                e.num_aux,
                e.num_constraints,
                {e.a.nonzeros(), e.b.nonzeros(), e.c.nonzeros()},
                e.coefficient_table.size(),
                {e.a_aux_density.size(), e.b_input_density.size(), e.b_aux_density.size()}};
}

Payloads payloads_of(const CompiledR1cs& e) {
  Payloads p;
  const std::array<const CompiledMatrix*, 3> matrices = {&e.a, &e.b, &e.c};
  for (std::size_t m = 0; m < 3; ++m) {
    p[index_of(row_offsets_section(m))] = bytes_of(matrices[m]->row_offsets);
    p[index_of(columns_section(m))] = bytes_of(matrices[m]->columns);
    p[index_of(coefficients_section(m))] = bytes_of(matrices[m]->coefficients);
  }
  p[index_of(Section::kCoefficientTable)] = bytes_of(e.coefficient_table);
  const std::array<const DensityBitmap*, 3> densities = {&e.a_aux_density, &e.b_input_density, &e.b_aux_density};
  for (std::size_t d = 0; d < 3; ++d) {
    p[index_of(density_section(d))] = bytes_of(std::span<const std::uint64_t>(densities[d]->words()));
  }
  return p;
}

// xxHash64's streaming state, freed with the object.
class Xxh64Stream {
 public:
  Xxh64Stream() : state_(XXH64_createState()) {
    if (!state_) throw std::bad_alloc();
    XXH64_reset(state_.get(), 0);
  }

  void add(std::span<const std::uint8_t> bytes) {
    if (!bytes.empty()) XXH64_update(state_.get(), bytes.data(), bytes.size());
  }
  template <class T>
  void add_value(const T& v) {
    add(bytes_of_value(v));
  }
  std::uint64_t digest() const { return XXH64_digest(state_.get()); }

 private:
  struct Free {
    void operator()(XXH64_state_t* s) const { XXH64_freeState(s); }
  };
  std::unique_ptr<XXH64_state_t, Free> state_;
};

// One definition for the writer, shape_hash and the loader: the counts, then every
// section's bytes in file order (unambiguous, since the counts fix every size).
std::uint64_t hash_shape(const Counts& counts, const Payloads& payloads) {
  Xxh64Stream h;
  h.add_value(counts);
  for (const auto& p : payloads) h.add(p);
  return h.digest();
}

std::array<std::uint64_t, kSectionCount> checksums_of(const Payloads& payloads) {
  std::array<std::uint64_t, kSectionCount> sums{};
  tbb::parallel_for(std::size_t{0}, kSectionCount,
                    [&](std::size_t i) { sums[i] = XXH64(payloads[i].data(), payloads[i].size(), 0); });
  return sums;
}

// A bitmap that many threads set bits of at once.
class ConcurrentBitmap {
 public:
  explicit ConcurrentBitmap(std::uint64_t bits) : words_(density_words(bits), 0) {}

  void set(std::uint64_t i) {
    std::atomic_ref<std::uint64_t> word(words_[i / 64]);
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    // Most variables appear in many rows: once set, a bit is only read, and the cache
    // line stays shared instead of bouncing between cores on every fetch_or.
    if ((word.load(std::memory_order_relaxed) & bit) == 0) word.fetch_or(bit, std::memory_order_relaxed);
  }

  // Only once the threads setting bits have joined.
  std::span<const std::uint64_t> words() const { return words_; }

 private:
  std::vector<std::uint64_t> words_;
};

// The lowest i < count with refused(i), on all cores; nullopt when there is none.
// Past the first refusal some elements may go unvisited, so side effects of
// `refused` are complete only when this returns nullopt.
template <class Refused>
std::optional<std::uint64_t> first_refused(std::uint64_t count, const Refused& refused) {
  std::atomic<std::uint64_t> first{count};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, count, std::uint64_t{1} << 16), [&](const auto& range) {
    // Anything found here would come after a refusal already known.
    if (range.begin() >= first.load(std::memory_order_relaxed)) return;
    for (std::uint64_t i = range.begin(); i != range.end(); ++i) {
      if (!refused(i)) continue;
      std::uint64_t known = first.load(std::memory_order_relaxed);
      while (i < known && !first.compare_exchange_weak(known, i, std::memory_order_relaxed)) {
      }
      return;
    }
  });
  if (first.load() == count) return std::nullopt;
  return first.load();
}

DensityBitmap density_from_words(std::uint64_t size, std::span<const std::uint64_t> words) {
  DensityBitmap d(size);
  for (std::size_t w = 0; w < words.size(); ++w) {
    for (std::uint64_t bits = words[w]; bits != 0; bits &= bits - 1) {
      d.set(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
    }
  }
  return d;
}

class EvaluatorReader {
 public:
  explicit EvaluatorReader(std::shared_ptr<const io::FileMapping> map)
      : path_(map->name()), map_(std::move(map)), file_(map_->bytes()) {}

  [[noreturn]] void fail(const std::string& what) const { throw EvaluatorFileError(path_ + ": " + what); }

  // A copy: every later check reads these values, not the mapping again.
  Header header() const {
    if (file_.size() < kDataStart) {
      fail("truncated: " + std::to_string(file_.size()) + " bytes, the header and section table need " +
           std::to_string(kDataStart));
    }
    Header h;
    std::memcpy(&h, file_.data(), sizeof h);
    return h;
  }

  std::string circuit_name(const Header& h) const {
    const auto& field = h.circuit_name;
    const auto end = std::ranges::find(field, '\0');
    if (std::any_of(end, field.end(), [](char c) { return c != '\0'; })) {
      fail("circuit name at offset " + std::to_string(offsetof(Header, circuit_name)) + " is not NUL-padded");
    }
    return std::string(field.begin(), end);
  }

  // Bounds every count by what the file's size allows before anything is computed
  // from it: section sizes below cannot overflow, and nothing allocates from a
  // number the file could not back.
  void check_counts(const Counts& c) const {
    const std::uint64_t size = file_.size();
    constexpr std::uint64_t kMaxVariables = std::uint64_t{Variable::kMaxIndex} + 1;
    // A density section holds 8 variables a byte.
    const bool absurd = c.num_inputs > kMaxVariables || c.num_aux > kMaxVariables || c.num_inputs / 8 > size ||
                        c.num_aux / 8 > size || c.num_constraints >= size / sizeof(std::uint64_t) ||
                        c.table_size > size / sizeof(Fr) ||
                        std::ranges::any_of(c.nonzeros, [&](std::uint64_t n) { return n > size / sizeof(Variable); });
    if (absurd) {
      fail("absurd counts in the header at offset " + std::to_string(offsetof(Header, counts)) + " (" +
           std::to_string(c.num_inputs) + " inputs, " + std::to_string(c.num_aux) + " aux, " +
           std::to_string(c.num_constraints) + " constraints, " + std::to_string(c.nonzeros[0]) + "/" +
           std::to_string(c.nonzeros[1]) + "/" + std::to_string(c.nonzeros[2]) + " non-zero entries, " +
           std::to_string(c.table_size) + " table coefficients) for a file of " + std::to_string(size) + " bytes");
    }
    if (c.num_inputs == 0) {
      fail("inconsistent counts at offset " + std::to_string(offsetof(Header, counts)) +
           ": no inputs (the constant ONE is input 0)");
    }
    const std::array<std::uint64_t, 3> expected = {c.num_aux, c.num_inputs, c.num_aux};
    for (std::size_t d = 0; d < 3; ++d) {
      if (c.density_sizes[d] != expected[d]) {
        fail("inconsistent counts at offset " +
             std::to_string(offsetof(Header, counts) + offsetof(Counts, density_sizes) + 8 * d) + ": '" +
             name_of(density_section(d)) + "' covers " + std::to_string(c.density_sizes[d]) +
             " variables, the circuit has " + std::to_string(expected[d]));
      }
    }
  }

  // Every section where the header's counts put it: in table order, page aligned,
  // not overlapping, of the size the counts require and inside the file.
  Payloads locate_sections(const Counts& counts) const {
    const auto sizes = section_sizes(counts);
    Payloads sections;
    std::uint64_t previous_end = kDataStart;
    for (std::size_t i = 0; i < kSectionCount; ++i) {
      const std::uint64_t entry_offset = kTableOffset + i * sizeof(SectionEntry);
      SectionEntry e;
      std::memcpy(&e, file_.data() + entry_offset, sizeof e);
      const std::string name = kSectionNames[i];
      if (e.id != i || e.reserved != 0) {
        fail("section table entry at offset " + std::to_string(entry_offset) + ": expected section '" + name +
             "' (id " + std::to_string(i) + ", reserved field 0), found id " + std::to_string(e.id) +
             " with reserved field " + std::to_string(e.reserved));
      }
      if (e.bytes != sizes[i]) {
        fail("section '" + name + "' holds " + std::to_string(e.bytes) + " bytes, the header's counts require " +
             std::to_string(sizes[i]));
      }
      if (e.offset % kPage != 0 || e.offset < previous_end) {
        fail("section '" + name + "' starts at offset " + std::to_string(e.offset) +
             ", not a page-aligned offset after the previous section (which ends at " + std::to_string(previous_end) +
             ")");
      }
      if (e.offset > file_.size() || e.bytes > file_.size() - e.offset) {
        fail("truncated: section '" + name + "' spans offsets " + std::to_string(e.offset) + ".." +
             std::to_string(e.offset + e.bytes) + " but the file has " + std::to_string(file_.size()) + " bytes");
      }
      sections[i] = file_.subspan(e.offset, e.bytes);
      previous_end = e.offset + e.bytes;
    }
    return sections;
  }

  void verify_checksums(const Payloads& sections) const {
    const auto sums = checksums_of(sections);
    for (std::size_t i = 0; i < kSectionCount; ++i) {
      if (sums[i] != entry(i).xxh64) {
        fail("checksum mismatch in section '" + std::string(kSectionNames[i]) + "' at offset " +
             std::to_string(entry(i).offset) + " (the file is corrupt)");
      }
    }
  }

  // Where element `index` of `size` bytes each lies in the file.
  std::uint64_t offset_of(Section s, std::uint64_t index, std::uint64_t size) const {
    return entry(index_of(s)).offset + index * size;
  }

  [[noreturn]] void fail_at(Section s, std::uint64_t index, std::uint64_t size, const std::string& what) const {
    fail("section '" + name_of(s) + "' at offset " + std::to_string(offset_of(s, index, size)) + ": " + what);
  }

 private:
  SectionEntry entry(std::size_t i) const {
    SectionEntry e;
    std::memcpy(&e, file_.data() + kTableOffset + i * sizeof(SectionEntry), sizeof e);
    return e;
  }

  std::string path_;
  std::shared_ptr<const io::FileMapping> map_;
  std::span<const std::uint8_t> file_;
};

// What the densities must be, marked while the columns are checked: the aux
// variables of A, the inputs and aux variables of B.
struct MarkedDensities {
  ConcurrentBitmap a_aux;
  ConcurrentBitmap b_input;
  ConcurrentBitmap b_aux;
};

void check_row_offsets(const EvaluatorReader& r, std::size_t m, std::span<const std::uint64_t> offsets,
                       std::uint64_t nonzeros) {
  const Section s = row_offsets_section(m);
  const std::uint64_t rows = offsets.size() - 1;
  if (offsets[0] != 0) r.fail_at(s, 0, 8, "the first row offset is " + std::to_string(offsets[0]) + ", not 0");
  if (offsets[rows] != nonzeros) {
    r.fail_at(s, rows, 8,
              "the last row offset is " + std::to_string(offsets[rows]) + ", not the matrix's " +
                  std::to_string(nonzeros) + " non-zero entries");
  }
  // Non-decreasing from 0 to nonzeros: every row's entries lie inside the columns.
  // The product sums a row's small coefficients (|k| ≤ 2^30) in an int64_t, which
  // more than 2^32 entries could overflow.
  constexpr std::uint64_t kMaxRowEntries = std::uint64_t{1} << 32;
  auto refused = [&](std::uint64_t i) {
    return offsets[i] > offsets[i + 1] || offsets[i + 1] - offsets[i] > kMaxRowEntries;
  };
  if (auto i = first_refused(rows, refused)) {
    const std::uint64_t from = offsets[*i];
    const std::uint64_t to = offsets[*i + 1];
    r.fail_at(s, *i + 1, 8,
              "row offset " + std::to_string(*i + 1) + " (" + std::to_string(to) + ") " +
                  (to < from ? "is below the one before it (" + std::to_string(from) + ")"
                             : "gives row " + std::to_string(*i) + " " + std::to_string(to - from) +
                                   " entries, over the 2^32 the product allows"));
  }
}

void check_columns(const EvaluatorReader& r, std::size_t m, std::span<const Variable> columns, const Counts& c,
                   ConcurrentBitmap* input_density, ConcurrentBitmap* aux_density) {
  auto refused = [&](std::uint64_t k) {
    const Variable v = columns[k];
    if (v.is_aux()) {
      if (v.index() >= c.num_aux) return true;
      if (aux_density) aux_density->set(v.index());
    } else {
      if (v.index() >= c.num_inputs) return true;
      if (input_density) input_density->set(v.index());
    }
    return false;
  };
  if (auto k = first_refused(columns.size(), refused)) {
    const Variable v = columns[*k];
    r.fail_at(columns_section(m), *k, sizeof(Variable),
              "entry " + std::to_string(*k) + " refers to " + (v.is_aux() ? "aux" : "input") + " variable " +
                  std::to_string(v.index()) + ", beyond the circuit's " +
                  std::to_string(v.is_aux() ? c.num_aux : c.num_inputs) + (v.is_aux() ? " aux variables" : " inputs"));
  }
}

void check_coefficient_codes(const EvaluatorReader& r, std::size_t m, std::span<const std::uint32_t> codes,
                             std::uint64_t table_size) {
  namespace code = r1cs::coefficient_code;
  auto refused = [&](std::uint64_t k) {
    return !code::is_small(codes[k]) && code::table_index(codes[k]) >= table_size;
  };
  if (auto k = first_refused(codes.size(), refused)) {
    r.fail_at(coefficients_section(m), *k, sizeof(std::uint32_t),
              "entry " + std::to_string(*k) + " refers to coefficient " + std::to_string(code::table_index(codes[*k])) +
                  " of a table of " + std::to_string(table_size));
  }
}

void check_coefficient_table(const EvaluatorReader& r, std::span<const Fr> table) {
  // Arithmetic assumes Montgomery limbs below p; anything else is not a field element.
  auto refused = [&](std::uint64_t i) { return !ff::limbs_less(table[i].mont(), Fr::kModulus); };
  if (auto i = first_refused(table.size(), refused)) {
    r.fail_at(Section::kCoefficientTable, *i, sizeof(Fr),
              "coefficient " + std::to_string(*i) + " is not below the field's modulus");
  }
}

void check_density(const EvaluatorReader& r, std::size_t d, std::span<const std::uint64_t> stored,
                   const ConcurrentBitmap& marked) {
  const auto mismatch = std::ranges::mismatch(stored, marked.words()).in1;
  if (mismatch == stored.end()) return;
  const auto word = static_cast<std::uint64_t>(mismatch - stored.begin());
  const std::uint64_t diff = *mismatch ^ marked.words()[word];
  const std::uint64_t variable = word * 64 + static_cast<std::uint64_t>(std::countr_zero(diff));
  const bool set = ((*mismatch >> (variable % 64)) & 1) != 0;
  static constexpr std::array<const char*, 3> kWhat = {"aux variable", "input", "aux variable"};
  static constexpr std::array<const char*, 3> kMatrix = {"A", "B", "B"};
  r.fail_at(density_section(d), word, sizeof(std::uint64_t),
            std::string("the bit of ") + kWhat[d] + " " + std::to_string(variable) + " is " +
                (set ? "set, but no entry of " + std::string(kMatrix[d]) + " refers to it"
                     : "clear, but entries of " + std::string(kMatrix[d]) + " refer to it"));
}

// Everything the sparse product and the prover index with, so that no file, however
// corrupted, makes them read out of bounds, and the densities equal the matrices'.
void check_structure(const EvaluatorReader& r, const Counts& c, const Payloads& sections) {
  auto section = [&](Section s) { return sections[index_of(s)]; };
  MarkedDensities marked{ConcurrentBitmap(c.num_aux), ConcurrentBitmap(c.num_inputs), ConcurrentBitmap(c.num_aux)};
  const std::array<std::pair<ConcurrentBitmap*, ConcurrentBitmap*>, 3> densities_of = {
      std::pair<ConcurrentBitmap*, ConcurrentBitmap*>{nullptr, &marked.a_aux},
      {&marked.b_input, &marked.b_aux},
      {nullptr, nullptr}};
  for (std::size_t m = 0; m < 3; ++m) {
    check_row_offsets(r, m, view_as<std::uint64_t>(section(row_offsets_section(m))), c.nonzeros[m]);
    check_columns(r, m, view_as<Variable>(section(columns_section(m))), c, densities_of[m].first,
                  densities_of[m].second);
    check_coefficient_codes(r, m, view_as<std::uint32_t>(section(coefficients_section(m))), c.table_size);
  }
  check_coefficient_table(r, view_as<Fr>(section(Section::kCoefficientTable)));
  const std::array<const ConcurrentBitmap*, 3> expected = {&marked.a_aux, &marked.b_input, &marked.b_aux};
  for (std::size_t d = 0; d < 3; ++d) {
    check_density(r, d, view_as<std::uint64_t>(section(density_section(d))), *expected[d]);
  }
}

template <class Point>
void add_point(Xxh64Stream& h, const Point& p) {
  using Field = typename Point::Field;
  // Hashed field by field: the padding after the flag is indeterminate, and an
  // identity's coordinates mean nothing (Affine::operator== ignores them).
  const Field zero{};
  h.add_value(static_cast<std::uint8_t>(p.infinity ? 1 : 0));
  h.add_value(p.infinity ? zero : p.x);
  h.add_value(p.infinity ? zero : p.y);
}

void add_bits(Xxh64Stream& h, const std::vector<bool>& bits) {
  h.add_value(static_cast<std::uint64_t>(bits.size()));
  std::vector<std::uint64_t> words(density_words(bits.size()), 0);
  for (std::size_t i = 0; i < bits.size(); ++i) {
    if (bits[i]) words[i / 64] |= std::uint64_t{1} << (i % 64);
  }
  h.add(bytes_of(std::span<const std::uint64_t>(words)));
}

}  // namespace

std::uint64_t shape_hash(const r1cs::CompiledR1cs& evaluator) {
  return hash_shape(counts_of(evaluator), payloads_of(evaluator));
}

std::uint64_t key_fingerprint(const ProvingKey& key) {
  Xxh64Stream h;
  for (std::uint64_t count : {key.num_inputs(), key.num_aux(), key.domain_size(), static_cast<std::size_t>(key.h_query),
                              key.a.size(), key.b_g1.size(), key.b_g2.size(), key.h.size(), key.l.size()}) {
    h.add_value(count);
  }
  add_bits(h, key.density.a_aux);
  add_bits(h, key.density.b_input);
  add_bits(h, key.density.b_aux);
  const VerifyingKey& vk = key.vk;
  add_point(h, vk.alpha_g1);
  add_point(h, vk.beta_g1);
  add_point(h, vk.beta_g2);
  add_point(h, vk.gamma_g2);
  add_point(h, vk.delta_g1);
  add_point(h, vk.delta_g2);
  h.add_value(static_cast<std::uint64_t>(vk.ic.size()));
  for (const G1Affine& p : vk.ic) add_point(h, p);
  return h.digest();
}

void write_evaluator_file(const std::filesystem::path& path, const r1cs::CompiledR1cs& evaluator,
                          std::string_view circuit_name, std::uint64_t key_fingerprint) {
  auto refuse = [&](const std::string& why) { throw EvaluatorFileError(path.string() + ": cannot write: " + why); };
  if (circuit_name.size() > kEvaluatorCircuitNameBytes || circuit_name.find('\0') != std::string_view::npos) {
    refuse("the circuit name '" + printable(circuit_name) + "' is over " + std::to_string(kEvaluatorCircuitNameBytes) +
           " bytes or holds a NUL");
  }
  const Counts counts = counts_of(evaluator);
  const Payloads payloads = payloads_of(evaluator);
  // What the loader would refuse is not written in the first place.
  const std::array<std::uint64_t, 3> density_expected = {counts.num_aux, counts.num_inputs, counts.num_aux};
  if (counts.num_inputs == 0 || counts.density_sizes != density_expected) {
    refuse("the evaluator's densities do not cover its " + std::to_string(counts.num_inputs) + " inputs and " +
           std::to_string(counts.num_aux) + " aux variables");
  }
  const auto sizes = section_sizes(counts);
  for (std::size_t i = 0; i < kSectionCount; ++i) {
    if (payloads[i].size() != sizes[i]) {
      refuse("the evaluator's '" + std::string(kSectionNames[i]) + "' holds " + std::to_string(payloads[i].size()) +
             " bytes, its counts require " + std::to_string(sizes[i]));
    }
  }

  Header header{};
  header.magic = kMagic;
  header.version = kVersion;
  header.fr_size = sizeof(Fr);
  header.counts = counts;
  std::ranges::copy(circuit_name, header.circuit_name.begin());
  header.key_fingerprint = key_fingerprint;
  header.section_count = kSectionCount;
  std::array<std::uint64_t, kSectionCount> sums{};
  tbb::parallel_invoke([&] { header.shape_hash = hash_shape(counts, payloads); },
                       [&] { sums = checksums_of(payloads); });

  std::array<SectionEntry, kSectionCount> table{};
  std::uint64_t offset = kDataStart;
  for (std::size_t i = 0; i < kSectionCount; ++i) {
    table[i] = {static_cast<std::uint32_t>(i), 0, offset, payloads[i].size(), sums[i]};
    offset = align_up(offset + payloads[i].size());
  }

  try {
    io::AtomicFile out(path);
    out.write(bytes_of_value(header));
    out.write(bytes_of(std::span<const SectionEntry>(table)));
    for (std::size_t i = 0; i < kSectionCount; ++i) {
      out.write_zeros(table[i].offset - out.size());
      out.write(payloads[i]);
    }
    out.commit();
  } catch (const io::FileError& e) {
    throw EvaluatorFileError(e.what());
  }
}

namespace {

r1cs::CompiledR1cs read_evaluator(std::shared_ptr<const io::FileMapping> map, const EvaluatorExpectation& expected,
                                  const EvaluatorLoadOptions& options) {
  const EvaluatorReader r(map);
  const Header h = r.header();
  if (h.magic != kMagic) r.fail("bad magic at offset 0: not a zkpipe evaluator file");
  if (h.version != kVersion) {
    r.fail("unsupported version " + std::to_string(h.version) + " at offset " +
           std::to_string(offsetof(Header, version)) + " (this build reads version " + std::to_string(kVersion) + ")");
  }
  if (h.fr_size != sizeof(Fr)) {
    r.fail("coefficient layout (" + std::to_string(h.fr_size) + " bytes) at offset " +
           std::to_string(offsetof(Header, fr_size)) + " differs from this build's (" + std::to_string(sizeof(Fr)) +
           ")");
  }
  if (h.section_count != kSectionCount) {
    r.fail("header declares " + std::to_string(h.section_count) + " sections at offset " +
           std::to_string(offsetof(Header, section_count)) + ", expected " + std::to_string(kSectionCount));
  }
  // A stale cache is the common refusal: answered before anything large is read.
  const std::string name = r.circuit_name(h);
  if (name != expected.circuit_name) {
    r.fail("built for circuit '" + printable(name) + "', expected '" + printable(expected.circuit_name) + "'");
  }
  if (h.key_fingerprint != expected.key_fingerprint) {
    r.fail("built for another proving key (fingerprint " + hex(h.key_fingerprint) + " at offset " +
           std::to_string(offsetof(Header, key_fingerprint)) + ", expected " + hex(expected.key_fingerprint) + ")");
  }
  const Counts& counts = h.counts;
  r.check_counts(counts);
  const Payloads sections = r.locate_sections(counts);
  if (options.verify_checksums) r.verify_checksums(sections);
  // The shape hash (one sequential pass) alongside the structure checks (all cores);
  // a structural error is the more precise report, so it wins.
  std::optional<std::uint64_t> recomputed;
  tbb::parallel_invoke([&] { check_structure(r, counts, sections); },
                       [&] {
                         if (options.verify_checksums) recomputed = hash_shape(counts, sections);
                       });
  if (recomputed && *recomputed != h.shape_hash) {
    r.fail("shape hash mismatch: the header at offset " + std::to_string(offsetof(Header, shape_hash)) + " says " +
           hex(h.shape_hash) + ", the sections hash to " + hex(*recomputed) + " (the file is corrupt)");
  }

  auto section = [&](Section s) { return sections[index_of(s)]; };
  auto matrix = [&](std::size_t m) {
    return CompiledMatrix{view_as<std::uint64_t>(section(row_offsets_section(m))),
                          view_as<Variable>(section(columns_section(m))),
                          view_as<std::uint32_t>(section(coefficients_section(m)))};
  };
  auto density = [&](std::size_t d) {
    return density_from_words(counts.density_sizes[d], view_as<std::uint64_t>(section(density_section(d))));
  };
  CompiledR1cs e;
  e.num_inputs = counts.num_inputs;
  e.num_aux = counts.num_aux;
  e.num_constraints = counts.num_constraints;
  e.a = matrix(0);
  e.b = matrix(1);
  e.c = matrix(2);
  e.coefficient_table = view_as<Fr>(section(Section::kCoefficientTable));
  e.a_aux_density = density(0);
  e.b_input_density = density(1);
  e.b_aux_density = density(2);
  e.storage = std::move(map);
  e.storage_is_file_mapping = true;
  return e;
}

}  // namespace

r1cs::CompiledR1cs load_evaluator_file(const std::filesystem::path& path, const EvaluatorExpectation& expected,
                                       const EvaluatorLoadOptions& options) {
  std::shared_ptr<const io::FileMapping> mapping;
  try {
    mapping = io::FileMapping::open(path);
  } catch (const io::FileError& e) {
    throw EvaluatorFileError(e.what());
  }
  return load_evaluator_file(mapping, expected, options);
}

r1cs::CompiledR1cs load_evaluator_file(const std::shared_ptr<const io::FileMapping>& mapping,
                                       const EvaluatorExpectation& expected, const EvaluatorLoadOptions& options) {
  // A file truncated while it is read is reported as such, not as what its zeros look like.
  auto expect_undamaged = [&] {
    try {
      mapping->expect_undamaged();
    } catch (const io::FileError& e) {
      throw EvaluatorFileError(e.what());
    }
  };
  try {
    r1cs::CompiledR1cs evaluator = read_evaluator(mapping, expected, options);
    expect_undamaged();
    return evaluator;
  } catch (const EvaluatorFileError&) {
    expect_undamaged();
    throw;
  }
}

}  // namespace zkpipe::groth16
