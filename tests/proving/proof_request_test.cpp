#include "proving/proof_request.hpp"

#include <gtest/gtest.h>

#include "engine/engine.hpp"
#include "formats/fixtures.hpp"
#include "io/bounded_read.hpp"
#include "formats/r1cs_file.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/snarkjs_witness.hpp"
#include "formats/wtns_file.hpp"
#include "formats/zkey_file.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "io/read_only_file.hpp"
#include "proving/evaluator_cache.hpp"
#include "tiny_key.hpp"

namespace zkpipe::proving {
namespace {

using testing::ScratchDir;
using testing::tiny_circuit;
using testing::tiny_key;

// Fixed per partition, so that two paths' proofs compare bit for bit.
groth16::Blinding blinding_of(std::size_t partition) {
  return {ff::Fr::from_u64(11 + partition), ff::Fr::from_u64(97 + 3 * partition)};
}

engine::Engine cpu_engine() {
  return engine::Engine({.synthesis_workers = 2}, {std::make_shared<groth16::CpuProver>()});
}

std::vector<groth16::Proof> prove(engine::Engine& eng, engine::ProofRequest request) {
  request.blinding = blinding_of;
  return eng.submit(std::move(request)).get().proofs;
}

TEST(PresetRequest, DescribesEveryPartitionOfTheCircuit) {
  engine::Engine eng = cpu_engine();
  const auto circuit = tiny_circuit(3, 3);
  groth16::CpuProver cpu;
  const PreparedRequest prepared = preset_request(request_basis(eng.make_resident(tiny_key(5)), cpu), circuit);
  EXPECT_EQ(prepared.request.partitions, 3u);
  EXPECT_EQ(prepared.request.label, circuit->name());
  EXPECT_EQ(prepared.public_signals, nullptr);
  const groth16::PartitionFootprint expected =
      groth16::PartitionFootprint::of(groth16::CircuitShape::of(*tiny_key(5)), cpu);
  EXPECT_EQ(prepared.request.footprint.total(), expected.total());
  eng.shutdown(engine::ShutdownMode::drain);
}

// The engine's proofs are the backend's own for the same witness and blinding, and
// the check accepts each partition's proof for that partition only.
TEST(PresetRequest, ProvesWhatTheBackendProvesAndChecksEachPartition) {
  engine::Engine eng = cpu_engine();
  const auto key = tiny_key(5);
  const auto circuit = tiny_circuit(7, 2);
  groth16::CpuProver cpu;
  PreparedRequest prepared = preset_request(request_basis(eng.make_resident(key), cpu), circuit);
  const PartitionCheck check = prepared.check;
  const std::vector<groth16::Proof> proofs = prove(eng, std::move(prepared.request));
  eng.shutdown(engine::ShutdownMode::drain);
  ASSERT_EQ(proofs.size(), 2u);
  for (std::size_t p = 0; p < 2; ++p) {
    EXPECT_EQ(proofs[p], groth16::prove(cpu, groth16::synthesize_witness(*circuit, p), *key, blinding_of(p)));
  }
  EXPECT_TRUE(check(0, proofs[0]));
  EXPECT_TRUE(check(1, proofs[1]));
  EXPECT_FALSE(check(0, proofs[1]));
  EXPECT_FALSE(check(1, proofs[0]));
}

// Through the key's evaluator (the pce path) the proofs are the same, bit for bit.
TEST(PresetRequest, TheEvaluatorPathGivesTheSameProofs) {
  ScratchDir dir;
  engine::Engine eng = cpu_engine();
  const auto key = tiny_key(5);
  const auto circuit = tiny_circuit(7, 2);
  groth16::CpuProver cpu;
  const auto evaluator = load_or_compile_evaluator(dir.path() / "key.zkp", *key, *circuit).evaluator;
  PreparedRequest direct = preset_request(request_basis(eng.make_resident(key), cpu), circuit);
  PreparedRequest compiled = preset_request(request_basis(eng.make_resident(key, evaluator), cpu), circuit);
  EXPECT_EQ(compiled.request.footprint.total(),
            groth16::PartitionFootprint::of_deferred(groth16::CircuitShape::of(*key), cpu).total());
  EXPECT_EQ(prove(eng, std::move(compiled.request)), prove(eng, std::move(direct.request)));
  eng.shutdown(engine::ShutdownMode::drain);
}

// The tiny circuit, declaring every private value wide (as the PoSt circuit does).
class WideTinyCircuit final : public r1cs::PartitionedCircuit {
 public:
  std::string name() const override { return inner_->name(); }
  std::size_t partitions() const override { return inner_->partitions(); }
  void synthesize(r1cs::ConstraintSystem& cs, std::size_t partition) const override {
    inner_->synthesize(cs, partition);
  }
  std::vector<ff::Fr> public_inputs(std::size_t partition) const override { return inner_->public_inputs(partition); }
  std::size_t wide_aux_bound(std::size_t aux) const override { return aux; }

