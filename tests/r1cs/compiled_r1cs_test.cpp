// The pre-compiled evaluator against the two references: ProvingAssignment (which
// evaluates every linear combination while synthesizing) and the plain CSR product
// over (variable, Fr) matrices. Random circuits cover every coefficient class (±1,
// small, the 2^30 boundary, wide, zero) against every value class (0, 1, small,
// wide, p − 1).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/recording_system.hpp"
#include "r1cs/shape_system.hpp"
#include "r1cs/sparse_product.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::r1cs {
namespace {

Fr signed_fr(std::int64_t k) {
  const Fr m = Fr::from_u64(static_cast<std::uint64_t>(k < 0 ? -k : k));
  return k < 0 ? -m : m;
}

Fr random_coefficient(std::mt19937_64& rng) {
  switch (rng() % 9) {
    case 0: return Fr::one();
    case 1: return -Fr::one();
    case 2: return signed_fr(static_cast<std::int64_t>(rng() % 1000) - 500);
    case 3: return Fr::from_u64(std::uint64_t{1} << (rng() % 36));  // bit-packing weights, past 2^30
    case 4: return signed_fr(std::int64_t{1} << 30);                  // the inline limit, both signs
    case 5: return signed_fr(-(std::int64_t{1} << 30));
    case 6: return signed_fr((std::int64_t{1} << 30) + 1);            // just past it
    case 7: return Fr::zero();
    default: return Fr::random(rng);
  }
}

Fr random_value(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0:
    case 1: return Fr::zero();
    case 2:
    case 3: return Fr::one();
    case 4: return -Fr::one();
    default: return rng() % 2 ? Fr::from_u64(rng() % 100) : Fr::random(rng);
  }
}

// A random circuit: the same structure for every seed of values; rows of 0 to 40
// terms over inputs and aux, with repeated variables.
void synthesize_random(ConstraintSystem& cs, std::uint64_t value_seed) {
  std::mt19937_64 shape(99);
  std::mt19937_64 values(value_seed);
  std::vector<Variable> vars{Variable::one()};
  for (int i = 0; i < 5; ++i) {
    const Fr v = random_value(values);
    vars.push_back(cs.alloc_input([&] { return v; }));
  }
  for (int i = 0; i < 300; ++i) {
    const Fr v = random_value(values);
    vars.push_back(cs.alloc([&] { return v; }));
  }
  auto random_lc = [&] {
    LC lc;
    const std::size_t terms = shape() % 41;
    for (std::size_t t = 0; t < terms; ++t) lc.add(random_coefficient(shape), vars[shape() % vars.size()]);
    return lc;
  };
  for (int i = 0; i < 500; ++i) {
    const LC a = random_lc();
    const LC b = random_lc();
    const LC c = random_lc();
    cs.enforce(a, b, c);
  }
}

TEST(CompiledR1cs, ProductEqualsBothReferencesOnRandomCircuits) {
  CompilingSystem compiler;
  synthesize_random(compiler, 1);
  const CompiledR1cs compiled = std::move(compiler).finish();
  RecordingSystem recorder;
  synthesize_random(recorder, 1);
  const R1csMatrices& plain = recorder.matrices();
  ASSERT_EQ(compiled.num_constraints, plain.num_constraints());
  ASSERT_EQ(compiled.nonzeros(), plain.a.nonzeros() + plain.b.nonzeros() + plain.c.nonzeros());
  EXPECT_GT(compiled.coefficient_table.size(), 0u);

  for (std::uint64_t seed : {2, 3, 4}) {
    ProvingAssignment pa;
    synthesize_random(pa, seed);
    WitnessSystem ws;
    synthesize_random(ws, seed);
    const std::vector<Fr> aux = ws.aux_values();
    const AbcVectors fast = evaluate_abc(compiled, Assignment{ws.inputs(), aux});
    const AbcVectors slow = evaluate_abc(plain, Assignment{ws.inputs(), aux});
    EXPECT_TRUE(fast.a == pa.a() && fast.b == pa.b() && fast.c == pa.c()) << "seed " << seed;
    EXPECT_TRUE(fast.a == slow.a && fast.b == slow.b && fast.c == slow.c) << "seed " << seed;
    EXPECT_EQ(compiled.a_aux_density.words(), pa.a_aux_density().words());
    EXPECT_EQ(compiled.b_input_density.words(), pa.b_input_density().words());
    EXPECT_EQ(compiled.b_aux_density.words(), pa.b_aux_density().words());
  }
}

