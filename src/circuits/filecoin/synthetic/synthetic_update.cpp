#include "circuits/filecoin/synthetic/synthetic_update.hpp"

#include <functional>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>

#include "circuits/filecoin/core/sparse_poseidon_tree.hpp"
#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/update/update_randomness.hpp"

namespace zkpipe::filecoin::synthetic {

using ff::Fr;

namespace {

Fr comm_r_of(const Fr& comm_c, const Fr& root_r) {
  const Fr children[] = {comm_c, root_r};
  return hashers::poseidon::hash(children);
}

// A binary SHA-256 tree's levels, the leaves first.
std::vector<std::vector<hashers::Sha256Domain>> binary_levels(std::vector<hashers::Sha256Domain> leaves) {
  std::vector<std::vector<hashers::Sha256Domain>> levels{std::move(leaves)};
  while (levels.back().size() > 1) {
    const auto& below = levels.back();
    std::vector<hashers::Sha256Domain> up(below.size() / 2);
    for (std::size_t i = 0; i < up.size(); ++i) up[i] = hashers::sha256_hash2(below[2 * i], below[2 * i + 1]);
    levels.push_back(std::move(up));
  }
  return levels;
}

// What an update's partitions are cut from, whether its sector is held whole or sparse.
struct UpdateSource {
  Fr comm_c;
  Fr root_r_old;
  Fr root_r_new;
  Fr comm_d_new;
  std::function<Fr(std::uint64_t node)> leaf_r_old;
  std::function<Fr(std::uint64_t node)> leaf_d_new;
  std::function<core::PoseidonPath(std::uint64_t node)> path_r_old;
  std::function<core::PoseidonPath(std::uint64_t node)> path_r_new;
  // tree_d: the Poseidon variant's path; the SHA-256 variant's node at (level, index).
  std::function<core::PoseidonPath(std::uint64_t node)> path_d_poseidon;
  std::function<hashers::Sha256Domain(std::size_t level, std::uint64_t index)> d_node;
};

// The siblings of node `index` of level `from` of tree_d, up to level `to`, one a level.
std::vector<core::PathElement> binary_path(const UpdateSource& src, std::uint64_t index, std::size_t from,
                                           std::size_t to) {
  std::vector<core::PathElement> path;
  for (std::size_t level = from; level < to; ++level) {
    const std::uint64_t at = index >> (level - from);
    path.push_back(
        core::PathElement{{hashers::domain_to_fr(src.d_node(level, at ^ 1))}, static_cast<std::size_t>(at & 1)});
  }
  return path;
}

SyntheticUpdate cut_partitions(const update::UpdateShape& shape, std::size_t h_index, const UpdateSource& src) {
  const bool sha = shape.variant == update::UpdateHash::kSha256;
  const std::size_t cbl = shape.challenge_bits();
  const std::size_t below_apex = shape.levels_below_apex();
  const Fr comm_r_new = comm_r_of(src.comm_c, src.root_r_new);
  SyntheticUpdate out{shape, {}};
  for (std::uint64_t k = 0; k < shape.partitions; ++k) {
    update::UpdatePartition p{};
    p.k = k;
    p.h_index = h_index;
    p.comm_r_old = comm_r_of(src.comm_c, src.root_r_old);
    p.comm_d_new = src.comm_d_new;
    p.comm_r_new = comm_r_new;
    p.comm_c = src.comm_c;
    p.root_r_old = src.root_r_old;
    p.root_r_new = src.root_r_new;
    if (sha) {
      for (std::uint64_t a = 0; a < shape.apex_leaf_count; ++a) {
        p.apex_leaves.push_back(hashers::domain_to_fr(src.d_node(below_apex, k * shape.apex_leaf_count + a)));
      }
      p.partition_path = binary_path(src, k, cbl - shape.partition_bits(), cbl);
    }
    for (const std::uint64_t c : update::update_challenges(shape, comm_r_new, k)) {
      p.challenges.push_back(
          update::UpdateChallenge{src.leaf_r_old(c), src.leaf_d_new(c), src.path_r_old(c), src.path_r_new(c),
                                  sha ? binary_path(src, c, 0, below_apex) : src.path_d_poseidon(c)});
    }
    out.partitions.push_back(std::move(p));
  }
  return out;
}

void check_h_index(const update::UpdateShape& shape, std::size_t h_index) {
  if (h_index >= shape.hs.size()) throw std::invalid_argument("synthetic_update: h index past the six h values");
}

}  // namespace

SyntheticUpdate synthetic_update(const update::UpdateShape& shape, std::uint64_t seed, std::size_t h_index) {
  if (shape.nodes > (std::uint64_t{1} << 20)) {
    throw std::invalid_argument("synthetic_update: " + std::to_string(shape.nodes) +
                                " nodes is more than this in-memory update holds (2^20)");
  }
  check_h_index(shape, h_index);
  std::mt19937_64 rng(seed);
  std::vector<Fr> old_labels(shape.nodes);
  for (Fr& x : old_labels) x = Fr::random(rng);
  std::vector<hashers::Sha256Domain> data(shape.nodes);
  for (hashers::Sha256Domain& d : data) d = hashers::fr_to_domain(Fr::random(rng));
  const Fr comm_c = Fr::random(rng);

  const core::PoseidonTree tree_r_old(old_labels, shape.tree_r);
  std::vector<Fr> data_fr(shape.nodes);
  for (std::size_t i = 0; i < data.size(); ++i) data_fr[i] = hashers::domain_to_fr(data[i]);
  const bool sha = shape.variant == update::UpdateHash::kSha256;
  const std::vector<std::vector<hashers::Sha256Domain>> d_levels = sha ? binary_levels(data) : decltype(d_levels){};
  std::optional<core::PoseidonTree> tree_d_poseidon;
  if (!sha) tree_d_poseidon.emplace(data_fr, shape.tree_r);
  const Fr comm_d_new = sha ? hashers::domain_to_fr(d_levels.back()[0]) : tree_d_poseidon->root();

  // The new replica: label_new = label_old + data·rho, rho from phi and the node's high bits.
  const Fr phi = update::update_phi(comm_d_new, comm_r_of(comm_c, tree_r_old.root()));
  std::vector<Fr> new_labels(shape.nodes);
  for (std::uint64_t i = 0; i < shape.nodes; ++i) {
    new_labels[i] = old_labels[i] + data_fr[i] * update::update_rho(shape, phi, h_index, i);
  }
  const core::PoseidonTree tree_r_new(new_labels, shape.tree_r);

  UpdateSource src{comm_c, tree_r_old.root(), tree_r_new.root(), comm_d_new,
                   [&](std::uint64_t c) { return old_labels[c]; },
                   [&](std::uint64_t c) { return data_fr[c]; },
                   [&](std::uint64_t c) { return tree_r_old.path(c); },
                   [&](std::uint64_t c) { return tree_r_new.path(c); },
                   [&](std::uint64_t c) { return tree_d_poseidon->path(c); },
                   [&](std::size_t level, std::uint64_t index) { return d_levels[level][index]; }};
  return cut_partitions(shape, h_index, src);
}

SyntheticUpdate synthetic_empty_update(const update::UpdateShape& shape, std::uint64_t seed, std::size_t h_index) {
  check_h_index(shape, h_index);
  constexpr std::size_t kRandomLabels = 64;
  std::mt19937_64 rng(seed);
  std::map<std::uint64_t, Fr> labels;
  while (labels.size() < std::min<std::uint64_t>(kRandomLabels, shape.nodes)) {
    labels.emplace(rng() % shape.nodes, Fr::random(rng));
  }
  const core::SparsePoseidonTree tree_r(shape.nodes, shape.tree_r, labels);
  const Fr comm_c = Fr::random(rng);
  // The all-zero tree_d: one node a level, leaves first.
  std::vector<hashers::Sha256Domain> zero_levels{hashers::Sha256Domain{}};
  for (std::size_t l = 0; l < shape.challenge_bits(); ++l) {
    zero_levels.push_back(hashers::sha256_hash2(zero_levels.back(), zero_levels.back()));
  }
  const core::SparsePoseidonTree tree_d_poseidon(shape.nodes, shape.tree_r, {});
  const bool sha = shape.variant == update::UpdateHash::kSha256;
  const Fr comm_d_new = sha ? hashers::domain_to_fr(zero_levels.back()) : tree_d_poseidon.root();

  // Zero data: the new replica is the old one.
  UpdateSource src{comm_c, tree_r.root(), tree_r.root(), comm_d_new,
                   [&](std::uint64_t c) { return tree_r.leaf(c); },
                   [](std::uint64_t) { return Fr::zero(); },
                   [&](std::uint64_t c) { return tree_r.path(c); },
                   [&](std::uint64_t c) { return tree_r.path(c); },
                   [&](std::uint64_t c) { return tree_d_poseidon.path(c); },
                   [&](std::size_t level, std::uint64_t) { return zero_levels[level]; }};
  return cut_partitions(shape, h_index, src);
}

}  // namespace zkpipe::filecoin::synthetic
