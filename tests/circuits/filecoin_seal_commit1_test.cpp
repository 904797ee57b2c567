// The native seal and commit phase 1 on 2 KiB sectors of random data: the C1 output
// survives its JSON form, draws the registered proof's challenges, and every vanilla
// proof opens the sealed sector as prove_layers opens it (paths that lead to the
// commitments, columns of the graph's parents, labels that recompute) and carries
// exactly the circuit assignment the replica gives.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/api/seal_commit1.hpp"
#include "circuits/filecoin/core/tree_d.hpp"
#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/porep/challenges.hpp"
#include "circuits/filecoin/porep/encoding.hpp"
#include "circuits/filecoin/porep/labels.hpp"
#include "circuits/filecoin/porep/replica_id.hpp"
#include "circuits/filecoin/porep/sdr_graph.hpp"

namespace zkpipe::filecoin::api {

using ff::Fr;

namespace {

std::vector<core::NodeBytes> random_data(std::mt19937_64& rng, std::uint64_t nodes) {
  std::vector<core::NodeBytes> data(nodes);
  for (core::NodeBytes& node : data) node = hashers::fr_to_domain(Fr::random(rng));
  return data;
}

template <std::size_t N>
std::array<std::uint8_t, N> random_bytes(std::mt19937_64& rng) {
  std::array<std::uint8_t, N> out{};
  for (auto& b : out) b = static_cast<std::uint8_t>(rng());
  return out;
}

struct Fixture {
  std::vector<core::NodeBytes> data;
  SealedSector sector;
  C1Output c1;
};

Fixture seal_random(const core::SealProof& proof, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  SectorValues values;
  values.registered_proof = &proof;
  values.prover_id = random_bytes<32>(rng);
  values.sector_id = rng();
  values.ticket = random_bytes<32>(rng);
  values.seed = random_bytes<32>(rng);
  std::vector<core::NodeBytes> data = random_data(rng, proof.shape().nodes());
  SealedSector sector = seal_sector(values, data);
  C1Output c1 = seal_commit_phase1(sector);
  return Fixture{std::move(data), std::move(sector), std::move(c1)};
}

const Fixture& sealed_2kib() {
  static const Fixture f = seal_random(core::seal_proof("StackedDrg2KiBV1_1"), 2048);
  return f;
}

std::vector<Fr> frs(const std::vector<core::NodeBytes>& nodes) {
  std::vector<Fr> out;
  for (const core::NodeBytes& n : nodes) out.push_back(hashers::domain_to_fr(n));
  return out;
}

// A proof's path as one list of levels (base, then sub, then top), as the circuit takes it.
core::PoseidonPath path_levels(const MerkleProof& p) {
  core::PoseidonPath out;
  for (const MerklePath* part : {&p.base, &p.sub, &p.top}) {
    for (const MerklePathElement& e : *part) out.push_back(core::PathElement{frs(e.hashes), e.index});
  }
  return out;
}

core::NodeBytes tree_d_root(const MerkleProof& p) {
  core::NodeBytes node = p.leaf;
  for (const MerklePathElement& e : p.base) {
    node = e.index == 0 ? hashers::sha256_hash2(node, e.hashes.at(0)) : hashers::sha256_hash2(e.hashes.at(0), node);
  }
  return node;
}

core::NodeBytes poseidon_root(const MerkleProof& p) {
  return hashers::fr_to_domain(core::root_from_path(hashers::domain_to_fr(p.leaf), path_levels(p)));
}

// What the circuit takes from a vanilla proof (the conversion C2 makes).
porep::ChallengeProof circuit_challenge(const VanillaProof& v) {
  const auto opening = [](const ColumnProof& c) {
    return porep::ColumnOpening{frs(c.rows), path_levels(c.inclusion_proof)};
  };
  porep::ChallengeProof c;
  c.node = v.challenge();
  c.data_leaf = hashers::domain_to_fr(v.comm_d_proofs.leaf);
  c.comm_d_path = path_levels(v.comm_d_proofs);
  c.comm_r_last_path = path_levels(v.comm_r_last_proof);
  c.comm_c_path = path_levels(v.replica_column_proofs.c_x.inclusion_proof);
  for (const ColumnProof& p : v.replica_column_proofs.drg_parents) c.drg_parents.push_back(opening(p));
  for (const ColumnProof& p : v.replica_column_proofs.exp_parents) c.exp_parents.push_back(opening(p));
  return c;
}

void expect_same_path(const std::vector<core::PathElement>& got, const std::vector<core::PathElement>& want,
                      const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].index, want[i].index) << what << " level " << i;
    EXPECT_TRUE(got[i].hashes == want[i].hashes) << what << " level " << i;
  }
}

