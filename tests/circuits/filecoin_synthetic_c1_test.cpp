// Synthetic C1 outputs (synthetic_c1.hpp): every vanilla proof checked as a verifier
// of the vanilla proofs would — paths to the reported commitments, parents from the
// graph, labels recomputed, the encoding — for 2 KiB, 8 MiB and 32 GiB sectors, and a
// 2 KiB output proven by the partition circuit.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "circuits/filecoin/core/tree_d.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/porep/challenges.hpp"
#include "circuits/filecoin/porep/encoding.hpp"
#include "circuits/filecoin/porep/labels.hpp"
#include "circuits/filecoin/porep/replica_id.hpp"
#include "circuits/filecoin/porep/sdr_graph.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"
#include "circuits/filecoin/synthetic/synthetic_c1.hpp"
#include "hash/merkle.hpp"
#include "r1cs/test_system.hpp"

namespace zkpipe::filecoin::synthetic {

using ff::Fr;

namespace {

core::TreeShape tree_shape(const core::SealProof& proof) {
  const core::SectorShape& s = proof.shape();
  return {s.base_arity, s.sub_arity, s.top_arity};
}

porep::SdrGraph graph_of(const core::SealProof& proof) {
  return porep::SdrGraph(proof.shape().nodes(), proof.porep_id(), proof.api_version);
}

std::vector<core::PathElement> poseidon_path(const api::MerkleProof& proof) {
  std::vector<core::PathElement> path;
  for (const api::MerklePath* part : {&proof.base, &proof.sub, &proof.top}) {
    for (const api::MerklePathElement& e : *part) {
      core::PathElement element{{}, static_cast<std::size_t>(e.index)};
      for (const core::NodeBytes& h : e.hashes) element.hashes.push_back(hashers::domain_to_fr(h));
      path.push_back(std::move(element));
    }
  }
  return path;
}

// The proof's leaf folded up its path, in its tree's hash.
Fr poseidon_root(const api::MerkleProof& proof) {
  return core::root_from_path(hashers::domain_to_fr(proof.leaf), poseidon_path(proof));
}

core::NodeBytes sha256_root(const api::MerkleProof& proof) {
  hash::merkle::Sha256Path path;
  for (std::size_t level = 0; level < proof.base.size(); ++level) {
    path.siblings.push_back(proof.base[level].hashes.at(0));
    path.index |= proof.base[level].index << level;
  }
  return hash::merkle::sha256_root_from_path(proof.leaf, path);
}

Fr column_hash(const std::vector<core::NodeBytes>& rows) {
  std::vector<Fr> labels;
  for (const core::NodeBytes& row : rows) labels.push_back(hashers::domain_to_fr(row));
  return hashers::poseidon::hash(labels);
}

// What a vanilla-proof verifier checks, and that every node has one column throughout.
// Folding tree_c paths is most of the cost at 32 GiB (15 columns a challenge, 10
// levels of Poseidon each): `column_path_partitions` limits it to the first partitions.
void expect_consistent(const SyntheticSeal& seal, std::size_t column_path_partitions = SIZE_MAX) {
  const api::C1Output& c1 = seal.c1;
  const api::SectorValues& v = seal.values;
  const core::SealProof& proof = *v.registered_proof;
  const core::SectorShape& shape = proof.shape();
  ASSERT_EQ(c1.registered_proof.registered_id, proof.registered_id);
  EXPECT_EQ(c1.comm_r, v.comm_r);
  EXPECT_EQ(c1.comm_d, v.comm_d);
  EXPECT_EQ(c1.seed, v.seed);
  EXPECT_EQ(c1.ticket, v.ticket);
  EXPECT_EQ(c1.comm_d, core::zero_comm_d(shape.sector_bytes));
  EXPECT_EQ(c1.replica_id, porep::replica_id(v.prover_id, v.sector_id, v.ticket, v.comm_d, proof.porep_id()));

  const porep::SdrGraph graph = graph_of(proof);
  ASSERT_EQ(c1.vanilla_proofs.size(), proof.partitions());
  ASSERT_FALSE(c1.vanilla_proofs[0].empty());
  const api::VanillaProof& first = c1.vanilla_proofs[0][0];
  const core::NodeBytes comm_c = first.replica_column_proofs.c_x.inclusion_proof.root;
  const core::NodeBytes comm_r_last = first.comm_r_last_proof.root;
  EXPECT_EQ(hashers::fr_to_domain(hashers::poseidon::hash(
                std::vector<Fr>{hashers::domain_to_fr(comm_c), hashers::domain_to_fr(comm_r_last)})),
            c1.comm_r);

  std::map<std::uint64_t, std::vector<core::NodeBytes>> columns;
  bool fold_column_paths = true;
  const auto check_column = [&](const api::ColumnProof& c) {
    EXPECT_EQ(c.inclusion_proof.root, comm_c) << "column " << c.index;
    EXPECT_EQ(c.inclusion_proof.leaf, hashers::fr_to_domain(column_hash(c.rows))) << "column " << c.index;
    if (fold_column_paths) {
      EXPECT_EQ(poseidon_root(c.inclusion_proof), hashers::domain_to_fr(comm_c)) << "column " << c.index;
    }
    EXPECT_EQ(c.inclusion_proof.leaf_index(shape.base_arity, shape.sub_arity), c.index);
    const auto [it, inserted] = columns.emplace(c.index, c.rows);
    if (!inserted) {
      EXPECT_EQ(it->second, c.rows) << "column " << c.index << " given two ways";
    }
  };

  for (std::size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    fold_column_paths = k < column_path_partitions;
    const std::vector<std::uint64_t> challenges = porep::porep_challenges(proof, c1.replica_id, c1.seed, {}, k);
    ASSERT_EQ(c1.vanilla_proofs[k].size(), challenges.size());
    for (std::size_t i = 0; i < challenges.size(); ++i) {
      const api::VanillaProof& p = c1.vanilla_proofs[k][i];
      const std::uint64_t node = challenges[i];
      SCOPED_TRACE("partition " + std::to_string(k) + " challenge " + std::to_string(node));
      EXPECT_EQ(p.challenge(), node);
      EXPECT_EQ(p.comm_d_proofs.root, c1.comm_d);
      EXPECT_EQ(p.comm_d_proofs.leaf, core::NodeBytes{});
      EXPECT_EQ(sha256_root(p.comm_d_proofs), c1.comm_d);
      EXPECT_EQ(p.comm_r_last_proof.root, comm_r_last);
      EXPECT_EQ(poseidon_root(p.comm_r_last_proof), hashers::domain_to_fr(comm_r_last));
      EXPECT_EQ(p.comm_r_last_proof.leaf_index(shape.base_arity, shape.sub_arity), node);

      const api::ReplicaColumnProof& cols = p.replica_column_proofs;
      ASSERT_EQ(cols.c_x.index, node);
      ASSERT_EQ(cols.c_x.rows.size(), shape.layers);
      check_column(cols.c_x);
      const porep::SdrParents parents = graph.parents(node);
      ASSERT_EQ(cols.drg_parents.size(), porep::kBaseDegree);
      ASSERT_EQ(cols.exp_parents.size(), porep::kExpansionDegree);
      for (std::size_t j = 0; j < porep::kDegree; ++j) {
        const api::ColumnProof& c =
            j < porep::kBaseDegree ? cols.drg_parents[j] : cols.exp_parents[j - porep::kBaseDegree];
        EXPECT_EQ(c.index, parents[j]) << "parent " << j;
        check_column(c);
      }

      ASSERT_EQ(p.labeling_proofs.size(), shape.layers);
      for (std::uint32_t layer = 1; layer <= shape.layers; ++layer) {
        std::vector<core::NodeBytes> inputs;
        for (const api::ColumnProof& c : cols.drg_parents) inputs.push_back(c.rows[layer - 1]);
        for (const api::ColumnProof& c : cols.exp_parents) {
          if (layer > 1) inputs.push_back(c.rows[layer - 2]);
        }
        EXPECT_EQ(porep::label(c1.replica_id, layer, node, inputs), cols.c_x.rows[layer - 1]) << "layer " << layer;
        const api::LabelingProof& l = p.labeling_proofs[layer - 1];
        EXPECT_EQ(l.layer_index, layer);
        EXPECT_EQ(l.node, node);
        ASSERT_EQ(l.parents.size(), porep::kLabelParentSlots);
        for (std::size_t slot = 0; slot < porep::kLabelParentSlots; ++slot) {
          EXPECT_EQ(l.parents[slot], inputs[slot % inputs.size()]) << "layer " << layer << " slot " << slot;
        }
      }
      EXPECT_EQ(p.encoding_proof, p.labeling_proofs.back());
      EXPECT_EQ(p.comm_r_last_proof.leaf, porep::encode(cols.c_x.rows.back(), p.comm_d_proofs.leaf));
    }
  }
}

void expect_json_round_trip(const api::C1Output& c1) {
  const api::C1Output back = api::parse_c1_output(api::c1_output_to_json(c1), "synthetic c1.json");
  EXPECT_TRUE(back == c1);
}

// Some challenged node is also a parent of a challenge (possibly its own expander parent).
bool challenge_is_a_parent(const api::C1Output& c1) {
  std::set<std::uint64_t> challenged;
  std::set<std::uint64_t> parents;
  for (const auto& partition : c1.vanilla_proofs) {
    for (const api::VanillaProof& p : partition) {
      challenged.insert(p.challenge());
      for (const auto& c : p.replica_column_proofs.drg_parents) parents.insert(c.index);
      for (const auto& c : p.replica_column_proofs.exp_parents) parents.insert(c.index);
    }
  }
  for (const std::uint64_t node : challenged) {
    if (parents.contains(node)) return true;
  }
  return false;
}

// The circuit's assignment from the vanilla proofs, as C2 derives it.
porep::StackedPartition to_partition(const api::C1Output& c1, std::size_t k) {
  const auto column = [](const api::ColumnProof& c) {
    porep::ColumnOpening opening;
    for (const core::NodeBytes& row : c.rows) opening.labels.push_back(hashers::domain_to_fr(row));
    opening.path = poseidon_path(c.inclusion_proof);
    return opening;
  };
  const api::VanillaProof& first = c1.vanilla_proofs.at(k).at(0);
  porep::StackedPartition partition{
      .replica_id = hashers::domain_to_fr(c1.replica_id),
      .comm_d = hashers::domain_to_fr(c1.comm_d),
      .comm_r = hashers::domain_to_fr(c1.comm_r),
      .comm_r_last = hashers::domain_to_fr(first.comm_r_last_proof.root),
      .comm_c = hashers::domain_to_fr(first.replica_column_proofs.c_x.inclusion_proof.root),
      .challenges = {}};
  for (const api::VanillaProof& p : c1.vanilla_proofs[k]) {
    porep::ChallengeProof c;
    c.node = p.challenge();
    c.data_leaf = hashers::domain_to_fr(p.comm_d_proofs.leaf);
    c.comm_d_path = poseidon_path(p.comm_d_proofs);  // one sibling a level, as the circuit takes tree_d's
    c.comm_r_last_path = poseidon_path(p.comm_r_last_proof);
    c.comm_c_path = poseidon_path(p.replica_column_proofs.c_x.inclusion_proof);
    for (const api::ColumnProof& parent : p.replica_column_proofs.drg_parents) c.drg_parents.push_back(column(parent));
    for (const api::ColumnProof& parent : p.replica_column_proofs.exp_parents) c.exp_parents.push_back(column(parent));
    partition.challenges.push_back(std::move(c));
  }
  return partition;
}

TEST(FilecoinSyntheticC1, TwoKiBIsConsistentAndRoundTrips) {
  const SyntheticSeal seal = synthetic_c1(core::seal_proof("StackedDrg2KiBV1_1"), 1);
  EXPECT_EQ(seal.values.registered_proof, &core::seal_proof("StackedDrg2KiBV1_1"));
  expect_consistent(seal);
  expect_json_round_trip(seal.c1);
}

TEST(FilecoinSyntheticC1, DeterministicInTheSeed) {
  const core::SealProof& proof = core::seal_proof("StackedDrg2KiBV1_1");
  const SyntheticSeal a = synthetic_c1(proof, 7);
  const SyntheticSeal b = synthetic_c1(proof, 7);
  const SyntheticSeal c = synthetic_c1(proof, 8);
  EXPECT_TRUE(a.c1 == b.c1);
  EXPECT_EQ(a.values, b.values);
  EXPECT_NE(a.values.prover_id, c.values.prover_id);
  EXPECT_NE(a.values.ticket, c.values.ticket);
  EXPECT_NE(a.values.seed, c.values.seed);
  EXPECT_NE(a.c1.replica_id, c.c1.replica_id);
  EXPECT_NE(a.c1.comm_r, c.c1.comm_r);
  EXPECT_EQ(a.c1.comm_d, c.c1.comm_d);  // the CC sector's
}

// A 2 KiB sector has 64 nodes: challenges are often parents of one another. The first
// seed where that happens is consistent too, and its partition satisfies the circuit.
TEST(FilecoinSyntheticC1, TwoKiBPartitionSatisfiesTheCircuit) {
  const core::SealProof& proof = core::seal_proof("StackedDrg2KiBV1_1");
  std::uint64_t seed = 0;
  SyntheticSeal seal = synthetic_c1(proof, seed);
  while (!challenge_is_a_parent(seal.c1) && seed < 64) seal = synthetic_c1(proof, ++seed);
  ASSERT_TRUE(challenge_is_a_parent(seal.c1)) << "no seed below 64 makes a challenge another's parent";
  expect_consistent(seal);

  const porep::StackedCircuit circuit(graph_of(proof), tree_shape(proof), {to_partition(seal.c1, 0)});
  r1cs::TestSystem cs;
  circuit.synthesize(cs, 0);
  ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  EXPECT_EQ(std::vector<Fr>(cs.inputs().begin() + 1, cs.inputs().end()), circuit.public_inputs(0));
}

TEST(FilecoinSyntheticC1, EightMiBIsConsistentAndRoundTrips) {
  const SyntheticSeal seal = synthetic_c1(core::seal_proof("StackedDrg8MiBV1_1"), 2);
  expect_consistent(seal);
  expect_json_round_trip(seal.c1);
}

// 10 partitions of 18 challenges, 11 layers, trees 8-8-0 over 2^30 nodes.
TEST(FilecoinSyntheticC1, ThirtyTwoGiBIsConsistent) {
  const SyntheticSeal seal = synthetic_c1(core::seal_proof("StackedDrg32GiBV1_1"), 3);
  ASSERT_EQ(seal.c1.vanilla_proofs.size(), 10u);
  ASSERT_EQ(seal.c1.vanilla_proofs[0].size(), 18u);
  expect_consistent(seal, 2);
}

TEST(FilecoinSyntheticC1, RejectsChallengesDrawnFromCommR) {
  for (const char* name :
       {"StackedDrg32GiBV1_1_Feat_SyntheticPoRep", "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"}) {
    try {
      synthetic_c1(core::seal_proof(name), 1);
      ADD_FAILURE() << name << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("V1_1,"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace zkpipe::filecoin::synthetic
