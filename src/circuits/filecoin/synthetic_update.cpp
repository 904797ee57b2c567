#include "circuits/filecoin/synthetic_update.hpp"

#include <bit>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>

#include "circuits/filecoin/poseidon_constants.hpp"
#include "circuits/filecoin/poseidon_hash.hpp"
#include "circuits/filecoin/sha256_domain.hpp"
#include "circuits/filecoin/sparse_poseidon_tree.hpp"
#include "circuits/filecoin/tree_poseidon.hpp"

namespace zkpipe::filecoin {

namespace {

Fr randomness_hash(const Fr& a, const Fr& b) {
  const Fr preimage[] = {a, b};
  return poseidon::hash_with_tag(poseidon::constants(2), Fr::from_u64(std::uint64_t{1} << 32), preimage);
}

// Bit i of x's canonical value, least significant first.
bool bit_of(const Sha256Domain& le_bytes, std::size_t i) { return ((le_bytes[i / 8] >> (i % 8)) & 1) != 0; }

// A binary SHA-256 tree's levels, the leaves first.
std::vector<std::vector<Sha256Domain>> binary_levels(std::vector<Sha256Domain> leaves) {
  std::vector<std::vector<Sha256Domain>> levels{std::move(leaves)};
  while (levels.back().size() > 1) {
    const auto& below = levels.back();
    std::vector<Sha256Domain> up(below.size() / 2);
    for (std::size_t i = 0; i < up.size(); ++i) up[i] = sha256_hash2(below[2 * i], below[2 * i + 1]);
    levels.push_back(std::move(up));
  }
  return levels;
}

// The siblings of node `index` at levels [from, to) of a binary tree, one a level.
std::vector<PathElement> binary_path(const std::vector<std::vector<Sha256Domain>>& levels, std::uint64_t index,
                                     std::size_t from, std::size_t to) {
  std::vector<PathElement> path;
  for (std::size_t level = from; level < to; ++level) {
    const std::uint64_t at = index >> (level - from);
    path.push_back(PathElement{{domain_to_fr(levels[level][at ^ 1])}, static_cast<std::size_t>(at & 1)});
  }
  return path;
}

// The partition's challenged nodes, as gen_challenge_bits draws them in the circuit.
std::vector<std::uint64_t> challenges_of(const UpdateShape& shape, const Fr& comm_r_new, std::uint64_t k) {
  const std::size_t pbl = shape.variant == UpdateHash::kSha256 ? shape.partition_bits() : 0;
  const std::size_t bits = shape.challenge_bits() - pbl;
  const std::size_t per_digest = (Fr::kBits - 1) / bits;
  const std::size_t digests = (shape.challenge_count + per_digest - 1) / per_digest;
  std::vector<std::uint64_t> out;
  for (std::size_t j = 0; j < digests; ++j) {
    const Sha256Domain digest = fr_to_domain(randomness_hash(comm_r_new, Fr::from_u64(digests * k + j)));
    for (std::size_t c = 0; c < per_digest && out.size() < shape.challenge_count; ++c) {
      std::uint64_t value = 0;
      for (std::size_t b = 0; b < bits; ++b) value |= std::uint64_t{bit_of(digest, c * bits + b)} << b;
      out.push_back(value | (k << bits));
    }
  }
  return out;
}

}  // namespace

SyntheticUpdate synthetic_update(const UpdateShape& shape, std::uint64_t seed, std::size_t h_index) {
  if (shape.nodes > (std::uint64_t{1} << 20)) {
    throw std::invalid_argument("synthetic_update: " + std::to_string(shape.nodes) +
                                " nodes is more than this in-memory update holds (2^20)");
  }
  if (h_index >= shape.hs.size()) throw std::invalid_argument("synthetic_update: h index past the six h values");
  std::mt19937_64 rng(seed);
  const std::size_t cbl = shape.challenge_bits();
  const std::size_t h = shape.hs[h_index];
  std::vector<Fr> old_labels(shape.nodes);
  for (Fr& x : old_labels) x = Fr::random(rng);
  std::vector<Sha256Domain> data(shape.nodes);
  for (Sha256Domain& d : data) d = fr_to_domain(Fr::random(rng));
  const Fr comm_c = Fr::random(rng);

  const PoseidonTree tree_r_old(old_labels, shape.tree_r);
  const Fr comm_r_old = [&] {
    const Fr children[] = {comm_c, tree_r_old.root()};
    return poseidon::hash(children);
  }();
  const bool sha = shape.variant == UpdateHash::kSha256;
  std::vector<std::vector<Sha256Domain>> d_levels;
  std::optional<PoseidonTree> tree_d_poseidon;
  Fr comm_d_new;
  if (sha) {
    d_levels = binary_levels(data);
    comm_d_new = domain_to_fr(d_levels.back()[0]);
  } else {
    std::vector<Fr> data_fr(shape.nodes);
    for (std::size_t i = 0; i < data.size(); ++i) data_fr[i] = domain_to_fr(data[i]);
    tree_d_poseidon.emplace(std::move(data_fr), shape.tree_r);
    comm_d_new = tree_d_poseidon->root();
  }
  const Fr phi = randomness_hash(comm_d_new, comm_r_old);
  std::vector<Fr> new_labels(shape.nodes);
  for (std::uint64_t i = 0; i < shape.nodes; ++i) {
    const Fr rho = randomness_hash(phi, Fr::from_u64(i >> (cbl - h)));
    new_labels[i] = old_labels[i] + domain_to_fr(data[i]) * rho;
  }
  const PoseidonTree tree_r_new(new_labels, shape.tree_r);
  const Fr comm_r_new = [&] {
    const Fr children[] = {comm_c, tree_r_new.root()};
    return poseidon::hash(children);
  }();

  SyntheticUpdate out{shape, {}};
  const std::size_t pbl = sha ? shape.partition_bits() : 0;
  const std::size_t abl = sha ? static_cast<std::size_t>(std::countr_zero(shape.apex_leaf_count)) : 0;
  const std::size_t below_apex = cbl - pbl - abl;
  for (std::uint64_t k = 0; k < (sha ? shape.partitions : 1); ++k) {
    UpdatePartition p{};
    p.k = k;
    p.h_index = h_index;
    p.comm_r_old = comm_r_old;
    p.comm_d_new = comm_d_new;
    p.comm_r_new = comm_r_new;
    p.comm_c = comm_c;
    p.root_r_old = tree_r_old.root();
    p.root_r_new = tree_r_new.root();
    if (sha) {
      for (std::uint64_t a = 0; a < shape.apex_leaf_count; ++a) {
        p.apex_leaves.push_back(domain_to_fr(d_levels[below_apex][k * shape.apex_leaf_count + a]));
      }
      p.partition_path = binary_path(d_levels, k, cbl - pbl, cbl);
    }
    for (const std::uint64_t c : challenges_of(shape, comm_r_new, k)) {
      UpdateChallenge uc;
      uc.leaf_r_old = old_labels[c];
      uc.leaf_d_new = domain_to_fr(data[c]);
      uc.path_r_old = tree_r_old.path(c);
      uc.path_r_new = tree_r_new.path(c);
      uc.path_d_new = sha ? binary_path(d_levels, c, 0, below_apex) : tree_d_poseidon->path(c);
      p.challenges.push_back(std::move(uc));
    }
    out.partitions.push_back(std::move(p));
  }
  return out;
}

SyntheticUpdate synthetic_empty_update(const UpdateShape& shape, std::uint64_t seed, std::size_t h_index) {
  if (h_index >= shape.hs.size()) throw std::invalid_argument("synthetic_update: h index past the six h values");
  constexpr std::size_t kRandomLabels = 64;
  std::mt19937_64 rng(seed);
  std::map<std::uint64_t, Fr> labels;
  while (labels.size() < std::min<std::uint64_t>(kRandomLabels, shape.nodes)) {
    labels.emplace(rng() % shape.nodes, Fr::random(rng));
  }
  const SparsePoseidonTree tree_r(shape.nodes, shape.tree_r, labels);
  const Fr comm_c = Fr::random(rng);
  const Fr comm_r = [&] {
    const Fr children[] = {comm_c, tree_r.root()};
    return poseidon::hash(children);
  }();
  const bool sha = shape.variant == UpdateHash::kSha256;
  const std::size_t cbl = shape.challenge_bits();
  // The all-zero tree_d: one node a level, leaves first.
  std::vector<Sha256Domain> zero_levels{Sha256Domain{}};
  for (std::size_t l = 0; l < cbl; ++l) zero_levels.push_back(sha256_hash2(zero_levels.back(), zero_levels.back()));
  std::optional<SparsePoseidonTree> tree_d_poseidon;
  if (!sha) tree_d_poseidon.emplace(shape.nodes, shape.tree_r, std::map<std::uint64_t, Fr>{});
  const Fr comm_d_new = sha ? domain_to_fr(zero_levels.back()) : tree_d_poseidon->root();
  auto zero_path = [&](std::uint64_t index, std::size_t from, std::size_t to) {
    std::vector<PathElement> path;
    for (std::size_t level = from; level < to; ++level) {
      path.push_back(PathElement{{domain_to_fr(zero_levels[level])}, static_cast<std::size_t>((index >> (level - from)) & 1)});
    }
    return path;
  };

  SyntheticUpdate out{shape, {}};
  const std::size_t pbl = sha ? shape.partition_bits() : 0;
  const std::size_t abl = sha ? static_cast<std::size_t>(std::countr_zero(shape.apex_leaf_count)) : 0;
  const std::size_t below_apex = cbl - pbl - abl;
  for (std::uint64_t k = 0; k < (sha ? shape.partitions : 1); ++k) {
    UpdatePartition p{};
    p.k = k;
    p.h_index = h_index;
    p.comm_r_old = comm_r;
    p.comm_d_new = comm_d_new;
    p.comm_r_new = comm_r;
    p.comm_c = comm_c;
    p.root_r_old = tree_r.root();
    p.root_r_new = tree_r.root();
    if (sha) {
      p.apex_leaves.assign(shape.apex_leaf_count, domain_to_fr(zero_levels[below_apex]));
      p.partition_path = zero_path(k, cbl - pbl, cbl);
    }
    for (const std::uint64_t c : challenges_of(shape, comm_r, k)) {
      UpdateChallenge uc;
      uc.leaf_r_old = tree_r.leaf(c);
      uc.leaf_d_new = Fr::zero();
      uc.path_r_old = tree_r.path(c);
      uc.path_r_new = uc.path_r_old;
      uc.path_d_new = sha ? zero_path(c, 0, below_apex) : tree_d_poseidon->path(c);
      p.challenges.push_back(std::move(uc));
    }
    out.partitions.push_back(std::move(p));
  }
  return out;
}

}  // namespace zkpipe::filecoin
