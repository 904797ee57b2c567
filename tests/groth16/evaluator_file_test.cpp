// The evaluator file (groth16/evaluator_file.hpp): compiled PoRep-like circuits
// written and mapped back exactly, and every kind of damage or mismatch refused
// with a message naming where it is.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "groth16/cpu_prover.hpp"
#include "groth16/evaluator_file.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "circuits/porep_like/porep_circuit.hpp"
#include "r1cs/sparse_product.hpp"

namespace zkpipe::groth16 {
namespace {

namespace fs = std::filesystem;
using r1cs::CompiledMatrix;
using r1cs::CompiledR1cs;
using porep_like::find_preset;
using porep_like::PorepLikeCircuit;

constexpr std::uint64_t kSeed = 11;
constexpr std::size_t kPartitions = 1;
constexpr std::uint64_t kFingerprint = 0x0123456789abcdef;

const PorepLikeCircuit& circuit(const std::string& preset) {
  static std::map<std::string, PorepLikeCircuit> circuits;
  auto it = circuits.find(preset);
  if (it == circuits.end()) it = circuits.try_emplace(preset, find_preset(preset), kSeed, kPartitions).first;
  return it->second;
}

const CompiledR1cs& compiled(const std::string& preset) {
  static std::map<std::string, CompiledR1cs> cache;
  auto it = cache.find(preset);
  if (it == cache.end()) it = cache.emplace(preset, compile_circuit(circuit(preset))).first;
  return it->second;
}

// A directory of its own per test (pid + test name), removed afterwards.
fs::path test_directory() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "-" + info->name();
  std::ranges::replace(name, '/', '_');
  const fs::path dir = fs::temp_directory_path() / ("zkpipe-evaluator-" + std::to_string(::getpid()) + "-" + name);
  fs::create_directories(dir);
  return dir;
}

template <class T>
bool same_elements(std::span<const T> x, std::span<const T> y) {
  return std::ranges::equal(x, y);
}

void expect_equal_matrices(const CompiledMatrix& x, const CompiledMatrix& y) {
  EXPECT_TRUE(same_elements(x.row_offsets, y.row_offsets));
  EXPECT_TRUE(same_elements(x.columns, y.columns));
  EXPECT_TRUE(same_elements(x.coefficients, y.coefficients));
}

bool page_aligned(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 4096 == 0; }

class EvaluatorFileRoundTrip : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override { dir_ = test_directory(); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_P(EvaluatorFileRoundTrip, EveryArrayAndTheProductAreEqual) {
  const CompiledR1cs& original = compiled(GetParam());
  const std::string name = circuit(GetParam()).name();
  const fs::path path = dir_ / "evaluator.zkev";
  write_evaluator_file(path, original, name, kFingerprint);
  EXPECT_FALSE(fs::exists(path.string() + ".partial"));

  const CompiledR1cs loaded = load_evaluator_file(path, {name, kFingerprint});
  EXPECT_EQ(loaded.num_inputs, original.num_inputs);
  EXPECT_EQ(loaded.num_aux, original.num_aux);
  EXPECT_EQ(loaded.num_constraints, original.num_constraints);
  expect_equal_matrices(loaded.a, original.a);
  expect_equal_matrices(loaded.b, original.b);
  expect_equal_matrices(loaded.c, original.c);
  EXPECT_TRUE(same_elements(loaded.coefficient_table, original.coefficient_table));
  EXPECT_EQ(loaded.a_aux_density.size(), original.a_aux_density.size());
  EXPECT_EQ(loaded.a_aux_density.words(), original.a_aux_density.words());
  EXPECT_EQ(loaded.b_input_density.size(), original.b_input_density.size());
  EXPECT_EQ(loaded.b_input_density.words(), original.b_input_density.words());
  EXPECT_EQ(loaded.b_aux_density.size(), original.b_aux_density.size());
  EXPECT_EQ(loaded.b_aux_density.words(), original.b_aux_density.words());
  EXPECT_EQ(shape_hash(loaded), shape_hash(original));

