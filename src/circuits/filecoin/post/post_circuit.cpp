#include "circuits/filecoin/post/post_circuit.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <future>
#include <memory>
#include <stdexcept>
#include <utility>

#include "circuits/filecoin/core/constraint_gadgets.hpp"
#include "circuits/filecoin/core/por_gadget.hpp"
#include "circuits/filecoin/hashers/poseidon_gadget.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::filecoin::post {

using gadgets::AllocatedNum;
using r1cs::ConstraintSystem;

namespace {

void synthesize_sector(ConstraintSystem& cs, const PostSector& sector, const core::TreeShape& shape) {
  auto alloc = [&](std::string_view label, const Fr& value) {
    auto s = cs.scope(label);
    return AllocatedNum::alloc(cs, value);
  };
  const AllocatedNum comm_r_last = alloc("comm_r_last", sector.comm_r_last);
  const AllocatedNum comm_c = alloc("comm_c", sector.comm_c);
  const AllocatedNum comm_r = alloc("comm_r", sector.comm_r);
  {
    auto s = cs.scope("comm_r_input");
    comm_r.inputize(cs);
  }
  {
    auto s = cs.scope("H_comm_c_comm_r_last");
    const AllocatedNum children[] = {comm_c, comm_r_last};
    const AllocatedNum hash = hashers::poseidon::hash(cs, children);
    auto e = cs.scope("enforce_comm_c_comm_r_last_hash_comm_r");
    core::enforce_equal(cs, comm_r, hash);
  }
  for (std::size_t i = 0; i < sector.challenges.size(); ++i) {
    auto s = cs.scope("challenge_inclusion", i);
    const PostChallenge& c = sector.challenges[i];
    core::enforce_inclusion(cs, core::TreeHash::kPoseidon, shape, c.leaf, c.path, comm_r_last,
                            core::RootVisibility::kPrivate);
  }
}

}  // namespace

void synthesize_fallback_post(ConstraintSystem& cs, const PostPartition& partition, const core::TreeShape& tree_shape) {
  for (std::size_t i = 0; i < partition.sectors.size(); ++i) {
    auto s = cs.scope("sector", i);
    try {
      synthesize_sector(cs, partition.sectors[i], tree_shape);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("sector " + std::to_string(i) + ": " + e.what());
    }
  }
}

std::vector<Fr> fallback_post_public_inputs(const PostPartition& partition) {
  std::vector<Fr> inputs;
  for (const PostSector& sector : partition.sectors) {
    inputs.push_back(sector.comm_r);
    for (const PostChallenge& c : sector.challenges) {
      for (const Fr& input : core::inclusion_public_inputs(c.leaf_index)) inputs.push_back(input);
    }
  }
  return inputs;
}

FallbackPostCircuit::FallbackPostCircuit(std::string name, core::TreeShape tree_shape,
                                         std::vector<PostPartition> partitions)
    : name_(std::move(name)), tree_shape_(tree_shape), partitions_(std::move(partitions)) {
  if (partitions_.empty()) throw std::invalid_argument(name_ + ": a PoSt proof without partitions");
  const PostPartition& first = partitions_.front();
  if (first.sectors.empty()) throw std::invalid_argument(name_ + ": a partition without sectors");
  for (std::size_t k = 0; k < partitions_.size(); ++k) {
    const PostPartition& p = partitions_[k];
    if (p.sectors.size() != first.sectors.size()) {
      throw std::invalid_argument(name_ + ": partition " + std::to_string(k) + " has " +
                                  std::to_string(p.sectors.size()) + " sectors, partition 0 has " +
                                  std::to_string(first.sectors.size()));
    }
    for (std::size_t i = 0; i < p.sectors.size(); ++i) {
      if (p.sectors[i].challenges.size() != first.sectors[0].challenges.size()) {
        throw std::invalid_argument(name_ + ": partition " + std::to_string(k) + " sector " + std::to_string(i) +
                                    " has " + std::to_string(p.sectors[i].challenges.size()) +
                                    " challenges, not " + std::to_string(first.sectors[0].challenges.size()));
      }
    }
  }
}

