// Writes the fuzz targets' seed corpora for the formats that have no small file in
// tests/fixtures/: a native parameter file and evaluator file, a .zkey, .r1cs and
// .wtns, a bellperson verifying key and .params file, proofs and their JSON, all for one small circuit
// (a cubic with a wide coefficient and three public bits: 15 constraints), so that
// every seed is a few KiB (tens of KiB for the page-aligned native files) and the
// fuzzer runs thousands of times a second.
//
//   fuzz_make_seeds OUT     writes OUT/<target>/seed-*
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/api/post_vanilla.hpp"
#include "circuits/filecoin/synthetic/synthetic_post.hpp"
#include "circuits/filecoin/synthetic/synthetic_update.hpp"
#include "circuits/filecoin/api/update_vanilla.hpp"
#include "circuits/filecoin/api/vanilla_proofs.hpp"
#include "circuits/filecoin/api/commit2_input.hpp"
#include "ec/affine.hpp"
#include "ff/fr.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/bellperson_vk.hpp"
#include "formats/field_bytes.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/evaluator_file.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/proof.hpp"
#include "groth16/setup.hpp"
#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/recording_system.hpp"

using namespace zkpipe;
namespace fs = std::filesystem;
using ff::Fr;
using groth16::G1Affine;
using groth16::G2Affine;
using r1cs::ConstraintSystem;
using r1cs::LC;