  // Used in place: the spans view the mapping, not a copy.
  EXPECT_NE(loaded.a.columns.data(), original.a.columns.data());
  for (const CompiledMatrix* m : {&loaded.a, &loaded.b, &loaded.c}) {
    EXPECT_TRUE(page_aligned(m->row_offsets.data()));
    EXPECT_TRUE(page_aligned(m->columns.data()));
    EXPECT_TRUE(page_aligned(m->coefficients.data()));
  }
  EXPECT_TRUE(page_aligned(loaded.coefficient_table.data()));

  const r1cs::WitnessValues values = circuit(GetParam()).synthesize_values(0);
  const r1cs::AbcVectors expected = r1cs::evaluate_abc(original, values.inputs, values.aux);
  const r1cs::AbcVectors actual = r1cs::evaluate_abc(loaded, values.inputs, values.aux);
  EXPECT_TRUE(actual.a == expected.a);
  EXPECT_TRUE(actual.b == expected.b);
  EXPECT_TRUE(actual.c == expected.c);

  EvaluatorLoadOptions trusting;
  trusting.verify_checksums = false;
  EXPECT_TRUE(same_elements(load_evaluator_file(path, {name, kFingerprint}, trusting).c.columns, original.c.columns));
}

INSTANTIATE_TEST_SUITE_P(EvaluatorPresets, EvaluatorFileRoundTrip, ::testing::Values("tiny", "2e16"),
                         [](const auto& info) { return std::string(info.param); });

// The file's layout (evaluator_file.cpp): header counts at 16 (num_inputs, num_aux,
// num_constraints, nnz A/B/C at 40/48/56, table size at 64, density sizes), circuit
// name at 96, shape hash at 160, key fingerprint at 168; section table at 184, entry
// i holding id (+0), offset (+8), bytes (+16), xxh64 (+24).
constexpr std::size_t kNumAuxAt = 24;
constexpr std::size_t kNonzerosAt = 40;
constexpr std::size_t kTableAt = 184;
constexpr std::size_t kEntryBytes = 32;
enum SectionIndex : int {
  kARowOffsets = 0,
  kAColumns = 1,
  kACoefficients = 2,
  kBRowOffsets = 3,
  kCoefficientTable = 9,
  kAAuxDensity = 10,
  kBAuxDensity = 12,
};

class EvaluatorFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_directory();
    path_ = dir_ / "tiny.zkev";
    write_evaluator_file(path_, evaluator(), name(), kFingerprint);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static const CompiledR1cs& evaluator() { return compiled("tiny"); }
  static std::string name() { return circuit("tiny").name(); }

  std::vector<char> read_all() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  void write_all(const std::vector<char>& bytes) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

  // The load error's message, or "" when the load succeeds.
  std::string load_error(const EvaluatorExpectation& expected, const EvaluatorLoadOptions& options = {}) const {
    try {
      load_evaluator_file(path_, expected, options);
    } catch (const EvaluatorFileError& e) {
      return e.what();
    }
    return "";
  }
  std::string load_error(const EvaluatorLoadOptions& options = {}) const {
    return load_error({name(), kFingerprint}, options);
  }

  template <class T>
  static T word_at(const std::vector<char>& bytes, std::size_t at) {
    T v{};
    std::memcpy(&v, bytes.data() + at, sizeof v);
    return v;
  }
  template <class T>
  static void put_at(std::vector<char>& bytes, std::size_t at, T v) {
    std::memcpy(bytes.data() + at, &v, sizeof v);
  }
  static std::uint64_t section_offset(const std::vector<char>& bytes, int section) {
    return word_at<std::uint64_t>(bytes, kTableAt + kEntryBytes * section + 8);
  }
  static std::uint64_t section_bytes(const std::vector<char>& bytes, int section) {
    return word_at<std::uint64_t>(bytes, kTableAt + kEntryBytes * section + 16);
  }
  // Recomputes a section's checksum, as a forger would.
  static void reseal(std::vector<char>& bytes, int section) {
    const std::uint64_t sum = XXH64(bytes.data() + section_offset(bytes, section), section_bytes(bytes, section), 0);
    put_at(bytes, kTableAt + kEntryBytes * section + 24, sum);
  }