const PostPartition& FallbackPostCircuit::at(std::size_t partition) const {
  if (partition >= partitions_.size()) {
    throw std::out_of_range(name_ + ": partition " + std::to_string(partition) + " of " +
                            std::to_string(partitions_.size()));
  }
  return partitions_[partition];
}

void FallbackPostCircuit::synthesize(ConstraintSystem& cs, std::size_t partition) const {
  synthesize_fallback_post(cs, at(partition), tree_shape_);
}

std::vector<Fr> FallbackPostCircuit::public_inputs(std::size_t partition) const {
  return fallback_post_public_inputs(at(partition));
}

void FallbackPostCircuit::synthesize_shape(ConstraintSystem& cs, std::size_t partition) const {
  // A sector's constraints do not depend on its values (the constructor checked that
  // every sector has as many challenges): one sector recorded, its copies appended,
  // in the variable order of synthesize(). Synthesizing a 32 GiB Window partition's
  // 2349 sectors into the compiled form took 398 s on the H200's host.
  const std::unique_ptr<ConstraintSystem> sector = cs.new_segment();
  if (!sector) {
    synthesize(cs, partition);
    return;
  }
  const PostPartition& p = at(partition);
  try {
    synthesize_sector(*sector, p.sectors.front(), tree_shape_);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("sector 0: " + std::string(e.what()));
  }
  cs.append_segment(*sector, p.sectors.size());
}

r1cs::WitnessValues FallbackPostCircuit::synthesize_values(std::size_t partition, std::size_t inputs_hint,
                                                           std::size_t aux_hint) const {
  const PostPartition& p = at(partition);
  // The sectors share nothing: each is synthesized on a segment of its own, on all
  // cores (a 32 GiB Window partition has 2349), and appended in sector order, the
  // variable order of synthesize(). A block of sectors at a time, on two sets of
  // segments kept from block to block: while the cores synthesize one block into
  // one set, another thread appends the block before from the other set. The
  // segments hold two blocks' values, not the partition's (a second copy,
  // untracked), and allocate nothing after the first blocks (a mapping made and
  // unmapped per sector stalls every core of the process).
  r1cs::WitnessSystem head(inputs_hint, aux_hint);
  const std::size_t n = p.sectors.size();
  const std::size_t segment_hint = aux_hint / std::max<std::size_t>(n, 1);
  const std::size_t block =
      std::min(n, 4 * static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency())));
  std::vector<std::unique_ptr<r1cs::WitnessSystem>> segments(2 * block);
  for (auto& segment : segments) {
    segment = std::make_unique<r1cs::WitnessSystem>(r1cs::WitnessSystem::Segment{}, segment_hint);
  }
  std::future<void> appending;
  for (std::size_t first = 0, round = 0; first < n; first += block, ++round) {
    const std::size_t count = std::min(block, n - first);
    std::unique_ptr<r1cs::WitnessSystem>* set = segments.data() + (round % 2) * block;
    try {
      tbb::parallel_for(std::size_t{0}, count, [&](std::size_t i) {
        try {
          synthesize_sector(*set[i], p.sectors[first + i], tree_shape_);
        } catch (const std::invalid_argument& e) {
          throw std::invalid_argument("sector " + std::to_string(first + i) + ": " + e.what());
        }
      });
    } catch (...) {
      if (appending.valid()) appending.wait();
      throw;
    }
    if (appending.valid()) appending.get();
    appending = std::async(std::launch::async, [&head, set, count] {
      for (std::size_t i = 0; i < count; ++i) head.append(std::move(*set[i]));
    });
  }
  if (appending.valid()) appending.get();
  return std::move(head).values();
}

FallbackPostCircuit fallback_post_shape(std::string name, std::uint64_t leaves, const core::TreeShape& tree_shape,
                                        std::size_t sectors, std::size_t challenges) {
  PostSector sector{};
  sector.challenges.assign(challenges, PostChallenge{0, Fr::zero(), core::zero_path(leaves, tree_shape)});
  PostPartition partition;
  partition.sectors.assign(sectors, sector);
  return FallbackPostCircuit(std::move(name), tree_shape, {std::move(partition)});
}

}  // namespace zkpipe::filecoin::post
