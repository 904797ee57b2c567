// From a commit-phase-1 output to the stacked circuit (c1_circuit.hpp), and the sector
// values file (sector_values.hpp), on a 2 KiB sector sealed in memory as
// StackedDrg2KiBV1_1 seals it: its C1 output is assembled here from the replica's
// trees, the honest output gives a satisfied circuit with the verifier's inputs, and
// every way of not belonging to the sector is refused naming the field.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "circuits/filecoin/api/c1_circuit.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/porep/labels.hpp"
#include "circuits/filecoin/porep/stacked_replica.hpp"
#include "r1cs/shape_system.hpp"
#include "r1cs/test_system.hpp"

namespace zkpipe::filecoin::api {

using ff::Fr;

namespace {

constexpr const char* kSource = "c1.json";
constexpr const char* kProofs = "vanilla_proofs.StackedDrg2KiBV1[0]";

const core::SealProof& two_kib() { return core::seal_proof("StackedDrg2KiBV1_1"); }

std::array<std::uint8_t, 32> random_bytes(std::mt19937_64& rng) {
  std::array<std::uint8_t, 32> out{};
  for (auto& b : out) b = static_cast<std::uint8_t>(rng());
  return out;
}

// ---- the C1 output of an in-memory replica (2 KiB: every tree a single base tree)

MerklePath merkle_path(const core::PoseidonPath& path) {
  MerklePath out;
  for (const core::PathElement& e : path) {
    MerklePathElement level{{}, e.index};
    for (const Fr& h : e.hashes) level.hashes.push_back(hashers::fr_to_domain(h));
    out.push_back(std::move(level));
  }
  return out;
}

MerkleProof poseidon_proof(const core::PoseidonPath& path, const Fr& leaf, const Fr& root) {
  return MerkleProof{
      MerkleProof::Kind::kSingle, hashers::fr_to_domain(root), hashers::fr_to_domain(leaf), merkle_path(path), {}, {}};
}

MerkleProof sha256_proof(const hash::merkle::Sha256Tree& tree, std::uint64_t node) {
  const hash::merkle::Sha256Path path = tree.path(node);
  MerkleProof p{MerkleProof::Kind::kSingle, tree.root(), tree.leaf(node), {}, {}, {}};
  for (std::size_t level = 0; level < path.siblings.size(); ++level) {
    p.base.push_back({{path.siblings[level]}, (node >> level) & 1});
  }
  return p;
}

ColumnProof column_proof(const porep::InMemoryReplica& r, std::uint64_t node) {
  const porep::ColumnOpening col = r.column(node);
  ColumnProof c{static_cast<std::uint32_t>(node), {}, {}};
  for (const Fr& label : col.labels) c.rows.push_back(hashers::fr_to_domain(label));
  c.inclusion_proof = poseidon_proof(col.path, hashers::poseidon::hash(col.labels), r.comm_c());
  return c;
}

VanillaProof vanilla_proof(const porep::InMemoryReplica& r, const hash::merkle::Sha256Tree& tree_d,
                           std::uint64_t node) {
  VanillaProof v;
  v.comm_d_proofs = sha256_proof(tree_d, node);
  v.comm_r_last_proof =
      poseidon_proof(r.prove(node).comm_r_last_path, hashers::domain_to_fr(r.replica()[node]), r.comm_r_last());
  v.replica_column_proofs.c_x = column_proof(r, node);
  for (const std::uint32_t p : r.graph().base_parents(node)) {
    v.replica_column_proofs.drg_parents.push_back(column_proof(r, p));
  }
  for (const std::uint32_t p : r.graph().expander_parents(node)) {
    v.replica_column_proofs.exp_parents.push_back(column_proof(r, p));
  }
  for (std::uint32_t layer = 1; layer <= r.layers(); ++layer) {
    const std::vector<core::NodeBytes> parents = porep::parent_labels(r.graph(), r.labels(), layer, node);
    LabelingProof l{{}, layer, node};
    for (std::size_t s = 0; s < porep::kLabelParentSlots; ++s) l.parents.push_back(parents[s % parents.size()]);
    v.labeling_proofs.push_back(std::move(l));
  }
  v.encoding_proof = v.labeling_proofs.back();
  return v;
}

C1Output c1_output(const porep::InMemoryReplica& r, const SectorValues& values) {
  const hash::merkle::Sha256Tree tree_d(r.data());
  C1Output c1;
  c1.registered_proof = *values.registered_proof;
  c1.vanilla_proofs.resize(values.registered_proof->partitions());
  for (std::size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    for (const std::uint64_t node :
         porep::porep_challenges(*values.registered_proof, r.replica_id(), values.seed, values.comm_r, k)) {
      c1.vanilla_proofs[k].push_back(vanilla_proof(r, tree_d, node));
    }
  }
  c1.comm_r = values.comm_r;
  c1.comm_d = values.comm_d;
  c1.replica_id = r.replica_id();
  c1.seed = values.seed;
  c1.ticket = values.ticket;
  return c1;
}

// A 2 KiB sector of random data: its values (comm_d before the replica id that
// depends on it), its replica and its C1 output.
struct Sealed {
  SectorValues values;
  std::unique_ptr<porep::InMemoryReplica> replica;
  C1Output c1;
};

Sealed seal(std::uint64_t seed, const core::SealProof& proof = two_kib()) {
  std::mt19937_64 rng(seed);
  std::vector<core::NodeBytes> data(proof.shape().nodes());
  for (core::NodeBytes& node : data) node = hashers::fr_to_domain(Fr::random(rng));
  Sealed s;
  s.values.registered_proof = &proof;
  s.values.prover_id = random_bytes(rng);
  s.values.sector_id = rng();
  s.values.ticket = random_bytes(rng);
  s.values.seed = random_bytes(rng);
  s.values.comm_d = hash::merkle::Sha256Tree(data).root();
  s.replica = std::make_unique<porep::InMemoryReplica>(seal_graph(proof), proof.shape().layers,
                                                       core::sector_tree_shape(proof.sector_bytes),
                                                       s.values.replica_id(), std::move(data));
  s.values.comm_r = hashers::fr_to_domain(s.replica->comm_r());
  s.c1 = c1_output(*s.replica, s.values);
  return s;
}

// The JSON path that refuses the output, or "accepted".
std::string refusal(const C1Output& c1, const SectorValues& values) {
  try {
    stacked_circuit_from_c1(c1, values, kSource);
  } catch (const C1OutputError& e) {
    EXPECT_EQ(e.source(), kSource);
    return e.json_path();
  }
  return "accepted";
}

std::string at(std::size_t challenge, const std::string& field) {
  return std::string(kProofs) + "[" + std::to_string(challenge) + "]." + field;
}

class FilecoinC1Circuit : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { sealed_ = std::make_unique<Sealed>(seal(2048)); }
  static void TearDownTestSuite() { sealed_.reset(); }