 private:
  std::shared_ptr<const r1cs::PartitionedCircuit> inner_ = tiny_circuit();
};

// A deferred witness stores its wide values in full: a request reserves as many as
// its circuit expects, and charges them to a partition in synthesis. A full witness
// counts every value already.
TEST(PresetRequest, ADeferredWitnessReservesTheWideValuesItsCircuitExpects) {
  ScratchDir dir;
  engine::Engine eng = cpu_engine();
  const auto key = tiny_key(5);
  const auto circuit = std::make_shared<const WideTinyCircuit>();
  groth16::CpuProver cpu;
  const auto evaluator = load_or_compile_evaluator(dir.path() / "key.zkp", *key, *circuit).evaluator;
  const groth16::CircuitShape shape = groth16::CircuitShape::of(*key);
  const groth16::PartitionFootprint deferred = groth16::PartitionFootprint::of_deferred(shape, cpu);
  const std::size_t wide = sizeof(ff::Fr) * key->num_aux();

  const PreparedRequest compiled = preset_request(request_basis(eng.make_resident(key, evaluator), cpu), circuit);
  EXPECT_EQ(compiled.request.footprint.wide, wide);
  EXPECT_EQ(compiled.request.footprint.total(), deferred.total() + wide);
  EXPECT_EQ(compiled.request.footprint.synthesized(), deferred.deferred + wide);
  // The tiny circuit itself declares none.
  EXPECT_EQ(preset_request(request_basis(eng.make_resident(key, evaluator), cpu), tiny_circuit()).request.footprint.wide,
            0u);

  const PreparedRequest direct = preset_request(request_basis(eng.make_resident(key), cpu), circuit);
  EXPECT_EQ(direct.request.footprint.wide, 0u);
  EXPECT_EQ(direct.request.footprint.total(), groth16::PartitionFootprint::of(shape, cpu).total());
  eng.shutdown(engine::ShutdownMode::drain);
}

TEST(PresetRequest, AProofOfAnotherInstanceFailsTheRequest) {
  engine::Engine eng = cpu_engine();
  groth16::CpuProver cpu;
  const RequestBasis basis = request_basis(eng.make_resident(tiny_key(5)), cpu);
  PreparedRequest prepared = preset_request(basis, tiny_circuit(7, 2));
  // The public inputs of seed 8 against the witnesses of seed 7.
  prepared.request.verify = preset_request(basis, tiny_circuit(8, 2)).request.verify;
  EXPECT_THROW(eng.submit(std::move(prepared.request)).get(), engine::RequestFailed);
  eng.shutdown(engine::ShutdownMode::drain);
}

class CircomRequest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    zkey_ = new formats::Zkey(formats::read_zkey(file("circuit_final.zkey")));
    r1cs_ = std::make_shared<const formats::R1csFile>(formats::read_r1cs(file("circuit.r1cs")));
  }
  static void TearDownTestSuite() {
    delete zkey_;
    r1cs_.reset();
  }

  static std::filesystem::path file(const char* name) {
    return formats::testing::fixture_dir("chain-2e10") / name;
  }
  static std::string text(const char* name) { return io::read_bounded_file(file(name), 1 << 20, name); }

  static std::shared_ptr<const ZkeyCircuit> zkey_circuit() {
    return std::make_shared<const ZkeyCircuit>(ZkeyCircuit{zkey_->header, zkey_->a_coefficients, zkey_->b_coefficients});
  }

  // The proof with r = s = 0 and the public signals, through the engine.
  std::pair<std::string, std::string> prove_rs0(std::shared_ptr<const groth16::ProvingKey> key, CircomInstance instance) {
    engine::Engine eng = cpu_engine();
    groth16::CpuProver cpu;
    PreparedRequest prepared = circom_request(request_basis(eng.make_resident(key), cpu), std::move(instance));
    EXPECT_EQ(prepared.request.partitions, 1u);
    prepared.request.blinding = [](std::size_t) { return groth16::Blinding::zero(); };
    const engine::ProofResult result = eng.submit(std::move(prepared.request)).get();
    eng.shutdown(engine::ShutdownMode::drain);
    EXPECT_TRUE(result.verified);
    return {formats::proof_to_json(result.proofs.at(0)), formats::public_to_json(*prepared.public_signals)};
  }

  static formats::Zkey* zkey_;
  static std::shared_ptr<const formats::R1csFile> r1cs_;
};

formats::Zkey* CircomRequest::zkey_ = nullptr;
std::shared_ptr<const formats::R1csFile> CircomRequest::r1cs_;

// snarkjs's own proof with r = s = 0 (tests/fixtures/README.md), byte for byte.
TEST_F(CircomRequest, ZkeyJobGivesSnarkjsReferenceProof) {
  const auto [proof, public_signals] = prove_rs0(std::make_shared<const groth16::ProvingKey>(zkey_->key),
                                                 {io::ReadOnlyFile::open(file("witness.wtns")), zkey_circuit(), {}, {}});
  EXPECT_EQ(proof, text("refproof_rs0.json"));
  EXPECT_EQ(public_signals, text("refproof_rs0_public.json"));
}