namespace {

void seed_circuit(ConstraintSystem& cs) {
  const Fr x = Fr::from_u64(3);
  const Fr x2 = x * x;
  const Fr x3 = x2 * x;
  const Fr y = x3 + x + Fr::from_u64(5);
  const auto vy = cs.alloc_input([&] { return y; });
  const auto vx = cs.alloc([&] { return x; });
  const auto vx2 = cs.alloc([&] { return x2; });
  const auto vx3 = cs.alloc([&] { return x3; });
  cs.enforce(vx, vx, vx2);
  cs.enforce(vx2, vx, vx3);
  LC sum(vx3);
  sum += LC(vx);
  sum += LC::constant(Fr::from_u64(5));
  cs.enforce(sum, LC(ConstraintSystem::one()), vy);
  // A coefficient too wide for the evaluator's inline codes: its table is not empty.
  const Fr k = Fr::from_u64(0x1234567890abcdefULL) * Fr::from_u64(0xfedcba9876543210ULL);
  const Fr kx = k * x;
  const auto vkx = cs.alloc([&] { return kx; });
  cs.enforce(LC(k, vx), LC(ConstraintSystem::one()), vkx);
  for (int i = 0; i < 3; ++i) {
    const Fr b = Fr::from_u64(static_cast<std::uint64_t>(i % 2));
    const auto vin = cs.alloc_input([&] { return b; });
    const auto vb = cs.alloc([&] { return b; });
    cs.enforce(vin, ConstraintSystem::one(), vb);
    LC one_minus = LC::constant(Fr::one());
    one_minus -= LC(vb);
    cs.enforce(vb, one_minus, LC());
  }
}

class Bytes {
 public:
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  template <std::size_t N>
  void limbs(const ff::Limbs<N>& l) {
    const std::size_t at = out_.size();
    out_.resize(at + 8 * N);
    formats::limbs_to_le<N>(l, std::span(out_).subspan(at, 8 * N));
  }
  // zkey points: affine x‖y, Montgomery limbs little-endian (Fp2: c0 then c1); all
  // zeros for the point at infinity.
  void g1(const G1Affine& p) {
    if (p.infinity) return zeros(96);
    limbs(p.x.mont());
    limbs(p.y.mont());
  }
  void g2(const G2Affine& p) {
    if (p.infinity) return zeros(192);
    for (const auto* c : {&p.x, &p.y}) {
      limbs(c->c0.mont());
      limbs(c->c1.mont());
    }
  }
  void zeros(std::size_t n) { out_.insert(out_.end(), n, 0); }
  void append(std::span<const std::uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  const std::vector<std::uint8_t>& bytes() const { return out_; }
  std::size_t size() const { return out_.size(); }

 private:
  std::vector<std::uint8_t> out_;
};

// The iden3 container: magic, version, then { u32 id, u64 size, bytes } per section.
std::vector<std::uint8_t> container(std::string_view magic, std::uint32_t version,
                                    const std::vector<std::pair<std::uint32_t, Bytes>>& sections) {
  Bytes out;
  out.append(std::span(reinterpret_cast<const std::uint8_t*>(magic.data()), 4));
  out.u32(version);
  out.u32(static_cast<std::uint32_t>(sections.size()));
  for (const auto& [id, body] : sections) {
    out.u32(id);
    out.u64(body.size());
    out.append(body.bytes());
  }
  return out.bytes();
}

// Wire numbering of circom: ONE and the public inputs, then the aux variables.
std::uint32_t wire_of(r1cs::Variable v, std::size_t num_inputs) {
  return static_cast<std::uint32_t>(v.is_aux() ? num_inputs + v.index() : v.index());
}

std::vector<std::uint8_t> zkey_of(const groth16::ProvingKey& key, const r1cs::CompiledR1cs& e) {
  const std::size_t n_inputs = key.num_inputs();
  const std::size_t n_vars = n_inputs + key.num_aux();
  const std::size_t domain = key.domain_size();
  Bytes protocol;
  protocol.u32(1);
  Bytes header;
  header.u32(48);
  header.limbs(ff::Fp::kModulus);
  header.u32(32);
  header.limbs(Fr::kModulus);
  header.u32(static_cast<std::uint32_t>(n_vars));
  header.u32(static_cast<std::uint32_t>(n_inputs - 1));
  header.u32(static_cast<std::uint32_t>(domain));
  header.g1(key.vk.alpha_g1);
  header.g1(key.vk.beta_g1);
  header.g2(key.vk.beta_g2);
  header.g2(key.vk.gamma_g2);
  header.g1(key.vk.delta_g1);
  header.g2(key.vk.delta_g2);
  Bytes ic;
  for (const auto& p : key.vk.ic) ic.g1(p);
  // Coefficients of A (0) and B (1), values as v·2^512 mod r.
  Bytes coefficients;
  std::uint32_t count = 0;
  Bytes records;
  const std::array<const r1cs::CompiledMatrix*, 2> matrices = {&e.a, &e.b};
  for (std::uint32_t m = 0; m < 2; ++m) {
    const auto& mat = *matrices[m];
    for (std::size_t row = 0; row < mat.rows(); ++row) {
      for (std::uint64_t k = mat.row_offsets[row]; k < mat.row_offsets[row + 1]; ++k) {
        const Fr v = r1cs::coefficient_code::decode(mat.coefficients[k], e.coefficient_table);
        records.u32(m);
        records.u32(static_cast<std::uint32_t>(row));
        records.u32(wire_of(mat.columns[k], n_inputs));
        records.limbs(Fr::from_canonical(v.mont())->mont());
        ++count;
      }
    }
  }
  coefficients.u32(count);
  coefficients.append(records.bytes());
  // A, B1, B2 over every wire (infinity where the density says the wire is unused).
  Bytes a, b1, b2;
  std::size_t next_a = 0, next_b = 0;
  for (std::size_t w = 0; w < n_vars; ++w) {
    const bool in_a = w < n_inputs || key.density.a_aux[w - n_inputs];
    const bool in_b = w < n_inputs ? key.density.b_input[w] : key.density.b_aux[w - n_inputs];
    a.g1(in_a ? key.a[next_a++] : G1Affine::identity());
    b1.g1(in_b ? key.b_g1[next_b] : G1Affine::identity());
    b2.g2(in_b ? key.b_g2[next_b] : G2Affine::identity());
    if (in_b) ++next_b;
  }
  Bytes c;
  for (const auto& p : key.l) c.g1(p);
  // snarkjs's H has N points; setup's monomial form N − 1: any valid point completes it.
  Bytes h;
  for (const auto& p : key.h) h.g1(p);
  for (std::size_t i = key.h.size(); i < domain; ++i) h.g1(key.vk.alpha_g1);
  return container("zkey", 1,
                   {{1, protocol}, {2, header}, {3, ic}, {4, coefficients}, {5, a}, {6, b1}, {7, b2}, {8, c}, {9, h}});
}

std::vector<std::uint8_t> r1cs_of(const r1cs::CompiledR1cs& e) {
  const std::size_t n_wires = e.num_inputs + e.num_aux;
  Bytes header;
  header.u32(32);
  header.limbs(Fr::kModulus);
  header.u32(static_cast<std::uint32_t>(n_wires));
  header.u32(0);                                           // public outputs
  header.u32(static_cast<std::uint32_t>(e.num_inputs - 1));  // public inputs
  header.u32(0);                                           // private inputs
  header.u64(n_wires);                                     // labels
  header.u32(static_cast<std::uint32_t>(e.num_constraints));
  Bytes constraints;
  for (std::size_t row = 0; row < e.num_constraints; ++row) {
    for (const auto* mat : {&e.a, &e.b, &e.c}) {
      const std::uint64_t from = mat->row_offsets[row], to = mat->row_offsets[row + 1];
      constraints.u32(static_cast<std::uint32_t>(to - from));
      for (std::uint64_t k = from; k < to; ++k) {
        constraints.u32(wire_of(mat->columns[k], e.num_inputs));
        constraints.limbs(r1cs::coefficient_code::decode(mat->coefficients[k], e.coefficient_table).to_canonical());
      }
    }
  }
  Bytes labels;
  for (std::size_t w = 0; w < n_wires; ++w) labels.u64(w);
  return container("r1cs", 1, {{1, header}, {2, constraints}, {3, labels}});
}

std::vector<std::uint8_t> wtns_of(std::size_t n_wires) {
  Bytes header;
  header.u32(32);
  header.limbs(Fr::kModulus);
  header.u32(static_cast<std::uint32_t>(n_wires));
  Bytes values;
  for (std::size_t w = 0; w < n_wires; ++w) values.limbs(Fr::from_u64(w == 0 ? 1 : w * w + 7).to_canonical());
  return container("wtns", 2, {{1, header}, {2, values}});
}

void write(const fs::path& path, std::span<const std::uint8_t> bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
}

void write(const fs::path& path, std::string_view text) {
  write(path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

// A 2 KiB commit-phase-1 output (64 nodes: tree_d 6 binary levels, the replica's trees
// 2 levels of 8) whose every challenge and parent is node 0 and every element zero.
// A 2 KiB Window PoSt sector's vanilla proof and a 2 KiB SnapDeals partition's, as
// filecoin-proofs writes them.
void write_vanilla_seeds(const fs::path& dir) {
  fs::create_directories(dir);
  auto bytes = [](const std::vector<std::uint8_t>& v) { return std::string(v.begin(), v.end()); };
  const filecoin::post::PostProof window = filecoin::post::post_proof(filecoin::post::PostKind::kWindow, 2048);
  const filecoin::post::FallbackPostCircuit post = filecoin::synthetic::synthetic_post(window, 5, 1);
  const filecoin::synthetic::SyntheticPostDraws draws = filecoin::synthetic::synthetic_post_draws(window, 5, 1);
  const auto sectors = filecoin::api::post_vanilla_proofs(window, post.assignments()[0], draws.sector_ids);
  write(dir / "seed-post.bin", bytes(filecoin::api::post_vanilla_proof_bytes(sectors.front())));
  const filecoin::update::UpdateShape shape = filecoin::update::update_shape(
      2048 / 32, filecoin::core::sector_tree_shape(2048), filecoin::update::UpdateHash::kSha256);
  const filecoin::synthetic::SyntheticUpdate update = filecoin::synthetic::synthetic_update(shape, 6);
  write(dir / "seed-update.bin", bytes(filecoin::api::update_vanilla_proof_bytes(
                                     filecoin::api::update_vanilla_proof(shape, update.partitions.front()))));
}

filecoin::api::C1Output c1_output_seed() {
  using filecoin::core::NodeBytes;
  const filecoin::core::SealProof& proof = filecoin::core::seal_proof("StackedDrg2KiBV1_1");
  const std::size_t layers = proof.shape().layers;
  const auto path = [](std::size_t levels, std::size_t arity) {
    return filecoin::api::MerklePath(levels, {std::vector<NodeBytes>(arity - 1), 0});
  };
  filecoin::api::MerkleProof tree_d;
  tree_d.base = path(6, 2);
  filecoin::api::MerkleProof tree_r;
  tree_r.base = path(2, 8);
  const filecoin::api::ColumnProof column{0, std::vector<NodeBytes>(layers), tree_r};
  filecoin::api::VanillaProof v;
  v.comm_d_proofs = tree_d;
  v.comm_r_last_proof = tree_r;
  v.replica_column_proofs = {column, std::vector(6, column), std::vector(8, column)};
  for (std::uint32_t layer = 1; layer <= layers; ++layer) {
    v.labeling_proofs.push_back({std::vector<NodeBytes>(37), layer, 0});
  }
  v.encoding_proof = v.labeling_proofs.back();
  filecoin::api::C1Output c;
  c.registered_proof = proof;
  c.vanilla_proofs.assign(proof.partitions(), std::vector(proof.challenges_per_partition(), v));
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  const fs::path out = argv[1];

  r1cs::RecordingSystem recording;
  seed_circuit(recording);
  r1cs::enforce_input_constraints(recording);
  const groth16::ProvingKey key = groth16::setup(std::move(recording).matrices(), groth16::ToxicWaste::from_seed(16));
  r1cs::CompilingSystem compiling;
  seed_circuit(compiling);
  r1cs::enforce_input_constraints(compiling);
  const r1cs::CompiledR1cs evaluator = std::move(compiling).finish();

  fs::create_directories(out / "parameter_file");
  groth16::write_parameter_file(out / "parameter_file" / "seed.zkp", key);
  fs::create_directories(out / "evaluator_file");
  groth16::write_evaluator_file(out / "evaluator_file" / "seed.zkpev", evaluator, "fuzz-seed",
                                groth16::key_fingerprint(key));
  write(out / "zkey" / "seed.zkey", zkey_of(key, evaluator));
  write(out / "r1cs" / "seed.r1cs", r1cs_of(evaluator));
  write(out / "wtns" / "seed.wtns", wtns_of(evaluator.num_inputs + evaluator.num_aux));
  write(out / "bellperson_vk" / "seed.vk", formats::encode_bellperson_vk(key.vk));
  fs::create_directories(out / "bellperson_params");
  formats::write_bellperson_params(out / "bellperson_params" / "seed.params", key);

  const groth16::Proof p{key.vk.alpha_g1, key.vk.beta_g2, key.vk.ic[0]};
  const groth16::Proof q{G1Affine::identity(), key.vk.delta_g2, key.vk.delta_g1};
  const std::vector<groth16::Proof> one{p}, two{p, q};
  write(out / "proofs" / "seed-1.bin", groth16::encode_proofs(one));
  write(out / "proofs" / "seed-2.bin", groth16::encode_proofs(two));
  write(out / "proof_json" / "seed.json", formats::proof_to_json(p));
  write(out / "proof_json" / "seed-infinity.json", formats::proof_to_json(q));
  const std::vector<Fr> signals{Fr::from_u64(35), Fr::one(), Fr::zero(), -Fr::one()};
  write(out / "public_json" / "seed.json", formats::public_to_json(signals));
  write(out / "verifying_key_json" / "seed.json", formats::verifying_key_to_json(key.vk));
  write(out / "c1_output" / "seed-2kib.json", filecoin::api::c1_output_to_json(c1_output_seed()));
  write(out / "c1_output" / "seed-2kib-commit2.json", filecoin::api::commit2_input_to_json({1, c1_output_seed()}));
  // The JSON bombs a hostile C1 output can be: values of the wrong shape, of the right shape
  // repeated, and an unused field nested deep.
  auto repeated = [](std::string_view open, std::string_view item, std::string_view close) {
    std::string text(open);
    for (int i = 0; i < 1000; ++i) text.append(i == 0 ? "" : ",").append(item);
    return text.append(close);
  };
  write(out / "c1_output" / "bomb-array.json", repeated("[", "{}", "]"));
  write(out / "c1_output" / "bomb-vanilla-proofs.json",
        repeated(R"({"vanilla_proofs":{"StackedDrg2KiBV1":[[)", "{}", "]]}}"));
  write(out / "c1_output" / "bomb-unused-field.json", repeated(R"({"unused":)", "[", "") + std::string(1000, ']') + "}");
  write_vanilla_seeds(out / "vanilla_proofs");
  std::printf("zkpipe fuzz seeds in %s (parameter file %ju bytes, evaluator %ju bytes)\n", out.c_str(),
              static_cast<std::uintmax_t>(fs::file_size(out / "parameter_file" / "seed.zkp")),
              static_cast<std::uintmax_t>(fs::file_size(out / "evaluator_file" / "seed.zkpev")));
  return 0;
}