  fs::path dir_;
  fs::path path_;
};

TEST_F(EvaluatorFile, MissingFile) {
  fs::remove(path_);
  EXPECT_NE(load_error().find(path_.string() + ": cannot open"), std::string::npos) << load_error();
}

TEST_F(EvaluatorFile, Truncated) {
  auto bytes = read_all();
  bytes.resize(bytes.size() - 100);
  write_all(bytes);
  EXPECT_NE(load_error().find("truncated: section 'b_aux_density'"), std::string::npos) << load_error();
  bytes.resize(100);
  write_all(bytes);
  EXPECT_NE(load_error().find("truncated: 100 bytes"), std::string::npos) << load_error();
  bytes.clear();
  write_all(bytes);
  EXPECT_NE(load_error().find("truncated: 0 bytes"), std::string::npos) << load_error();
}

TEST_F(EvaluatorFile, BadMagicAndVersion) {
  auto bytes = read_all();
  bytes[0] = 'X';
  write_all(bytes);
  EXPECT_NE(load_error().find(path_.string() + ": bad magic at offset 0"), std::string::npos) << load_error();
  bytes[0] = 'Z';
  bytes[8] = 9;
  write_all(bytes);
  EXPECT_NE(load_error().find("unsupported version 9 at offset 8"), std::string::npos) << load_error();
}

// Bit 30 of a column: the variable's index jumps past 2^30, beyond any tiny circuit.
TEST_F(EvaluatorFile, FlippedBitIsAChecksumMismatchAndAnOutOfRangeColumnWhateverTheChecksum) {
  auto bytes = read_all();
  const std::uint64_t columns = section_offset(bytes, kAColumns);
  constexpr std::uint64_t kEntry = 5;
  bytes[columns + 4 * kEntry + 3] ^= 0x40;
  write_all(bytes);
  EXPECT_NE(load_error().find("checksum mismatch in section 'a.columns' at offset " + std::to_string(columns)),
            std::string::npos)
      << load_error();

  const std::string structural =
      "section 'a.columns' at offset " + std::to_string(columns + 4 * kEntry) + ": entry 5 refers to ";
  EvaluatorLoadOptions trusting;
  trusting.verify_checksums = false;
  EXPECT_NE(load_error(trusting).find(structural), std::string::npos) << load_error(trusting);
  reseal(bytes, kAColumns);
  write_all(bytes);
  EXPECT_NE(load_error().find(structural), std::string::npos) << load_error();
  EXPECT_NE(load_error(trusting).find(structural), std::string::npos) << load_error(trusting);
}

TEST_F(EvaluatorFile, DecreasingRowOffsetsRefused) {
  auto bytes = read_all();
  const std::uint64_t offsets = section_offset(bytes, kBRowOffsets);
  put_at(bytes, offsets + 8 * 2, word_at<std::uint64_t>(bytes, offsets + 8 * 3) + 1);
  reseal(bytes, kBRowOffsets);
  write_all(bytes);
  EXPECT_NE(
      load_error().find("section 'b.row_offsets' at offset " + std::to_string(offsets + 8 * 3) + ": row offset 3"),
      std::string::npos)
      << load_error();
}

TEST_F(EvaluatorFile, LastRowOffsetOtherThanTheNonzerosRefused) {
  auto bytes = read_all();
  const std::uint64_t offsets = section_offset(bytes, kARowOffsets);
  const std::uint64_t last = offsets + 8 * evaluator().num_constraints;
  put_at(bytes, last, word_at<std::uint64_t>(bytes, last) + 1);
  reseal(bytes, kARowOffsets);
  write_all(bytes);
  EXPECT_NE(load_error().find("section 'a.row_offsets' at offset " + std::to_string(last) + ": the last row offset"),
            std::string::npos)
      << load_error();
}

TEST_F(EvaluatorFile, CoefficientCodeBeyondTheTableRefused) {
  const auto table_size = static_cast<std::uint32_t>(evaluator().coefficient_table.size());
  auto bytes = read_all();
  const std::uint64_t codes = section_offset(bytes, kACoefficients);
  put_at(bytes, codes + 4 * 7, r1cs::coefficient_code::of_table_index(table_size));
  reseal(bytes, kACoefficients);
  write_all(bytes);
  EXPECT_NE(load_error().find("section 'a.coefficients' at offset " + std::to_string(codes + 4 * 7) +
                              ": entry 7 refers to coefficient " + std::to_string(table_size)),
            std::string::npos)
      << load_error();
}

TEST_F(EvaluatorFile, DensityThatDisagreesWithTheMatricesRefused) {
  const auto& words = evaluator().a_aux_density.words();
  const auto set = std::ranges::find_if(words, [](std::uint64_t w) { return w != 0; });
  ASSERT_NE(set, words.end());
  const auto word = static_cast<std::size_t>(set - words.begin());
  const std::size_t variable = word * 64 + static_cast<std::size_t>(std::countr_zero(*set));
  auto bytes = read_all();
  const std::uint64_t at = section_offset(bytes, kAAuxDensity) + 8 * word;
  put_at(bytes, at, *set & (*set - 1));  // the lowest set bit cleared
  reseal(bytes, kAAuxDensity);
  write_all(bytes);
  EXPECT_NE(load_error().find("section 'a_aux_density' at offset " + std::to_string(at) + ": the bit of aux variable " +
                              std::to_string(variable) + " is clear"),
            std::string::npos)
      << load_error();
}

// A forger who reseals a section but not the header's shape hash; the change keeps
// the coefficient below p, so nothing structural catches it.
TEST_F(EvaluatorFile, ShapeHashMismatchRefusedWhenVerifying) {
  ASSERT_FALSE(evaluator().coefficient_table.empty());
  auto bytes = read_all();
  bytes[section_offset(bytes, kCoefficientTable)] ^= 0x01;
  reseal(bytes, kCoefficientTable);
  write_all(bytes);
  EXPECT_NE(load_error().find("shape hash mismatch"), std::string::npos) << load_error();
  EvaluatorLoadOptions trusting;
  trusting.verify_checksums = false;
  EXPECT_EQ(load_error(trusting), "");
}

TEST_F(EvaluatorFile, AbsurdCountsDoNotAllocate) {
  auto bytes = read_all();
  put_at(bytes, kNumAuxAt, std::uint64_t{0x7f7f7f7f7f7f7f7f});
  write_all(bytes);
  EXPECT_NE(load_error().find("absurd counts in the header at offset 16"), std::string::npos) << load_error();
  bytes = read_all();
  put_at(bytes, kNumAuxAt, evaluator().num_aux);
  put_at(bytes, kNonzerosAt + 8, std::uint64_t{1} << 40);  // B's non-zero entries
  write_all(bytes);
  EXPECT_NE(load_error().find("absurd counts"), std::string::npos) << load_error();
}

TEST_F(EvaluatorFile, SectionOutOfPlaceOrOfTheWrongSizeRefused) {
  const auto original = read_all();
  auto bytes = original;
  const std::uint64_t columns = section_offset(bytes, kAColumns);
  put_at(bytes, kTableAt + kEntryBytes * kAColumns + 8, columns + 8);
  write_all(bytes);
  EXPECT_NE(load_error().find("section 'a.columns' starts at offset " + std::to_string(columns + 8)), std::string::npos)
      << load_error();
  // Back over the section before it: aligned, but overlapping.
  bytes = original;
  put_at(bytes, kTableAt + kEntryBytes * kAColumns + 8, section_offset(bytes, kARowOffsets));
  write_all(bytes);
  EXPECT_NE(load_error().find("section 'a.columns' starts at offset"), std::string::npos) << load_error();
  bytes = original;
  put_at(bytes, kTableAt + kEntryBytes * kBAuxDensity + 16, section_bytes(bytes, kBAuxDensity) - 8);
  write_all(bytes);
  EXPECT_NE(load_error().find("section 'b_aux_density' holds"), std::string::npos) << load_error();
}

TEST_F(EvaluatorFile, WrongCircuitNameRefused) {
  const std::string err = load_error({"porep-like/2e16", kFingerprint});
  EXPECT_NE(err.find(path_.string() + ": built for circuit '" + name() + "', expected 'porep-like/2e16'"),
            std::string::npos)
      << err;
}

TEST_F(EvaluatorFile, WrongKeyFingerprintRefused) {
  const std::string err = load_error({name(), kFingerprint + 1});
  EXPECT_NE(err.find(path_.string() + ": built for another proving key"), std::string::npos) << err;
}

TEST_F(EvaluatorFile, FifoAndDeviceRefusedWithoutBlocking) {
  const fs::path fifo = dir_ / "evaluator.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    load_evaluator_file(fifo, {name(), kFingerprint});
    ADD_FAILURE() << "a FIFO was accepted";
  } catch (const EvaluatorFileError& e) {
    EXPECT_NE(std::string(e.what()).find(fifo.string() + ": not a regular file"), std::string::npos) << e.what();
  }
  EXPECT_THROW(load_evaluator_file("/dev/zero", {name(), kFingerprint}), EvaluatorFileError);
}