  static const SectorValues& values() { return sealed_->values; }
  static const C1Output& c1() { return sealed_->c1; }
  static const porep::InMemoryReplica& replica() { return *sealed_->replica; }

  static std::unique_ptr<Sealed> sealed_;
};

std::unique_ptr<Sealed> FilecoinC1Circuit::sealed_;

TEST_F(FilecoinC1Circuit, SectorsOwnOutputGivesASatisfiedCircuitWithTheVerifiersInputs) {
  // Through c1.json, so that the output assembled here is one the reader accepts.
  const C1Output parsed = parse_c1_output(c1_output_to_json(c1()), kSource);
  ASSERT_EQ(parsed, c1());
  const porep::StackedCircuit circuit = stacked_circuit_from_c1(parsed, values(), kSource);
  ASSERT_EQ(circuit.partitions(), 1u);

  std::vector<std::uint64_t> challenges;
  for (const VanillaProof& v : c1().vanilla_proofs[0]) challenges.push_back(v.challenge());
  ASSERT_EQ(challenges.size(), 2u);
  const std::vector<Fr> expected = porep::stacked_public_inputs(
      seal_graph(two_kib()), hashers::domain_to_fr(values().replica_id()), hashers::domain_to_fr(values().comm_d),
      hashers::domain_to_fr(values().comm_r), challenges);
  EXPECT_EQ(circuit.public_inputs(0), expected);

  r1cs::TestSystem cs;
  circuit.synthesize(cs, 0);
  ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  EXPECT_EQ(std::vector<Fr>(cs.inputs().begin() + 1, cs.inputs().end()), expected);
}

TEST_F(FilecoinC1Circuit, RefusesValuesOfAnotherSector) {
  SectorValues v = values();
  v.registered_proof = &core::seal_proof("StackedDrg2KiBV1");
  EXPECT_EQ(refusal(c1(), v), "registered_proof");

  for (const char* field : {"comm_r", "comm_d", "ticket", "seed"}) {
    v = values();
    auto& bytes = std::string_view(field) == "comm_r"   ? v.comm_r
                  : std::string_view(field) == "comm_d" ? v.comm_d
                  : std::string_view(field) == "ticket" ? v.ticket
                                                        : v.seed;
    bytes[3] ^= 1;
    EXPECT_EQ(refusal(c1(), v), field);
  }

  // Another prover's (or sector's) replica id.
  v = values();
  v.prover_id[0] ^= 1;
  EXPECT_EQ(refusal(c1(), v), "replica_id");
  v = values();
  v.sector_id += 1;
  EXPECT_EQ(refusal(c1(), v), "replica_id");
}

// A comm_r that both files agree on but the trees do not give.
TEST_F(FilecoinC1Circuit, RefusesACommROtherThanTheTreesHash) {
  SectorValues v = values();
  C1Output c = c1();
  v.comm_r[0] ^= 1;
  c.comm_r = v.comm_r;
  EXPECT_EQ(refusal(c, v), "comm_r");
}

// Another seed in both files: the proofs are not of the challenges it draws.
TEST_F(FilecoinC1Circuit, RefusesProofsOfOtherChallenges) {
  SectorValues v = values();
  C1Output c = c1();
  v.seed[0] ^= 1;
  c.seed = v.seed;
  const std::vector<std::uint64_t> drawn = porep::porep_challenges(two_kib(), v.replica_id(), v.seed, v.comm_r, 0);
  const std::size_t first_other = drawn[0] != c1().vanilla_proofs[0][0].challenge() ? 0 : 1;
  ASSERT_NE(drawn[first_other], c1().vanilla_proofs[0][first_other].challenge());
  EXPECT_EQ(refusal(c, v), at(first_other, "comm_d_proofs"));

  // An honest proof of another node in place of the challenge's.
  c = c1();
  const std::uint64_t other = c1().vanilla_proofs[0][1].challenge() % 63 + 1;
  c.vanilla_proofs[0][1] = vanilla_proof(replica(), hash::merkle::Sha256Tree(replica().data()), other);
  EXPECT_EQ(refusal(c, values()), at(1, "comm_d_proofs"));
}

TEST_F(FilecoinC1Circuit, RefusesPathsThatDoNotLeadToTheirRoots) {
  C1Output c = c1();
  c.vanilla_proofs[0][0].comm_r_last_proof.base[1].hashes[3][0] ^= 1;
  EXPECT_EQ(refusal(c, values()), at(0, "comm_r_last_proof"));

  c = c1();
  c.vanilla_proofs[0][1].comm_d_proofs.base[4].hashes[0][5] ^= 1;
  EXPECT_EQ(refusal(c, values()), at(1, "comm_d_proofs"));

  c = c1();
  c.vanilla_proofs[0][1].replica_column_proofs.drg_parents[2].inclusion_proof.base[0].hashes[6][1] ^= 1;
  EXPECT_EQ(refusal(c, values()), at(1, "replica_column_proofs.drg_parents[2].inclusion_proof"));

  c = c1();
  c.vanilla_proofs[0][0].comm_d_proofs.leaf[2] ^= 1;
  EXPECT_EQ(refusal(c, values()), at(0, "comm_d_proofs"));

  // A root other than comm_d, or than the first challenge's tree_c.
  c = c1();
  c.vanilla_proofs[0][1].comm_d_proofs.root[2] ^= 1;
  EXPECT_EQ(refusal(c, values()), at(1, "comm_d_proofs.data.Single.root"));
  c = c1();
  c.vanilla_proofs[0][1].replica_column_proofs.exp_parents[4].inclusion_proof.root[2] ^= 1;
  EXPECT_EQ(refusal(c, values()), at(1, "replica_column_proofs.exp_parents[4].inclusion_proof.data.Single.root"));
}

TEST_F(FilecoinC1Circuit, RefusesColumnsAndLabelsThatDisagree) {
  // A row of the challenged column: its tree_c leaf is no longer the column's hash.
  C1Output c = c1();
  c.vanilla_proofs[0][0].replica_column_proofs.c_x.rows[0][0] ^= 1;
  EXPECT_EQ(refusal(c, values()), at(0, "replica_column_proofs.c_x.inclusion_proof.data.Single.leaf"));

  // A parent label in a labeling proof and in the encoding proof.
  c = c1();
  c.vanilla_proofs[0][1].labeling_proofs[1].parents[7][0] ^= 1;
  EXPECT_EQ(refusal(c, values()), at(1, "labeling_proofs[1].parents[7]"));
  c = c1();
  c.vanilla_proofs[0][0].encoding_proof.parents[36][0] ^= 1;
  EXPECT_EQ(refusal(c, values()), at(0, "encoding_proof.parents[36]"));

  // Two expander parents swapped: not the graph's parents in order.
  c = c1();
  auto& exp = c.vanilla_proofs[0][0].replica_column_proofs.exp_parents;
  std::size_t j = 0;
  while (j + 1 < exp.size() && exp[j].index == exp[j + 1].index) ++j;
  ASSERT_LT(j + 1, exp.size());
  std::swap(exp[j], exp[j + 1]);
  EXPECT_EQ(refusal(c, values()), at(0, "replica_column_proofs.exp_parents[" + std::to_string(j) + "].column.index"));
}

// A sector sealed over one forged label of a challenged node, every tree built over the
// forgery: only the label's recomputation from its parents tells.
TEST_F(FilecoinC1Circuit, RefusesAForgedLabel) {
  // The first challenge's node: later challenges may have it among their parents.
  const std::uint64_t node = c1().vanilla_proofs[0][0].challenge();
  for (const std::size_t layer : {std::size_t{0}, std::size_t{1}}) {
    std::vector<porep::LabelLayer> labels = replica().labels();
    labels[layer][node][0] ^= 1;
    const porep::InMemoryReplica forged = porep::InMemoryReplica::with_labels(
        replica().graph(), replica().tree_shape(), replica().replica_id(), replica().data(), labels);
    SectorValues v = values();
    v.comm_r = hashers::fr_to_domain(forged.comm_r());
    EXPECT_EQ(refusal(c1_output(forged, v), v), at(0, "labeling_proofs[" + std::to_string(layer) + "]"));
  }
}

TEST_F(FilecoinC1Circuit, RefusesAnOutputOfTheWrongShape) {
  C1Output c = c1();
  c.vanilla_proofs[0].pop_back();
  EXPECT_EQ(refusal(c, values()), kProofs);
  c = c1();
  c.vanilla_proofs[0][1].replica_column_proofs.drg_parents.pop_back();
  EXPECT_EQ(refusal(c, values()), at(1, "replica_column_proofs.drg_parents"));
  c = c1();
  c.vanilla_proofs[0][0].comm_r_last_proof.base[0].index = 8;
  EXPECT_EQ(refusal(c, values()), at(0, "comm_r_last_proof.data.Single.path.path[0].index"));
}

// The shape circuit (all zeros) has the real circuit's variables and constraints.
TEST_F(FilecoinC1Circuit, ShapeSynthesizesAsTheRealCircuit) {
  const porep::StackedCircuit real = stacked_circuit_from_c1(c1(), values(), kSource);
  const porep::StackedCircuit shape = stacked_circuit_shape(two_kib());
  ASSERT_EQ(shape.partitions(), 1u);
  r1cs::ShapeSystem real_cs;
  r1cs::ShapeSystem shape_cs;
  real.synthesize(real_cs, 0);
  shape.synthesize(shape_cs, 0);
  EXPECT_EQ(shape_cs.num_constraints(), real_cs.num_constraints());
  EXPECT_EQ(shape_cs.num_inputs(), real_cs.num_inputs());
  EXPECT_EQ(shape_cs.num_aux(), real_cs.num_aux());
  EXPECT_EQ(shape_cs.nonzeros(), real_cs.nonzeros());
  EXPECT_EQ(shape_cs.a_aux_density().count(), real_cs.a_aux_density().count());
  EXPECT_EQ(shape_cs.b_aux_density().count(), real_cs.b_aux_density().count());
  EXPECT_EQ(shape_cs.num_inputs(), 1 + 3 + 18 * two_kib().challenges_per_partition());
  EXPECT_EQ(shape.public_inputs(0).size(), real.public_inputs(0).size());
}

// The other ways of drawing challenges: the synthetic PoRep's selection by the seed
// among challenges fixed by comm_r, and the non-interactive PoRep's 13 partitions
// drawn from comm_r alone. The circuit's inputs are the verifier's; a partition's
// proofs are named by partition.
TEST(FilecoinC1CircuitChallenges, SyntheticAndNonInteractiveProofs) {
  for (const char* name : {"StackedDrg2KiBV1_1_Feat_SyntheticPoRep", "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"}) {
    SCOPED_TRACE(name);
    const core::SealProof& proof = core::seal_proof(name);
    const Sealed s = seal(3, proof);
    const porep::StackedCircuit circuit = stacked_circuit_from_c1(s.c1, s.values, kSource);
    ASSERT_EQ(circuit.partitions(), proof.partitions());
    for (std::size_t k = 0; k < proof.partitions(); ++k) {
      const std::vector<std::uint64_t> drawn =
          porep::porep_challenges(proof, s.values.replica_id(), s.values.seed, s.values.comm_r, k);
      EXPECT_EQ(circuit.public_inputs(k),
                porep::stacked_public_inputs(seal_graph(proof), hashers::domain_to_fr(s.values.replica_id()),
                                             hashers::domain_to_fr(s.values.comm_d),
                                             hashers::domain_to_fr(s.values.comm_r), drawn));
    }
    C1Output c = s.c1;
    const std::size_t last = proof.partitions() - 1;
    c.vanilla_proofs[last][1].comm_r_last_proof.base[0].hashes[0][0] ^= 1;
    EXPECT_EQ(refusal(c, s.values),
              "vanilla_proofs.StackedDrg2KiBV1[" + std::to_string(last) + "][1].comm_r_last_proof");
  }
}

// ---- sector.json

std::string sector_json(const SectorValues& v, const std::string& field, const std::string& value) {
  std::string json = sector_values_to_json(v);
  const std::string key = "\"" + field + "\": ";
  const std::size_t start = json.find(key) + key.size();
  const std::size_t end = json.find_first_of(",\n", start);
  return json.replace(start, end - start, value);
}

std::string sector_refusal(std::string_view json) {
  try {
    parse_sector_values(json, "sector.json");
  } catch (const C1OutputError& e) {
    EXPECT_EQ(e.source(), "sector.json");
    return e.json_path();
  }
  return "accepted";
}

SectorValues example_values() {
  std::mt19937_64 rng(11);
  SectorValues v;
  v.registered_proof = &core::seal_proof("StackedDrg32GiBV1_1");
  v.prover_id = random_bytes(rng);
  v.sector_id = ~std::uint64_t{0};
  v.ticket = random_bytes(rng);
  v.seed = random_bytes(rng);
  v.comm_r = hashers::fr_to_domain(Fr::random(rng));
  v.comm_d = hashers::fr_to_domain(Fr::random(rng));
  return v;
}

TEST(FilecoinSectorValues, RoundTrip) {
  const SectorValues v = example_values();
  const std::string json = sector_values_to_json(v);
  EXPECT_NE(json.find("\"registered_proof\": \"StackedDrg32GiBV1_1\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"sector_size\": 34359738368"), std::string::npos) << json;
  EXPECT_NE(json.find("\"sector_id\": 18446744073709551615"), std::string::npos) << json;
  const SectorValues back = parse_sector_values(json, "sector.json");
  EXPECT_EQ(back, v);
  EXPECT_EQ(back.registered_proof, v.registered_proof);
  EXPECT_EQ(v.replica_id(),
            porep::replica_id(v.prover_id, v.sector_id, v.ticket, v.comm_d, v.registered_proof->porep_id()));
}

TEST(FilecoinSectorValues, RefusesWhatIsNotTheSectorsValues) {
  const SectorValues v = example_values();
  EXPECT_EQ(sector_refusal(sector_json(v, "registered_proof", "\"StackedDrg3GiBV1_1\"")), "registered_proof");
  EXPECT_EQ(sector_refusal(sector_json(v, "registered_proof", "5")), "registered_proof");
  EXPECT_EQ(sector_refusal(sector_json(v, "sector_size", "2048")), "sector_size");
  EXPECT_EQ(sector_refusal(sector_json(v, "sector_id", "-1")), "sector_id");
  EXPECT_EQ(sector_refusal(sector_json(v, "sector_id", "\"1\"")), "sector_id");
  EXPECT_EQ(sector_refusal(sector_json(v, "prover_id", "\"" + std::string(63, '0') + "g\"")), "prover_id");
  EXPECT_EQ(sector_refusal(sector_json(v, "ticket", "\"" + std::string(62, '0') + "\"")), "ticket");
  EXPECT_EQ(sector_refusal(sector_json(v, "seed", "null")), "seed");
  // Not below r: 32 bytes of 0xff.
  EXPECT_EQ(sector_refusal(sector_json(v, "comm_r", "\"" + std::string(64, 'f') + "\"")), "comm_r");
  // Upper-case hex is read too.
  std::string upper = "\"" + std::string(64, '0') + "\"";
  upper[1] = 'A';
  EXPECT_EQ(sector_refusal(sector_json(v, "comm_d", upper)), "accepted");

  std::string missing = sector_values_to_json(v);
  const std::size_t comm_d = missing.find(",\n  \"comm_d\"");
  missing.erase(comm_d, missing.find("\n}") - comm_d);
  EXPECT_EQ(sector_refusal(missing), "comm_d") << missing;
  EXPECT_EQ(sector_refusal("{\"registered_proof\": "), "");
  EXPECT_EQ(sector_refusal("[]"), "");
}

// A sector.json whose first comm_r is wrong must not pass for its second: a key given
// twice is refused (as serde_json refuses it), whichever of them is right.
TEST(FilecoinSectorValues, RefusesAKeyGivenTwice) {
  const SectorValues v = example_values();
  const std::string json = sector_values_to_json(v);
  const std::size_t comm_r = json.find("\"comm_r\"");
  ASSERT_NE(comm_r, std::string::npos);
  std::string twice = json;
  twice.insert(comm_r, "\"comm_r\": \"" + std::string(64, '0') + "\",\n  ");
  try {
    parse_sector_values(twice, "sector.json");
    ADD_FAILURE() << "a sector.json with comm_r twice was accepted";
  } catch (const C1OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("key \"comm_r\" given twice"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace zkpipe::filecoin::api
