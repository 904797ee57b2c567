// The published parameter file names against rust-fil-proofs' rule for them: "v28-",
// the circuit's cache prefix (its tree's arities), "-", and the SHA-256 of its public
// parameters' identifier — built here from zkpipe's own constants (layers, challenges
// per partition, PoSt sector and challenge counts), so a name that does not follow
// from them, or a constant that differs from Filecoin's, fails.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <span>
#include <string>

#include "circuits/filecoin/api/published_parameters.hpp"
#include "circuits/filecoin/core/hex_bytes.hpp"
#include "circuits/filecoin/core/seal_proof.hpp"
#include "circuits/filecoin/core/sector_shape.hpp"
#include "circuits/filecoin/post/post_proof.hpp"
#include "hash/sha256.hpp"

namespace zkpipe::filecoin::api {
namespace {

std::string sha256_hex(const std::string& text) {
  const auto digest = hash::sha256::hash(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  return core::hex_of(digest);
}

std::string tree_name(const core::SectorShape& shape) {
  return "merkletree-poseidon_hasher-" + std::to_string(shape.base_arity) + "-" + std::to_string(shape.sub_arity) +
         "-" + std::to_string(shape.top_arity);
}

const core::SealProof& interactive_v1_1(std::uint64_t sector_bytes) {
  for (const core::SealProof& proof : core::seal_proofs()) {
    if (proof.sector_bytes == sector_bytes && proof.name.ends_with("V1_1")) return proof;
  }
  throw std::invalid_argument("no V1_1 seal proof");
}

TEST(PublishedParameters, NamesFollowFromTheCircuitsOwnConstants) {
  std::set<std::string_view> names;
  for (const core::SectorShape& shape : core::published_sector_shapes()) {
    const std::uint64_t bytes = shape.sector_bytes;
    const std::string tree = tree_name(shape);
    const std::string porep =
        "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
        "drgraph::BucketGraph{size: " +
        std::to_string(shape.nodes()) + "; degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges { layers: " +
        std::to_string(shape.layers) + ", max_count: " +
        std::to_string(interactive_v1_1(bytes).challenges_per_partition()) + " }, tree: " + tree + " }";
    EXPECT_EQ(published_params_name(ParameterCircuit::kPorep, bytes),
              "v28-stacked-proof-of-replication-" + tree + "-sha256_hasher-" + sha256_hex(porep) + ".params")
        << bytes;
    const post::PostProof window = post::post_proof(post::PostKind::kWindow, bytes);
    const std::string window_id = "FallbackPoSt::PublicParams{sector_size: " + std::to_string(bytes) +
                                  ", challenge_count: " + std::to_string(window.challenge_count) +
                                  ", sector_count: " + std::to_string(window.sector_count) + "}";
    EXPECT_EQ(published_params_name(ParameterCircuit::kWindowPost, bytes),
              "v28-proof-of-spacetime-fallback-" + tree + "-" + sha256_hex(window_id) + ".params")
        << bytes;
    // Winning PoSt's challenges over its one sector are set up as one challenge over
    // as many sectors (filecoin-proofs' winning_post_setup_params).
    const post::PostProof winning = post::post_proof(post::PostKind::kWinning, bytes);
    const std::string winning_id = "FallbackPoSt::PublicParams{sector_size: " + std::to_string(bytes) +
                                   ", challenge_count: 1, sector_count: " +
                                   std::to_string(winning.challenge_count * winning.sector_count) + "}";
    EXPECT_EQ(published_params_name(ParameterCircuit::kWinningPost, bytes),
              "v28-proof-of-spacetime-fallback-" + tree + "-" + sha256_hex(winning_id) + ".params")
        << bytes;
    const std::string update_id = "empty_sector_update::PublicParams{ sector_nodes: " + std::to_string(shape.nodes()) + " }";
    EXPECT_EQ(published_params_name(ParameterCircuit::kSnapDeals, bytes),
              "v28-empty-sector-update-" + tree + "-" + sha256_hex(update_id) + ".params")
        << bytes;
    for (const ParameterCircuit c : {ParameterCircuit::kPorep, ParameterCircuit::kWindowPost,
                                     ParameterCircuit::kWinningPost, ParameterCircuit::kSnapDeals}) {
      names.insert(published_params_name(c, bytes).value_or(""));
    }
  }
  EXPECT_EQ(names.size(), 20u);
  EXPECT_FALSE(published_params_name(ParameterCircuit::kPorep, 4096).has_value());
}

}  // namespace
}  // namespace zkpipe::filecoin::api
