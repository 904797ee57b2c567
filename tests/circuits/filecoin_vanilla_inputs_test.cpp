// Vanilla proofs as circuit inputs (post_vanilla.hpp, update_vanilla.hpp): synthetic
// partitions written as filecoin-proofs' blobs, read back and converted give the same
// partitions (satisfied, with the same public inputs); Window PoSt pads a short partition
// as filecoin-proofs does; every inconsistency is refused naming the proof, the sector or
// challenge and the problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "circuits/filecoin/api/post_vanilla.hpp"
#include "circuits/filecoin/api/update_vanilla.hpp"
#include "circuits/filecoin/synthetic/synthetic_post.hpp"
#include "circuits/filecoin/synthetic/synthetic_update.hpp"
#include "r1cs/test_system.hpp"

namespace zkpipe::filecoin::api {
namespace {

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kGiB = kKiB * kKiB * kKiB;

void expect_same_path(const std::vector<core::PathElement>& a, const std::vector<core::PathElement>& b,
                      const std::string& where) {
  ASSERT_EQ(a.size(), b.size()) << where;
  for (std::size_t l = 0; l < a.size(); ++l) {
    EXPECT_EQ(a[l].index, b[l].index) << where << " level " << l;
    EXPECT_EQ(a[l].hashes, b[l].hashes) << where << " level " << l;
  }
}

void expect_same(const post::PostPartition& a, const post::PostPartition& b) {
  ASSERT_EQ(a.sectors.size(), b.sectors.size());
  for (std::size_t i = 0; i < a.sectors.size(); ++i) {
    const post::PostSector& x = a.sectors[i];
    const post::PostSector& y = b.sectors[i];
    EXPECT_TRUE(x.comm_r == y.comm_r && x.comm_c == y.comm_c && x.comm_r_last == y.comm_r_last) << "sector " << i;
    ASSERT_EQ(x.challenges.size(), y.challenges.size());
    for (std::size_t n = 0; n < x.challenges.size(); ++n) {
      EXPECT_EQ(x.challenges[n].leaf_index, y.challenges[n].leaf_index);
      EXPECT_EQ(x.challenges[n].leaf, y.challenges[n].leaf);
      expect_same_path(x.challenges[n].path, y.challenges[n].path, "sector " + std::to_string(i));
    }
  }
}

void expect_satisfied(const post::PostProof& proof, const post::PostPartition& p, const std::vector<Fr>& inputs) {
  r1cs::TestSystem cs;
  post::synthesize_fallback_post(cs, p, proof.tree_shape());
  ASSERT_TRUE(cs.is_satisfied()) << proof.name() << ": " << *cs.which_is_unsatisfied();
  EXPECT_EQ(std::vector<Fr>(cs.inputs().begin() + 1, cs.inputs().end()), inputs) << proof.name();
}

std::vector<std::vector<std::uint8_t>> blobs_of(const std::vector<FallbackPostSectorProof>& vanilla) {
  std::vector<std::vector<std::uint8_t>> out;
  for (const FallbackPostSectorProof& v : vanilla) out.push_back(post_vanilla_proof_bytes(v));
  return out;
}

// The message `f` throws as std::invalid_argument ("" when it throws none).
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

#define EXPECT_REFUSED(call, fragment)                                              \
  do {                                                                              \
    const std::string what = refusal([&] { (void)(call); });                        \
    EXPECT_NE(what.find(fragment), std::string::npos) << "got \"" << what << "\""; \
  } while (0)

// synthetic → blobs → parse → partition, for Window (two partitions) and Winning.
void expect_post_round_trip(post::PostKind kind, std::uint64_t sector_bytes, bool satisfy) {
  const post::PostProof proof = post::post_proof(kind, sector_bytes);
  const std::size_t partitions = kind == post::PostKind::kWindow ? 2 : 1;
  const post::FallbackPostCircuit circuit = synthetic::synthetic_post(proof, 11, partitions);
  const synthetic::SyntheticPostDraws draws = synthetic::synthetic_post_draws(proof, 11, partitions);
  const std::size_t ids_per_partition = kind == post::PostKind::kWindow ? proof.sector_count : 1;
  for (std::size_t k = 0; k < partitions; ++k) {
    const std::span<const std::uint64_t> ids = std::span(draws.sector_ids).subspan(k * ids_per_partition, ids_per_partition);
    const std::vector<FallbackPostSectorProof> vanilla = post_vanilla_proofs(proof, circuit.assignments()[k], ids);
    ASSERT_EQ(vanilla.size(), ids_per_partition);
    const post::PostPartition read = post_partition_from_bytes(proof, blobs_of(vanilla));
    expect_same(read, circuit.assignments()[k]);
    EXPECT_EQ(post::fallback_post_public_inputs(read), circuit.public_inputs(k));
    if (satisfy) expect_satisfied(proof, read, circuit.public_inputs(k));
    EXPECT_NO_THROW(check_post_challenges(proof, vanilla, draws.randomness, core::ApiVersion::k1_2_0, k))
        << proof.name();
    post::PostRandomness other = draws.randomness;
    other[0] ^= 1;
    EXPECT_REFUSED(check_post_challenges(proof, vanilla, other, core::ApiVersion::k1_2_0, k),
                   "the randomness draws leaf");
  }
}

TEST(FilecoinVanillaInputs, TwoKiBPostRoundTripsAndSatisfiesTheCircuit) {
  expect_post_round_trip(post::PostKind::kWindow, 2 * kKiB, true);
  expect_post_round_trip(post::PostKind::kWinning, 2 * kKiB, true);
}

// Sub (32 GiB) and Top (64 GiB) proofs; the 32 GiB Winning circuit (370,590 constraints)
// is checked whole.
TEST(FilecoinVanillaInputs, LargeSectorWinningPostRoundTrips) {
  expect_post_round_trip(post::PostKind::kWinning, 32 * kGiB, true);
  expect_post_round_trip(post::PostKind::kWinning, 64 * kGiB, false);
}

TEST(FilecoinVanillaInputs, WindowPostPadsAShortPartitionWithItsLastSector) {
  const post::PostProof proof = post::post_proof(post::PostKind::kWindow, 2 * kKiB);
  const post::FallbackPostCircuit circuit = synthetic::synthetic_post(proof, 12, 1);
  const synthetic::SyntheticPostDraws draws = synthetic::synthetic_post_draws(proof, 12, 1);
  const std::vector<FallbackPostSectorProof> vanilla = post_vanilla_proofs(proof, circuit.assignments()[0], draws.sector_ids);
  const post::PostPartition read = post_partition_from_vanilla(proof, std::span(vanilla).first(1));
  post::PostPartition direct{{circuit.assignments()[0].sectors[0], circuit.assignments()[0].sectors[0]}};
  expect_same(read, direct);
  expect_satisfied(proof, read, post::fallback_post_public_inputs(direct));
}

TEST(FilecoinVanillaInputs, InconsistentPostProofsAreRefused) {
  const post::PostProof window = post::post_proof(post::PostKind::kWindow, 2 * kKiB);
  const post::FallbackPostCircuit circuit = synthetic::synthetic_post(window, 13, 1);
  const synthetic::SyntheticPostDraws draws = synthetic::synthetic_post_draws(window, 13, 1);
  const std::vector<FallbackPostSectorProof> good = post_vanilla_proofs(window, circuit.assignments()[0], draws.sector_ids);
  auto refused = [&](auto&& damage) {
    std::vector<FallbackPostSectorProof> v = good;
    damage(v);
    return refusal([&] { post_partition_from_vanilla(window, v); });
  };
  EXPECT_EQ(refused([](auto&) {}), "");
  const std::string prefix = "filecoin-window-post/2KiB: vanilla proof 1 (sector " + std::to_string(good[1].sector_id) + "): ";
  EXPECT_EQ(refused([](auto& v) { v[1].sectors[0].inclusion_proofs[3].root[0] ^= 1; }),
            prefix + "challenge 3: its root is not the sector's comm_r_last");
  EXPECT_EQ(refused([](auto& v) { v[1].comm_r[0] ^= 1; }), prefix + "comm_r is not Poseidon(comm_c, comm_r_last)");
  EXPECT_EQ(refused([](auto& v) { v[1].sectors[0].inclusion_proofs[2].base[1].hashes[4][0] ^= 1; }),
            prefix + "challenge 2: its path does not lead from its leaf to comm_r_last");
  EXPECT_EQ(refused([](auto& v) { v[1].sectors[0].inclusion_proofs[0].leaf[0] ^= 1; }),
            prefix + "challenge 0: its path does not lead from its leaf to comm_r_last");
  EXPECT_EQ(refused([](auto& v) { v[1].sectors[0].inclusion_proofs[4].base[0].hashes.pop_back(); }),
            prefix + "challenge 4: its base path level 0 has 6 siblings, arity 8 takes 7");
  EXPECT_EQ(refused([](auto& v) { v[1].sectors[0].inclusion_proofs[4].base.pop_back(); }),
            prefix + "challenge 4: its base path has 1 levels, 2 expected");
  EXPECT_EQ(refused([](auto& v) {
              MerkleProof& p = v[1].sectors[0].inclusion_proofs[5];
              p.kind = MerkleProof::Kind::kSub;
              p.sub = {MerklePathElement{std::vector<core::NodeBytes>(7), 0}};
            }),
            prefix + "challenge 5: a Sub proof, the tree 8-0-0 of this sector size takes Single");
  EXPECT_EQ(refused([](auto& v) { v[1].sectors[0].inclusion_proofs.pop_back(); }),
            prefix + "9 inclusion proofs, filecoin-window-post/2KiB challenges a sector 10 times");
  EXPECT_EQ(refused([](auto& v) { v[1].sectors.push_back(v[1].sectors[0]); }),
            prefix + "holds 2 sector proofs; filecoin-proofs writes one a sector");
  EXPECT_EQ(refused([](auto& v) { v.push_back(v[0]); }),
            "filecoin-window-post/2KiB: 3 vanilla proofs, more sectors than a partition's 2");
  EXPECT_EQ(refused([](auto& v) { v.clear(); }), "filecoin-window-post/2KiB: no vanilla proofs");

  // A 2 KiB sector's proofs (Single, two levels) are not a 32 GiB sector's (Sub).
  EXPECT_REFUSED(post_partition_from_vanilla(post::post_proof(post::PostKind::kWindow, 32 * kGiB), good),
                 "challenge 0: a Single proof, the tree 8-8-0 of this sector size takes Sub");
  const post::PostProof winning = post::post_proof(post::PostKind::kWinning, 2 * kKiB);
  EXPECT_REFUSED(post_partition_from_vanilla(winning, good), "2 vanilla proofs, Winning PoSt proves one sector");
  EXPECT_REFUSED(post_partition_from_vanilla(winning, std::span(good).first(1)),
                 "10 inclusion proofs, filecoin-winning-post/2KiB challenges a sector 66 times");

  // Bytes: the blob's index names it.
  std::vector<std::vector<std::uint8_t>> blobs = blobs_of(good);
  blobs[1].resize(100);
  EXPECT_EQ(refusal([&] { post_partition_from_bytes(window, blobs); }),
            "vanilla proof 1: offset 40: sector proof count 1 exceeds the 52 bytes left (at least 72 bytes each)");
  blobs[1] = post_vanilla_proof_bytes(good[1]);
  blobs[1].resize(blobs[1].size() - 40);
  EXPECT_EQ(refusal([&] { post_partition_from_bytes(window, blobs); }),
            "vanilla proof 1: offset " + std::to_string(blobs[1].size() - 24) +
                ": expected 32 bytes (sector 0 comm_c), 24 left");
}

// synthetic update → blob per partition → parse → partition, equal to the synthetic one.
void expect_update_round_trip(const update::UpdateShape& shape, bool satisfy) {
  const synthetic::SyntheticUpdate update = synthetic::synthetic_update(shape, 21);
  ASSERT_EQ(update.partitions.size(), shape.partitions);
  for (const update::UpdatePartition& p : update.partitions) {
    const UpdateCommitments comms{p.comm_r_old, p.comm_r_new, p.comm_d_new};
    const std::vector<std::uint8_t> blob = update_vanilla_proof_bytes(update_vanilla_proof(shape, p));
    const update::UpdatePartition read = update_partition_from_bytes(shape, blob, p.k, comms);
    EXPECT_EQ(read.k, p.k);
    EXPECT_EQ(read.h_index, p.h_index);
    EXPECT_TRUE(read.comm_c == p.comm_c && read.root_r_old == p.root_r_old && read.root_r_new == p.root_r_new);
    EXPECT_EQ(read.apex_leaves, p.apex_leaves);
    expect_same_path(read.partition_path, p.partition_path, "partition path");
    ASSERT_EQ(read.challenges.size(), p.challenges.size());
    for (std::size_t i = 0; i < p.challenges.size(); ++i) {
      const std::string at = "challenge " + std::to_string(i);
      EXPECT_TRUE(read.challenges[i].leaf_r_old == p.challenges[i].leaf_r_old) << at;
      EXPECT_TRUE(read.challenges[i].leaf_d_new == p.challenges[i].leaf_d_new) << at;
      expect_same_path(read.challenges[i].path_r_old, p.challenges[i].path_r_old, at);
      expect_same_path(read.challenges[i].path_r_new, p.challenges[i].path_r_new, at);
      expect_same_path(read.challenges[i].path_d_new, p.challenges[i].path_d_new, at);
    }
    EXPECT_EQ(update::update_public_inputs(shape, read), update::update_public_inputs(shape, p));
    if (satisfy) {
      r1cs::TestSystem cs;
      update::synthesize_empty_sector_update(cs, shape, read);
      ASSERT_TRUE(cs.is_satisfied()) << "partition " << p.k << ": " << *cs.which_is_unsatisfied();
      EXPECT_EQ(std::vector<Fr>(cs.inputs().begin() + 1, cs.inputs().end()), update::update_public_inputs(shape, p));
    }
  }
}

// 2 KiB (64 nodes, tree 8-0-0: Single proofs) satisfied; Sub and Top shapes of two
// partitions read back equal to the synthetic partitions the update tests satisfy.
TEST(FilecoinVanillaInputs, UpdatesRoundTripAndSatisfyTheCircuit) {
  expect_update_round_trip(update::update_shape(64, {8, 0, 0}, update::UpdateHash::kSha256), true);
  expect_update_round_trip(update::update_shape(512, {8, 8, 0}, update::UpdateHash::kSha256), false);
  expect_update_round_trip(update::update_shape(1024, {8, 8, 2}, update::UpdateHash::kSha256), false);
}

TEST(FilecoinVanillaInputs, InconsistentUpdateProofsAreRefused) {
  const update::UpdateShape shape = update::update_shape(512, {8, 8, 0}, update::UpdateHash::kSha256);
  const synthetic::SyntheticUpdate update = synthetic::synthetic_update(shape, 22);
  const update::UpdatePartition& p = update.partitions[1];
  const UpdateCommitments comms{p.comm_r_old, p.comm_r_new, p.comm_d_new};
  const UpdatePartitionProof good = update_vanilla_proof(shape, p);
  auto refused = [&](auto&& damage) {
    UpdatePartitionProof v = good;
    damage(v);
    return refusal([&] { update_partition_from_vanilla(shape, v, 1, comms); });
  };
  auto refused_for = [&](std::uint64_t k, const UpdateCommitments& c) {
    return refusal([&] { update_partition_from_vanilla(shape, good, k, c); });
  };
  EXPECT_EQ(refused([](auto&) {}), "");
  const std::string prefix = "vanilla proof 1: ";
  EXPECT_EQ(refused_for(1, {comms.comm_r_old + Fr::one(), comms.comm_r_new, comms.comm_d_new}),
            prefix + "comm_r_old is not Poseidon(comm_c, the root of challenge 0's proof_r_old)");
  EXPECT_EQ(refused_for(1, {comms.comm_r_old, comms.comm_r_new + Fr::one(), comms.comm_d_new}),
            prefix + "comm_r_new is not Poseidon(comm_c, the root of challenge 0's proof_r_new)");
  EXPECT_EQ(refused([](auto& v) { v.comm_c[0] ^= 1; }),
            prefix + "comm_r_old is not Poseidon(comm_c, the root of challenge 0's proof_r_old)");
  EXPECT_EQ(refused_for(1, {comms.comm_r_old, comms.comm_r_new, comms.comm_d_new + Fr::one()}),
            prefix + "challenge 0: proof_d_new's root is not comm_d_new");
  // Partition 1's proof given as partition 0's: its nodes are not the ones drawn for 0.
  EXPECT_NE(refused_for(0, comms).find("vanilla proof 0: challenge 0: proof_r_old proves node "), std::string::npos);
  EXPECT_EQ(refused([](auto& v) { v.challenge_proofs[3].proof_r_old.root[0] ^= 1; }),
            prefix + "challenge 3: proof_r_old's or proof_r_new's root is not challenge 0's (a tree has one root)");
  EXPECT_EQ(refused([](auto& v) { v.challenge_proofs[3].proof_r_old.base[1].hashes[2][0] ^= 1; }),
            prefix + "challenge 3: proof_r_old's path does not lead from its leaf to tree_r_old's root");
  EXPECT_EQ(refused([](auto& v) { v.challenge_proofs[4].proof_r_new.leaf[0] ^= 1; }),
            prefix + "challenge 4: proof_r_new's path does not lead from its leaf to tree_r_new's root");
  EXPECT_NE(refused([](auto& v) { v.challenge_proofs[5].proof_d_new.leaf[0] ^= 1; })
                .find(prefix + "challenge 5: proof_d_new's node at the apex level is not apex leaf "),
            std::string::npos);
  EXPECT_EQ(refused([](auto& v) { v.challenge_proofs[6].proof_d_new.base[8].hashes[0][0] ^= 1; }),
            prefix + "challenge 6: proof_d_new's path does not lead from its leaf to comm_d_new");
  // An apex leaf no challenge lands on is still one the circuit hashes to comm_d_new.
  std::vector<bool> challenged(shape.apex_leaf_count);
  for (const update::UpdateChallenge& c : p.challenges) {
    challenged[(core::path_leaf_index(c.path_r_old, shape.tree_r) >> shape.levels_below_apex()) %
               shape.apex_leaf_count] = true;
  }
  const std::size_t unchallenged = static_cast<std::size_t>(std::find(challenged.begin(), challenged.end(), false) -
                                                            challenged.begin());
  ASSERT_LT(unchallenged, challenged.size());
  EXPECT_EQ(refused([&](auto& v) { v.apex_leafs[unchallenged][0] ^= 1; }),
            prefix + "the apex leaves and challenge 0's top levels of proof_d_new do not lead to comm_d_new");
  EXPECT_NE(refused([](auto& v) {
              for (core::NodeBytes& leaf : v.apex_leafs) leaf[0] ^= 1;
            }).find(prefix + "challenge 0: proof_d_new's node at the apex level is not apex leaf "),
            std::string::npos);
  EXPECT_EQ(refused([](auto& v) { v.challenge_proofs[7].proof_r_new.base[0].hashes.pop_back(); }),
            prefix + "challenge 7: proof_r_new: its base path level 0 has 6 siblings, arity 8 takes 7");
  EXPECT_EQ(refused([](auto& v) { v.challenge_proofs[8].proof_r_old.kind = MerkleProof::Kind::kSingle; }),
            prefix + "challenge 8: proof_r_old: a Single proof, the tree 8-8-0 of this sector size takes Sub");
  EXPECT_EQ(refused([](auto& v) { v.challenge_proofs.pop_back(); }), prefix + "9 challenge proofs, 10 expected");
  EXPECT_EQ(refused([](auto& v) { v.apex_leafs.pop_back(); }), prefix + "127 apex leaves, 128 expected");
  EXPECT_EQ(refused_for(2, comms), "vanilla proof 2: partition 2 of an update of 2");
  EXPECT_REFUSED(update_partition_from_vanilla(update::update_shape(512, {8, 8, 0}, update::UpdateHash::kPoseidon),
                                               good, 0, comms),
                 "the Poseidon variant's vanilla proofs are not supported");
}

// Past 1024 nodes the six h values differ: proofs made for one h are refused for another
// (their new labels are not the old plus data · rho of that h).
TEST(FilecoinVanillaInputs, UpdateProofsAreCheckedForTheirH) {
  const update::UpdateShape shape = update::update_shape(2048, {8, 4, 0}, update::UpdateHash::kSha256);
  const synthetic::SyntheticUpdate update = synthetic::synthetic_update(shape, 23, 3);
  const update::UpdatePartition& p = update.partitions[2];
  const UpdateCommitments comms{p.comm_r_old, p.comm_r_new, p.comm_d_new};
  const UpdatePartitionProof vanilla = update_vanilla_proof(shape, p);
  EXPECT_NO_THROW(update_partition_from_vanilla(shape, vanilla, 2, comms, 3));
  EXPECT_REFUSED(update_partition_from_vanilla(shape, vanilla, 2, comms, 2),
                 "challenge 0: proof_r_new's leaf is not leaf_r_old + leaf_d_new · rho for h = 9");
}

}  // namespace
}  // namespace zkpipe::filecoin::api