TEST(CompiledR1cs, CoefficientCodesRoundTrip) {
  CompilingSystem compiler;
  const Variable x = compiler.alloc([] { return Fr::one(); });
  std::mt19937_64 rng(5);
  LC lc;
  for (int i = 0; i < 200; ++i) lc.add(random_coefficient(rng), x);
  compiler.enforce(lc, LC(), LC());
  const CompiledR1cs c = std::move(compiler).finish();
  ASSERT_EQ(c.a.nonzeros(), lc.size());
  for (std::size_t k = 0; k < lc.size(); ++k) {
    EXPECT_EQ(coefficient_code::decode(c.a.coefficients[k], c.coefficient_table), lc.terms()[k].coeff) << k;
  }
  // Small integers are inline, wide ones share table entries.
  EXPECT_TRUE(coefficient_code::is_small(c.a.coefficients[0]) || lc.terms()[0].coeff != Fr::one());
  EXPECT_LT(c.coefficient_table.size(), lc.size());
}

TEST(CompiledR1cs, WrongAssignmentSizeIsRefused) {
  CompilingSystem compiler;
  synthesize_random(compiler, 1);
  const CompiledR1cs compiled = std::move(compiler).finish();
  const std::vector<Fr> inputs(6, Fr::one());
  const std::vector<Fr> aux(299, Fr::one());
  EXPECT_THROW(evaluate_abc(compiled, Assignment{inputs, aux}), std::invalid_argument);
}

// The compact form against the full values it packs, across word boundaries, and
// its builder against packing after the fact (bits, wide values, appended segments).
TEST(CompactValues, PacksExpandsAndAppendsExactly) {
  std::mt19937_64 rng(11);
  std::vector<Fr> values(1000);
  for (Fr& v : values) v = random_value(rng);
  const CompactValues packed = CompactValues::of(values);
  EXPECT_EQ(packed.expand(), values);
  for (std::size_t i = 0; i < values.size(); ++i) ASSERT_EQ(packed[i], values[i]) << i;

  // Built in pieces: single values, runs of bits, and another builder at an odd offset.
  CompactValues::Builder head;
  CompactValues::Builder tail;
  for (std::size_t i = 0; i < 333; ++i) head.append(values[i]);
  for (std::size_t i = 333; i < values.size(); ++i) tail.append(values[i]);
  head.append(std::move(tail));
  EXPECT_EQ(std::move(head).finish().expand(), values);

  CompactValues::Builder bits;
  bits.append_bits(0b1011, 4);
  bits.append(Fr::from_u64(5));
  bits.append_bits(~std::uint64_t{0}, 64);
  const CompactValues b = std::move(bits).finish();
  ASSERT_EQ(b.size(), 69u);
  EXPECT_EQ(b[0], Fr::one());
  EXPECT_EQ(b[2], Fr::zero());
  EXPECT_EQ(b[4], Fr::from_u64(5));
  EXPECT_EQ(b[68], Fr::one());
  const auto wide = std::count_if(values.begin(), values.end(), [](const Fr& v) { return !v.is_zero() && !v.is_one(); });
  EXPECT_EQ(packed.wide_values().size(), static_cast<std::size_t>(wide));
}

// A builder sized for a partition's aux (the hint the engine passes) whose values
// are mostly bits: the ledger is charged for what the values take, not for the wide
// values reserved for the hint (a 2^27 PoRep partition would count 4 GiB for its 54 MB).
TEST(CompactValues, BytesCountTheWideValuesWrittenNotTheHint) {
  constexpr std::size_t kHint = std::size_t{1} << 20;
  CompactValues::Builder builder(kHint);
  for (std::size_t i = 0; i < kHint; i += 64) builder.append_bits(0b101, 64);
  builder.append(Fr::from_u64(7));
  const CompactValues values = std::move(builder).finish();
  const std::size_t words = (values.size() + 63) / 64;
  EXPECT_EQ(values.wide_values().size(), 1u);
  EXPECT_LT(values.bytes(), 3 * words * sizeof(std::uint64_t) + sizeof(Fr));
  EXPECT_EQ(values[values.size() - 1], Fr::from_u64(7));
}