TEST_F(EvaluatorFile, OverlongNameRefusedAndNothingWritten) {
  const fs::path other = dir_ / "other.zkev";
  EXPECT_THROW(write_evaluator_file(other, evaluator(), std::string(65, 'x'), kFingerprint), EvaluatorFileError);
  EXPECT_FALSE(fs::exists(other));
  EXPECT_FALSE(fs::exists(other.string() + ".partial"));
  // Exactly the field's size fits.
  const std::string longest(kEvaluatorCircuitNameBytes, 'y');
  write_evaluator_file(other, evaluator(), longest, kFingerprint);
  EXPECT_EQ(load_evaluator_file(other, {longest, kFingerprint}).num_constraints, evaluator().num_constraints);
}

TEST_F(EvaluatorFile, RewriteReplacesTheFileWhileAnEarlierLoadStaysValid) {
  const CompiledR1cs before = load_evaluator_file(path_, {name(), kFingerprint});
  write_evaluator_file(path_, evaluator(), name(), kFingerprint + 1);
  EXPECT_NE(load_error().find("built for another proving key"), std::string::npos);
  EXPECT_NO_THROW(load_evaluator_file(path_, {name(), kFingerprint + 1}));
  // The rename left the first file's inode, and so the earlier mapping, untouched.
  EXPECT_TRUE(same_elements(before.b.columns, evaluator().b.columns));
}

