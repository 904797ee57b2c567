// The bincode vanilla proofs of PoSt and SnapDeals (circuits/filecoin/api/vanilla_proofs.hpp):
// the byte layout bincode 1.3 gives storage-proofs' structs (tags, field order, u64
// lengths), round trips, the 32 GiB blob sizes derived from that layout, and every kind
// of damage refused with the offset and the problem named.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "circuits/filecoin/api/bincode.hpp"
#include "circuits/filecoin/api/post_vanilla.hpp"
#include "circuits/filecoin/api/update_vanilla.hpp"
#include "circuits/filecoin/api/vanilla_merkle.hpp"
#include "circuits/filecoin/api/vanilla_proofs.hpp"
#include "circuits/filecoin/post/post_proof.hpp"
#include "circuits/filecoin/update/update_circuit.hpp"

namespace zkpipe::filecoin::api {
namespace {

constexpr std::uint64_t kOneGiB = std::uint64_t{1} << 30;

core::NodeBytes node(std::uint8_t fill) {
  core::NodeBytes b{};
  b.fill(fill);
  b[31] = 0;  // below r whatever the fill
  return b;
}

MerklePath path_of(std::mt19937_64& rng, std::size_t levels, std::size_t arity) {
  MerklePath out(levels);
  for (MerklePathElement& e : out) {
    for (std::size_t i = 0; i + 1 < arity; ++i) e.hashes.push_back(node(static_cast<std::uint8_t>(rng())));
    e.index = rng() % arity;
  }
  return out;
}

MerkleProof proof_of(std::mt19937_64& rng, MerkleProof::Kind kind) {
  MerkleProof p;
  p.kind = kind;
  p.root = node(static_cast<std::uint8_t>(rng()));
  p.leaf = node(static_cast<std::uint8_t>(rng()));
  p.base = path_of(rng, 2, 8);
  if (kind != MerkleProof::Kind::kSingle) p.sub = path_of(rng, 1, 8);
  if (kind == MerkleProof::Kind::kTop) p.top = path_of(rng, 1, 2);
  return p;
}

// A 2 KiB Window PoSt sector's vanilla proof: 10 Single proofs of two arity-8 levels.
FallbackPostSectorProof post_sample(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  SectorProof s{{}, node(7), node(8)};
  for (int i = 0; i < 10; ++i) s.inclusion_proofs.push_back(proof_of(rng, MerkleProof::Kind::kSingle));
  return FallbackPostSectorProof{rng(), node(9), {s}};
}

UpdatePartitionProof update_sample(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  UpdatePartitionProof p{node(3), {node(1), node(2)}, {}};
  for (int i = 0; i < 3; ++i) {
    p.challenge_proofs.push_back(UpdateChallengeProof{proof_of(rng, MerkleProof::Kind::kSub),
                                                      proof_of(rng, MerkleProof::Kind::kSingle),
                                                      proof_of(rng, MerkleProof::Kind::kSub)});
  }
  return p;
}

void put_u64(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

std::uint64_t load_u64(std::span<const std::uint8_t> b) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[static_cast<std::size_t>(i)];
  return v;
}

// The error `parse` throws, or a failed test when it throws none.
template <class Parse>
BincodeError error_of(Parse&& parse) {
  try {
    parse();
  } catch (const BincodeError& e) {
    return e;
  }
  ADD_FAILURE() << "no BincodeError";
  return BincodeError("", 0, "");
}

TEST(FilecoinVanilla, MerkleProofsHaveBincodesLayout) {
  MerkleProof single{MerkleProof::Kind::kSingle, node(1), node(2), {{{node(3)}, 1}}, {}, {}};
  std::vector<std::uint8_t> expected = {0, 0, 0, 0};  // the Single variant
  expected.insert(expected.end(), single.root.begin(), single.root.end());  // root before leaf
  expected.insert(expected.end(), single.leaf.begin(), single.leaf.end());
  for (std::uint8_t b : {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}) expected.push_back(b);  // 1 level, 1 sibling
  expected.insert(expected.end(), single.base[0].hashes[0].begin(), single.base[0].hashes[0].end());
  for (std::uint8_t b : {1, 0, 0, 0, 0, 0, 0, 0}) expected.push_back(b);  // index 1
  EXPECT_EQ(merkle_proof_bytes(single), expected);

  // Sub and Top: the tag, the paths, then root and leaf last.
  std::mt19937_64 rng(1);
  for (const MerkleProof::Kind kind : {MerkleProof::Kind::kSub, MerkleProof::Kind::kTop}) {
    const MerkleProof p = proof_of(rng, kind);
    const std::vector<std::uint8_t> bytes = merkle_proof_bytes(p);
    EXPECT_EQ(bytes[0], kind == MerkleProof::Kind::kSub ? 1 : 2);
    EXPECT_EQ(bytes.size(), 4 + (8 + 2 * (8 + 7 * 32 + 8)) + (8 + 8 + 7 * 32 + 8) +
                                (kind == MerkleProof::Kind::kTop ? 8 + 8 + 32 + 8 : 0) + 64);
    EXPECT_TRUE(std::equal(p.root.begin(), p.root.end(), bytes.end() - 64));
    EXPECT_TRUE(std::equal(p.leaf.begin(), p.leaf.end(), bytes.end() - 32));
    EXPECT_EQ(parse_merkle_proof(bytes, "proof"), p);
  }
}

TEST(FilecoinVanilla, BlobsRoundTrip) {
  const FallbackPostSectorProof post = post_sample(2);
  const std::vector<std::uint8_t> post_bytes = post_vanilla_proof_bytes(post);
  EXPECT_EQ(parse_post_vanilla_proof(post_bytes, "post"), post);
  EXPECT_EQ(post_bytes.size(), 8 + 32 + 8 + 8 + 10 * (4 + 64 + 8 + 2 * (8 + 7 * 32 + 8)) + 64);
  // sector_id, then comm_r, then the sector list.
  EXPECT_EQ(load_u64(post_bytes), post.sector_id);

  const UpdatePartitionProof update = update_sample(3);
  EXPECT_EQ(parse_update_vanilla_proof(update_vanilla_proof_bytes(update), "update"), update);
  EXPECT_NE(parse_update_vanilla_proof(update_vanilla_proof_bytes(update_sample(4)), "update"), update);
}

// The sizes docs/filecoin/vanilla-proofs.md derives for 32 GiB (and 64 GiB) sectors,
// written from all-zero proofs of the published shapes.
TEST(FilecoinVanilla, ThirtyTwoGiBBlobsHaveTheDerivedSizes) {
  const core::TreeShape sub{8, 8, 0};
  const MerkleProof tree_r = merkle_proof_from_path(Fr::zero(), Fr::zero(), core::zero_path(kOneGiB, sub), sub);
  EXPECT_EQ(merkle_proof_bytes(tree_r).size(), 2484u);
  const core::TreeShape top{8, 8, 2};
  EXPECT_EQ(
      merkle_proof_bytes(merkle_proof_from_path(Fr::zero(), Fr::zero(), core::zero_path(2 * kOneGiB, top), top)).size(),
      2540u);
  const core::TreeShape binary{2, 0, 0};
  EXPECT_EQ(
      merkle_proof_bytes(merkle_proof_from_path(Fr::zero(), Fr::zero(), core::zero_path(kOneGiB, binary), binary)).size(),
      1516u);

  for (const auto& [kind, size] :
       {std::pair{post::PostKind::kWindow, 24'960u}, std::pair{post::PostKind::kWinning, 164'064u}}) {
    const post::PostProof proof = post::post_proof(kind, 32 * kOneGiB);
    // One vanilla sector: Window's one sector of 10 challenges, Winning's 66 sectors of one.
    const std::size_t sectors = kind == post::PostKind::kWindow ? 1 : proof.sector_count;
    const post::FallbackPostCircuit zero =
        post::fallback_post_shape(proof.name(), proof.leaves(), proof.tree_shape(), sectors, proof.challenge_count);
    const std::uint64_t id = 1;
    const std::vector<FallbackPostSectorProof> vanilla = post_vanilla_proofs(proof, zero.assignments()[0], {&id, 1});
    ASSERT_EQ(vanilla.size(), 1u);
    EXPECT_EQ(post_vanilla_proof_bytes(vanilla[0]).size(), size) << proof.name();
  }

  const update::UpdateShape snap = update::update_shape(kOneGiB, sub, update::UpdateHash::kSha256);
  const std::vector<std::uint8_t> partition =
      update_vanilla_proof_bytes(update_vanilla_proof(snap, update::blank_update_partition(snap)));
  EXPECT_EQ(partition.size(), 561'768u);
}

TEST(FilecoinVanilla, TruncatedBlobsAreRefusedAtEveryOffset) {
  const std::vector<std::uint8_t> post = post_vanilla_proof_bytes(post_sample(5));
  const std::vector<std::uint8_t> update = update_vanilla_proof_bytes(update_sample(6));
  for (std::size_t cut = 0; cut < post.size(); ++cut) {
    const BincodeError e = error_of([&] { parse_post_vanilla_proof(std::span(post).first(cut), "vanilla proof 3"); });
    EXPECT_LE(e.offset(), cut);
    EXPECT_NE(std::string(e.what()).find("left"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("vanilla proof 3: offset ", 0), 0u) << e.what();
  }
  for (std::size_t cut = 0; cut < update.size(); cut += 7) {
    const BincodeError e = error_of([&] { parse_update_vanilla_proof(std::span(update).first(cut), "vanilla proof 0"); });
    EXPECT_LE(e.offset(), cut);
    EXPECT_NE(std::string(e.what()).find("left"), std::string::npos) << e.what();
  }
}

TEST(FilecoinVanilla, DamagedBlobsAreRefusedWithTheProblemNamed) {
  const std::vector<std::uint8_t> good = post_vanilla_proof_bytes(post_sample(7));
  auto message = [&](auto&& damage) {
    std::vector<std::uint8_t> b = good;
    damage(b);
    return std::string(error_of([&] { parse_post_vanilla_proof(b, "vanilla proof 3"); }).what());
  };
  // sector_id 0..8, comm_r 8..40, the sector count 40..48, the first inclusion proof
  // count 48..56, its variant tag 56..60, root 60..92, leaf 92..124, path count 124..132,
  // level 0's sibling count 132..140, siblings 140..364, index 364..372.
  EXPECT_EQ(message([](auto& b) { b[56] = 3; }),
            "vanilla proof 3: offset 56: sector 0 inclusion proof 0 variant tag 3 is none of Single (0), Sub (1), Top (2)");
  EXPECT_EQ(message([](auto& b) { put_u64(b, 40, std::uint64_t{1} << 60); }).substr(0, 75),
            "vanilla proof 3: offset 40: sector proof count 1152921504606846976 exceeds ");
  EXPECT_NE(message([](auto& b) { put_u64(b, 124, std::uint64_t{1} << 40); })
                .find("offset 124: sector 0 inclusion proof 0 path element count 1099511627776 exceeds the"),
            std::string::npos);
  EXPECT_NE(message([](auto& b) { put_u64(b, 132, ~std::uint64_t{0}); }).find("sibling count 18446744073709551615"),
            std::string::npos);
  EXPECT_NE(message([](auto& b) { std::fill(b.begin() + 8, b.begin() + 40, 0xff); })
                .find("offset 8: comm_r is a non-canonical field element"),
            std::string::npos);
  // r itself is not canonical either.
  const ff::Limbs<4> r = ff::Fr::kModulus;
  EXPECT_NE(message([&](auto& b) {
              for (std::size_t i = 0; i < 32; ++i) b[92 + i] = static_cast<std::uint8_t>(r[i / 8] >> (8 * (i % 8)));
            }).find("offset 92: sector 0 inclusion proof 0 leaf is a non-canonical"),
            std::string::npos);
  EXPECT_NE(message([](auto& b) { put_u64(b, 364, 8); }).find("offset 364: sector 0 inclusion proof 0 path level 0 index 8 is not among its 8 children"),
            std::string::npos);
  EXPECT_EQ(message([](auto& b) { b.push_back(0); }),
            "vanilla proof 3: offset " + std::to_string(good.size()) + ": 1 trailing bytes after the proof");

  std::vector<std::uint8_t> update = update_vanilla_proof_bytes(update_sample(8));
  std::fill(update.begin(), update.begin() + 32, 0xff);
  EXPECT_NE(std::string(error_of([&] { parse_update_vanilla_proof(update, "vanilla proof 0"); }).what())
                .find("vanilla proof 0: offset 0: comm_c is a non-canonical field element"),
            std::string::npos);
  update = update_vanilla_proof_bytes(update_sample(8));
  put_u64(update, 32, std::uint64_t{1} << 58);
  EXPECT_NE(std::string(error_of([&] { parse_update_vanilla_proof(update, "vanilla proof 0"); }).what())
                .find("offset 32: apex leaf count 288230376151711744 exceeds the"),
            std::string::npos);
}

}  // namespace
}  // namespace zkpipe::filecoin::api