void expect_same_columns(const std::vector<porep::ColumnOpening>& got, const std::vector<porep::ColumnOpening>& want,
                         const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(got[i].labels == want[i].labels) << what << " " << i;
    expect_same_path(got[i].path, want[i].path, what + " " + std::to_string(i));
  }
}

TEST(FilecoinSealCommit1, SealFillsTheCommitmentsOfTheData) {
  const Fixture& f = sealed_2kib();
  const SectorValues& v = f.sector.values;
  const std::span<const std::byte> bytes = std::as_bytes(std::span<const core::NodeBytes>(f.data));
  EXPECT_EQ(v.comm_d, core::build_tree_d({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}).root());
  const porep::ReplicaId id =
      porep::replica_id(v.prover_id, v.sector_id, v.ticket, v.comm_d, v.registered_proof->porep_id());
  EXPECT_EQ(f.sector.replica.replica_id(), id);
  EXPECT_EQ(v.comm_r, hashers::fr_to_domain(hashers::poseidon::hash(
                          std::vector<Fr>{f.sector.replica.comm_c(), f.sector.replica.comm_r_last()})));
  EXPECT_EQ(f.sector.replica.data(), f.data);
  EXPECT_EQ(f.sector.replica.layers(), 2u);
  EXPECT_EQ(f.sector.replica.tree_shape(), core::sector_tree_shape(2048));
}

TEST(FilecoinSealCommit1, OutputNamesTheSectorAndDrawsItsChallenges) {
  const Fixture& f = sealed_2kib();
  const core::SealProof& proof = *f.sector.values.registered_proof;
  EXPECT_EQ(f.c1.registered_proof.registered_id, proof.registered_id);
  EXPECT_EQ(f.c1.comm_r, f.sector.values.comm_r);
  EXPECT_EQ(f.c1.comm_d, f.sector.values.comm_d);
  EXPECT_EQ(f.c1.replica_id, f.sector.replica.replica_id());
  EXPECT_EQ(f.c1.seed, f.sector.values.seed);
  EXPECT_EQ(f.c1.ticket, f.sector.values.ticket);
  ASSERT_EQ(f.c1.vanilla_proofs.size(), proof.partitions());
  for (std::size_t k = 0; k < f.c1.vanilla_proofs.size(); ++k) {
    const std::vector<std::uint64_t> drawn = porep::porep_challenges(proof, f.c1.replica_id, f.c1.seed, f.c1.comm_r, k);
    ASSERT_EQ(drawn.size(), proof.challenges_per_partition());
    ASSERT_EQ(f.c1.vanilla_proofs[k].size(), drawn.size());
    for (std::size_t i = 0; i < drawn.size(); ++i) EXPECT_EQ(f.c1.vanilla_proofs[k][i].challenge(), drawn[i]);
  }
}

TEST(FilecoinSealCommit1, JsonRoundTripIsExact) {
  const Fixture& f = sealed_2kib();
  const std::string json = c1_output_to_json(f.c1);
  const C1Output back = parse_c1_output(json, "c1.json");
  EXPECT_TRUE(back == f.c1);
  EXPECT_EQ(c1_output_to_json(back), json);
}

TEST(FilecoinSealCommit1, PathsLeadToTheCommitments) {
  const Fixture& f = sealed_2kib();
  const porep::InMemoryReplica& r = f.sector.replica;
  const core::NodeBytes comm_c = hashers::fr_to_domain(r.comm_c());
  const core::NodeBytes comm_r_last = hashers::fr_to_domain(r.comm_r_last());
  for (const auto& partition : f.c1.vanilla_proofs) {
    for (const VanillaProof& v : partition) {
      const std::uint64_t node = v.challenge();
      SCOPED_TRACE("challenge " + std::to_string(node));
      EXPECT_EQ(v.comm_d_proofs.kind, MerkleProof::Kind::kSingle);
      EXPECT_EQ(v.comm_d_proofs.root, f.c1.comm_d);
      EXPECT_EQ(v.comm_d_proofs.leaf, f.data[node]);
      EXPECT_EQ(tree_d_root(v.comm_d_proofs), f.c1.comm_d);

      EXPECT_EQ(v.comm_r_last_proof.root, comm_r_last);
      EXPECT_EQ(v.comm_r_last_proof.leaf, r.replica()[node]);
      EXPECT_EQ(poseidon_root(v.comm_r_last_proof), comm_r_last);
      // The replica node is the data encoded with the last layer's label.
      EXPECT_EQ(v.comm_r_last_proof.leaf, porep::encode(v.replica_column_proofs.c_x.rows.back(), v.comm_d_proofs.leaf));

      const ReplicaColumnProof& cols = v.replica_column_proofs;
      std::vector<const ColumnProof*> all{&cols.c_x};
      for (const ColumnProof& c : cols.drg_parents) all.push_back(&c);
      for (const ColumnProof& c : cols.exp_parents) all.push_back(&c);
      for (const ColumnProof* c : all) {
        EXPECT_EQ(c->inclusion_proof.root, comm_c);
        EXPECT_EQ(c->inclusion_proof.leaf, hashers::fr_to_domain(hashers::poseidon::hash(frs(c->rows))));
        EXPECT_EQ(poseidon_root(c->inclusion_proof), comm_c);
        for (std::size_t l = 0; l < c->rows.size(); ++l) EXPECT_EQ(c->rows[l], r.labels()[l][c->index]);
      }
      EXPECT_EQ(f.c1.comm_r, hashers::fr_to_domain(hashers::poseidon::hash(
                                 std::vector<Fr>{hashers::domain_to_fr(comm_c), hashers::domain_to_fr(comm_r_last)})));
    }
  }
}