// Equal matrices entry by entry (the coefficients by value: a table's order may
// differ), and equal counts and densities.
void expect_same(const CompiledR1cs& x, const CompiledR1cs& y) {
  ASSERT_EQ(x.num_inputs, y.num_inputs);
  ASSERT_EQ(x.num_aux, y.num_aux);
  ASSERT_EQ(x.num_constraints, y.num_constraints);
  const std::pair<const CompiledMatrix*, const CompiledMatrix*> matrices[] = {{&x.a, &y.a}, {&x.b, &y.b}, {&x.c, &y.c}};
  for (const auto& [m, n] : matrices) {
    ASSERT_TRUE(std::ranges::equal(m->row_offsets, n->row_offsets));
    ASSERT_TRUE(std::ranges::equal(m->columns, n->columns));
    ASSERT_EQ(m->coefficients.size(), n->coefficients.size());
    for (std::size_t k = 0; k < m->coefficients.size(); ++k) {
      ASSERT_EQ(coefficient_code::decode(m->coefficients[k], x.coefficient_table),
                coefficient_code::decode(n->coefficients[k], y.coefficient_table))
          << k;
    }
  }
  EXPECT_EQ(x.a_aux_density.words(), y.a_aux_density.words());
  EXPECT_EQ(x.b_input_density.words(), y.b_input_density.words());
  EXPECT_EQ(x.b_aux_density.words(), y.b_aux_density.words());
}

// A circuit made of one part synthesized three times in a row, against the part
// synthesized once and two compiled copies of it appended: the same compiled form,
// and the same a, b, c for a witness of the whole.
TEST(CompiledR1cs, AppendedCopiesOfASegmentEqualTheSerialCompile) {
  CompilingSystem serial;
  for (int k = 0; k < 3; ++k) synthesize_random(serial, 1);
  const CompiledR1cs expected = std::move(serial).finish();

  CompilingSystem head;
  synthesize_random(head, 1);
  const std::unique_ptr<ConstraintSystem> part = head.new_segment();
  synthesize_random(*part, 1);
  head.append_segment(*part, 2);
  EXPECT_EQ(head.num_inputs(), expected.num_inputs);
  EXPECT_EQ(head.num_aux(), expected.num_aux);
  const CompiledR1cs appended = std::move(head).finish();
  expect_same(appended, expected);

  ProvingAssignment pa;
  WitnessSystem ws;
  for (std::uint64_t seed : {5, 6, 7}) {
    synthesize_random(pa, seed);
    synthesize_random(ws, seed);
  }
  const AbcVectors abc = evaluate_abc(appended, Assignment{ws.inputs(), ws.aux_values()});
  EXPECT_TRUE(abc.a == pa.a() && abc.b == pa.b() && abc.c == pa.c());
}

TEST(CompiledR1cs, OnlyASegmentIsAppendedAndASegmentIsNotFinished) {
  CompilingSystem head;
  CompilingSystem whole;
  synthesize_random(whole, 1);
  EXPECT_THROW(head.append_segment(whole, 1), std::invalid_argument);
  ShapeSystem counted;
  EXPECT_THROW(head.append_segment(*counted.new_segment(), 1), std::invalid_argument);
  CompilingSystem part{CompilingSystem::Segment{}};
  EXPECT_THROW(std::move(part).finish(), std::logic_error);
  EXPECT_EQ(WitnessSystem().new_segment(), nullptr);
  EXPECT_THROW(WitnessSystem().append_segment(part, 1), std::logic_error);
}

// The counting system's segments: the counts and densities of three parts in a row.
TEST(ShapeSystem, AppendedCopiesOfASegmentCountAsTheSerialSynthesis) {
  ShapeSystem serial;
  for (int k = 0; k < 3; ++k) synthesize_random(serial, 1);
  ShapeSystem head;
  synthesize_random(head, 1);
  const std::unique_ptr<ConstraintSystem> part = head.new_segment();
  synthesize_random(*part, 1);
  head.append_segment(*part, 2);
  EXPECT_EQ(head.num_constraints(), serial.num_constraints());
  EXPECT_EQ(head.num_inputs(), serial.num_inputs());
  EXPECT_EQ(head.num_aux(), serial.num_aux());
  EXPECT_EQ(head.nonzeros(), serial.nonzeros());
  EXPECT_EQ(head.a_input_density().words(), serial.a_input_density().words());
  EXPECT_EQ(head.b_input_density().words(), serial.b_input_density().words());
  EXPECT_EQ(head.a_aux_density().words(), serial.a_aux_density().words());
  EXPECT_EQ(head.b_aux_density().words(), serial.b_aux_density().words());
}

}  // namespace
}  // namespace zkpipe::r1cs