// The fingerprint binds the cached evaluator to one setup, and survives the key's
// round trip through the parameter file.
TEST(EvaluatorKeyFingerprint, StableAcrossTheParameterFileAndDistinctPerSetup) {
  const PorepLikeCircuit& tiny = circuit("tiny");
  const r1cs::R1csMatrices matrices = record_matrices(tiny);
  const ProvingKey key = setup(matrices, ToxicWaste::from_seed(4));
  const ProvingKey other = setup(matrices, ToxicWaste::from_seed(5));
  EXPECT_EQ(key_fingerprint(key), key_fingerprint(key));
  EXPECT_NE(key_fingerprint(key), key_fingerprint(other));

  const fs::path dir = test_directory();
  write_parameter_file(dir / "key.zkp", key);
  const ProvingKey loaded_key = load_parameter_file(dir / "key.zkp");
  EXPECT_EQ(key_fingerprint(loaded_key), key_fingerprint(key));

  // End to end: the cached evaluator proves under the key it was bound to.
  write_evaluator_file(dir / "tiny.zkev", compiled("tiny"), tiny.name(), key_fingerprint(key));
  const auto evaluator = std::make_shared<const CompiledR1cs>(
      load_evaluator_file(dir / "tiny.zkev", {tiny.name(), key_fingerprint(loaded_key)}));
  EXPECT_THROW(load_evaluator_file(dir / "tiny.zkev", {tiny.name(), key_fingerprint(other)}), EvaluatorFileError);
  PartitionWitness witness = synthesize_witness(tiny, 0, evaluator);
  CpuProver cpu;
  const Proof proof = prove(cpu, std::move(witness), loaded_key, Blinding::random());
  EXPECT_TRUE(verify(PreparedVerifyingKey(loaded_key.vk), proof, tiny.public_inputs(0)));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace zkpipe::groth16