TEST(FilecoinSealCommit1, ColumnsAreTheGraphsParents) {
  const Fixture& f = sealed_2kib();
  const porep::SdrGraph& graph = f.sector.replica.graph();
  for (const auto& partition : f.c1.vanilla_proofs) {
    for (const VanillaProof& v : partition) {
      const std::uint64_t node = v.challenge();
      const ReplicaColumnProof& cols = v.replica_column_proofs;
      EXPECT_EQ(cols.c_x.index, node);
      ASSERT_EQ(cols.drg_parents.size(), porep::kBaseDegree);
      ASSERT_EQ(cols.exp_parents.size(), porep::kExpansionDegree);
      for (std::size_t i = 0; i < porep::kBaseDegree; ++i) {
        EXPECT_EQ(cols.drg_parents[i].index, graph.base_parents(node)[i]);
      }
      for (std::size_t i = 0; i < porep::kExpansionDegree; ++i) {
        EXPECT_EQ(cols.exp_parents[i].index, graph.expander_parents(node)[i]);
      }
    }
  }
}

TEST(FilecoinSealCommit1, LabelingProofsRecomputeTheColumnsLabels) {
  const Fixture& f = sealed_2kib();
  for (const auto& partition : f.c1.vanilla_proofs) {
    for (const VanillaProof& v : partition) {
      const std::uint64_t node = v.challenge();
      const ReplicaColumnProof& cols = v.replica_column_proofs;
      ASSERT_EQ(v.labeling_proofs.size(), cols.c_x.rows.size());
      for (std::uint32_t layer = 1; layer <= v.labeling_proofs.size(); ++layer) {
        SCOPED_TRACE("challenge " + std::to_string(node) + " layer " + std::to_string(layer));
        const LabelingProof& l = v.labeling_proofs[layer - 1];
        EXPECT_EQ(l.layer_index, layer);
        EXPECT_EQ(l.node, node);
        ASSERT_EQ(l.parents.size(), porep::kLabelParentSlots);
        // The distinct parents: the DRG parents' labels in this layer, then (from layer 2)
        // the expander parents' in the previous one, as the parent columns hold them.
        std::vector<core::NodeBytes> distinct;
        for (const ColumnProof& c : cols.drg_parents) distinct.push_back(c.rows[layer - 1]);
        if (layer > 1) {
          for (const ColumnProof& c : cols.exp_parents) distinct.push_back(c.rows[layer - 2]);
        }
        for (std::size_t slot = 0; slot < porep::kLabelParentSlots; ++slot) {
          EXPECT_EQ(l.parents[slot], distinct[slot % distinct.size()]) << "slot " << slot;
        }
        EXPECT_EQ(porep::label(f.c1.replica_id, layer, node, distinct), cols.c_x.rows[layer - 1]);
      }
      EXPECT_EQ(v.encoding_proof, v.labeling_proofs.back());
    }
  }
}

