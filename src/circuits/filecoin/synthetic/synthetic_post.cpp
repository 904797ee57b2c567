#include "circuits/filecoin/synthetic/synthetic_post.hpp"

#include <tbb/parallel_for.h>

#include <map>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "circuits/filecoin/core/sparse_poseidon_tree.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"

namespace zkpipe::filecoin::synthetic {

using ff::Fr;

namespace {

// One sector's commitments and the challenged leaves with their paths.
post::PostSector synthetic_sector(const post::PostProof& proof, std::uint64_t sector_seed,
                                  const std::vector<std::uint64_t>& leaves) {
  std::mt19937_64 rng(sector_seed);
  std::map<std::uint64_t, Fr> values;
  for (std::uint64_t leaf : leaves) values.emplace(leaf, Fr::random(rng));
  const core::SparsePoseidonTree tree(proof.leaves(), proof.tree_shape(), values);
  post::PostSector sector;
  sector.comm_c = Fr::random(rng);
  sector.comm_r_last = tree.root();
  const Fr children[] = {sector.comm_c, sector.comm_r_last};
  sector.comm_r = hashers::poseidon::hash(children);
  for (std::uint64_t leaf : leaves) {
    sector.challenges.push_back(post::PostChallenge{leaf, tree.leaf(leaf), tree.path(leaf)});
  }
  return sector;
}

post::PostRandomness randomness_of(std::mt19937_64& rng) {
  post::PostRandomness r{};
  for (auto& b : r) b = static_cast<std::uint8_t>(rng());
  r[31] &= 0x3f;  // a canonical field element's bytes, as the chain's randomness is taken
  return r;
}

// Everything drawn from the seed, in the order synthetic_post has always drawn it:
// the randomness, then per sector its id and its tree's seed.
struct Draws {
  post::PostRandomness randomness;
  std::vector<std::uint64_t> sector_ids;
  std::vector<std::uint64_t> sector_seeds;
};

Draws draw(const post::PostProof& proof, std::uint64_t seed, std::size_t partitions) {
  if (proof.kind == post::PostKind::kWinning && partitions != 1) {
    throw std::invalid_argument(proof.name() + " has one partition; " + std::to_string(partitions) +
                                " were asked for");
  }
  if (partitions == 0) throw std::invalid_argument(proof.name() + ": no partitions asked for");
  std::mt19937_64 rng(seed);
  Draws d{randomness_of(rng), {}, {}};
  const std::size_t sectors = proof.kind == post::PostKind::kWinning ? 1 : partitions * proof.sector_count;
  for (std::size_t i = 0; i < sectors; ++i) {
    d.sector_ids.push_back(rng());
    d.sector_seeds.push_back(rng());
  }
  return d;
}

}  // namespace

SyntheticPostDraws synthetic_post_draws(const post::PostProof& proof, std::uint64_t seed, std::size_t partitions) {
  Draws d = draw(proof, seed, partitions);
  return {d.randomness, std::move(d.sector_ids)};
}

post::FallbackPostCircuit synthetic_post(const post::PostProof& proof, std::uint64_t seed, std::size_t partitions,
                                         core::ApiVersion api) {
  const Draws d = draw(proof, seed, partitions);
  std::vector<post::PostPartition> out(partitions);
  if (proof.kind == post::PostKind::kWinning) {
    std::vector<std::uint64_t> leaves(proof.sector_count);
    for (std::size_t n = 0; n < leaves.size(); ++n) {
      leaves[n] = post::post_leaf_challenge(
          d.randomness, d.sector_ids[0], post::post_challenge_index(core::ApiVersion::k1_0_0, 0, 1, n), proof.leaves());
    }
    const post::PostSector whole = synthetic_sector(proof, d.sector_seeds[0], leaves);
    for (std::size_t n = 0; n < leaves.size(); ++n) {
      post::PostSector one{whole.comm_r, whole.comm_c, whole.comm_r_last, {whole.challenges[n]}};
      out[0].sectors.push_back(std::move(one));
    }
    return post::FallbackPostCircuit(proof.name(), proof.tree_shape(), std::move(out));
  }
  const std::size_t sectors = d.sector_ids.size();
  std::vector<post::PostSector> all(sectors);
  tbb::parallel_for(std::size_t{0}, sectors, [&](std::size_t i) {
    std::vector<std::uint64_t> leaves(proof.challenge_count);
    for (std::size_t n = 0; n < leaves.size(); ++n) {
      leaves[n] = post::post_leaf_challenge(
          d.randomness, d.sector_ids[i], post::post_challenge_index(api, i, proof.challenge_count, n), proof.leaves());
    }
    all[i] = synthetic_sector(proof, d.sector_seeds[i], leaves);
  });
  for (std::size_t i = 0; i < sectors; ++i) out[i / proof.sector_count].sectors.push_back(std::move(all[i]));
  return post::FallbackPostCircuit(proof.name(), proof.tree_shape(), std::move(out));
}

}  // namespace zkpipe::filecoin::synthetic