TEST_F(CircomRequest, ZkeyJobCheckedAgainstTheR1csGivesTheSameProof) {
  const auto [proof, public_signals] =
      prove_rs0(std::make_shared<const groth16::ProvingKey>(zkey_->key),
                {io::ReadOnlyFile::open(file("witness.wtns")), zkey_circuit(), r1cs_, "circuit.r1cs"});
  EXPECT_EQ(proof, text("refproof_rs0.json"));
}

// A native parameter file imported from the .zkey has no coefficient lists: the
// .r1cs gives a, b, c.
TEST_F(CircomRequest, NativeKeyWithTheR1csGivesSnarkjsReferenceProof) {
  ScratchDir dir;
  groth16::write_parameter_file(dir.path() / "circuit.zkp", zkey_->key);
  const auto key = std::make_shared<const groth16::ProvingKey>(groth16::load_parameter_file(dir.path() / "circuit.zkp"));
  const auto [proof, public_signals] =
      prove_rs0(key, {io::ReadOnlyFile::open(file("witness.wtns")), nullptr, r1cs_, "circuit.r1cs"});
  EXPECT_EQ(proof, text("refproof_rs0.json"));
  EXPECT_EQ(public_signals, text("refproof_rs0_public.json"));
}

class CircomBadWitness : public CircomRequest {
 protected:
  // The fixture's witness with wire 2 changed: it breaks a constraint.
  std::shared_ptr<const io::ReadOnlyFile> bad_witness() {
    std::vector<std::uint8_t> bytes = formats::testing::read_bytes(file("witness.wtns"));
    const std::size_t values = formats::testing::section_offset(bytes, 2);
    const std::size_t n8 = formats::testing::get_le(bytes, formats::testing::section_offset(bytes, 1), 4);
    bytes[values + 2 * n8] ^= 1;
    formats::testing::write_bytes(dir_.path() / "bad.wtns", bytes);
    return io::ReadOnlyFile::open(dir_.path() / "bad.wtns");
  }

  std::string failure(CircomInstance instance) {
    engine::Engine eng = cpu_engine();
    groth16::CpuProver cpu;
    PreparedRequest prepared = circom_request(
        request_basis(eng.make_resident(std::make_shared<const groth16::ProvingKey>(zkey_->key)), cpu),
        std::move(instance));
    std::string what;
    try {
      eng.submit(std::move(prepared.request)).get();
    } catch (const engine::RequestFailed& e) {
      what = e.what();
    }
    eng.shutdown(engine::ShutdownMode::drain);
    return what;
  }

  ScratchDir dir_;
};

TEST_F(CircomBadWitness, WithTheR1csSynthesisNamesTheBrokenConstraint) {
  const std::string what = failure({bad_witness(), zkey_circuit(), r1cs_, "circuit.r1cs"});
  EXPECT_NE(what.find("bad.wtns does not satisfy constraint "), std::string::npos) << what;
  EXPECT_NE(what.find("of circuit.r1cs"), std::string::npos) << what;
}

TEST_F(CircomBadWitness, WithoutItTheProofDoesNotVerify) {
  const std::string what = failure({bad_witness(), zkey_circuit(), nullptr, {}});
  EXPECT_NE(what.find("does not verify"), std::string::npos) << what;
}

TEST_F(CircomBadWitness, AWitnessOfAnotherSizeIsRefusedBeforeTheR1csReadsIt) {
  std::vector<std::uint8_t> bytes = formats::testing::read_bytes(file("witness.wtns"));
  // One value fewer: the count in section 1 and the section 2 size, then the bytes.
  const std::size_t header1 = formats::testing::section_offset(bytes, 1);
  const std::size_t n8 = formats::testing::get_le(bytes, header1, 4);
  const std::size_t count_at = header1 + 4 + n8;
  const std::uint64_t count = formats::testing::get_le(bytes, count_at, 4);
  formats::testing::put_u32(bytes, count_at, static_cast<std::uint32_t>(count - 1));
  const std::size_t header2 = formats::testing::section_header_offset(bytes, 2);
  formats::testing::put_u64(bytes, header2 + 4, (count - 1) * n8);
  bytes.resize(bytes.size() - n8);
  formats::testing::write_bytes(dir_.path() / "short.wtns", bytes);
  const std::string what =
      failure({io::ReadOnlyFile::open(dir_.path() / "short.wtns"), zkey_circuit(), r1cs_, "circuit.r1cs"});
  EXPECT_NE(what.find("short.wtns holds " + std::to_string(count - 1) + " values"), std::string::npos) << what;
}

TEST(CircomRequestArguments, AJobNeedsAWitnessAndACircuit) {
  engine::Engine eng = cpu_engine();
  groth16::CpuProver cpu;
  const RequestBasis basis = request_basis(eng.make_resident(tiny_key(5)), cpu);
  const auto witness = io::ReadOnlyFile::open(formats::testing::fixture_dir("chain-2e10") / "witness.wtns");
  EXPECT_THROW(circom_request(basis, {nullptr, nullptr, nullptr, {}}), std::invalid_argument);
  EXPECT_THROW(circom_request(basis, {witness, nullptr, nullptr, {}}), std::invalid_argument);
  eng.shutdown(engine::ShutdownMode::drain);
}

}  // namespace
}  // namespace zkpipe::proving