TEST(FilecoinSealCommit1, VanillaProofsCarryTheCircuitAssignment) {
  const Fixture& f = sealed_2kib();
  for (std::size_t k = 0; k < f.c1.vanilla_proofs.size(); ++k) {
    const std::vector<VanillaProof>& proofs = f.c1.vanilla_proofs[k];
    std::vector<std::uint64_t> challenges;
    for (const VanillaProof& v : proofs) challenges.push_back(v.challenge());
    const porep::StackedPartition want = f.sector.replica.prove_partition(challenges);

    EXPECT_EQ(hashers::domain_to_fr(f.c1.replica_id), want.replica_id);
    EXPECT_EQ(hashers::domain_to_fr(f.c1.comm_d), want.comm_d);
    EXPECT_EQ(hashers::domain_to_fr(f.c1.comm_r), want.comm_r);
    ASSERT_EQ(proofs.size(), want.challenges.size());
    for (std::size_t i = 0; i < proofs.size(); ++i) {
      EXPECT_EQ(hashers::domain_to_fr(proofs[i].comm_r_last_proof.root), want.comm_r_last);
      EXPECT_EQ(hashers::domain_to_fr(proofs[i].replica_column_proofs.c_x.inclusion_proof.root), want.comm_c);
      const porep::ChallengeProof got = circuit_challenge(proofs[i]);
      const porep::ChallengeProof& expected = want.challenges[i];
      const std::string at = "partition " + std::to_string(k) + " challenge " + std::to_string(i);
      EXPECT_EQ(got.node, expected.node) << at;
      EXPECT_EQ(got.data_leaf, expected.data_leaf) << at;
      expect_same_path(got.comm_d_path, expected.comm_d_path, at + " comm_d");
      expect_same_path(got.comm_r_last_path, expected.comm_r_last_path, at + " comm_r_last");
      expect_same_path(got.comm_c_path, expected.comm_c_path, at + " comm_c");
      expect_same_columns(got.drg_parents, expected.drg_parents, at + " drg parent");
      expect_same_columns(got.exp_parents, expected.exp_parents, at + " exp parent");
    }
  }
}

// Every 2 KiB variant: the legacy graph (V1), the synthetic and the non-interactive
// challenges (13 partitions) go through the same prover and the same reader.
class FilecoinSealCommit1Variants : public ::testing::TestWithParam<const char*> {};

TEST_P(FilecoinSealCommit1Variants, RoundTripsAndDrawsTheVariantsChallenges) {
  const core::SealProof& proof = core::seal_proof(GetParam());
  const Fixture f = seal_random(proof, 7);
  EXPECT_TRUE(parse_c1_output(c1_output_to_json(f.c1), "c1.json") == f.c1);
  ASSERT_EQ(f.c1.vanilla_proofs.size(), proof.partitions());
  for (std::size_t k = 0; k < f.c1.vanilla_proofs.size(); ++k) {
    const std::vector<std::uint64_t> drawn = porep::porep_challenges(proof, f.c1.replica_id, f.c1.seed, f.c1.comm_r, k);
    ASSERT_EQ(f.c1.vanilla_proofs[k].size(), drawn.size());
    for (std::size_t i = 0; i < drawn.size(); ++i) {
      const VanillaProof& v = f.c1.vanilla_proofs[k][i];
      EXPECT_EQ(v.challenge(), drawn[i]);
      EXPECT_EQ(tree_d_root(v.comm_d_proofs), f.c1.comm_d);
      EXPECT_EQ(poseidon_root(v.comm_r_last_proof), v.comm_r_last_proof.root);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(TwoKiB, FilecoinSealCommit1Variants,
                         ::testing::Values("StackedDrg2KiBV1", "StackedDrg2KiBV1_1",
                                           "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
                                           "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"));

class FilecoinSealCommit1Refusals : public ::testing::Test {
 protected:
  SectorValues values() const {
    SectorValues v;
    v.registered_proof = &core::seal_proof("StackedDrg2KiBV1_1");
    return v;
  }
  std::vector<core::NodeBytes> data() const {
    std::mt19937_64 rng(3);
    return random_data(rng, 64);
  }
};

void expect_refusal(const SectorValues& values, const std::vector<core::NodeBytes>& data, const std::string& needle) {
  try {
    seal_sector(values, data);
    ADD_FAILURE() << "sealed, expected a refusal naming \"" << needle << "\"";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST_F(FilecoinSealCommit1Refusals, DataOfAnotherSize) {
  std::vector<core::NodeBytes> d = data();
  d.pop_back();
  expect_refusal(values(), d, "63 data nodes");
  d.resize(128);
  expect_refusal(values(), d, "128 data nodes");
}

TEST_F(FilecoinSealCommit1Refusals, NonCanonicalNode) {
  std::vector<core::NodeBytes> d = data();
  d[17].fill(0xff);
  expect_refusal(values(), d, "data node 17");
}

TEST_F(FilecoinSealCommit1Refusals, NoRegisteredProof) {
  SectorValues v = values();
  v.registered_proof = nullptr;
  expect_refusal(v, data(), "no registered proof");
  SealedSector sector = seal_sector(values(), data());
  sector.values.registered_proof = nullptr;
  EXPECT_THROW(seal_commit_phase1(sector), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::filecoin::api
