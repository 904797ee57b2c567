// Filecoin's PoSt circuit for one partition: storage-proofs-post's FallbackPoStCircuit
// (fallback/circuit.rs), for Window and Winning PoSt alike, with the same variables,
// constraints and public inputs in the same order. Per sector, in order:
//  - comm_r_last, comm_c and comm_r allocated (private), comm_r made public, and
//    comm_r = Poseidon(comm_c, comm_r_last) enforced;
//  - per challenge: the challenged leaf of tree_r_last allocated and its inclusion
//    enforced against comm_r_last (por_gadget.hpp, private root): the leaf's index is
//    the one public input each challenge adds.
// A partition has 1 + sectors·(1 + challenges) inputs with ONE: 19 for rust-fil-proofs'
// fallback tests (3 sectors, 5 challenges), whose 16,869 / 22,674 / 27,384 constraints
// for trees 8, 8-4 and 8-4-2 of 64 leaves a base tree the tests assert.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/partitioned_circuit.hpp"

namespace zkpipe::filecoin::post {

using ff::Fr;

// One challenged leaf of a sector's tree_r_last and its inclusion path.
struct PostChallenge {
  std::uint64_t leaf_index = 0;
  Fr leaf;
  std::vector<core::PathElement> path;
};

// One sector as the circuit takes it (a vanilla SectorProof with its comm_r).
struct PostSector {
  Fr comm_r;
  Fr comm_c;
  Fr comm_r_last;
  std::vector<PostChallenge> challenges;
};

// One partition's sectors, already padded to the proof's sector count (the last
// sector repeated, as rust-fil-proofs pads a partition that is not full).
struct PostPartition {
  std::vector<PostSector> sectors;
};

// Throws std::invalid_argument naming the sector and challenge whose path does not fit
// `tree_shape`.
void synthesize_fallback_post(r1cs::ConstraintSystem& cs, const PostPartition& partition,
                              const core::TreeShape& tree_shape);

// FallbackPoStCompound::generate_public_inputs for the partition's sectors: per
// sector its comm_r, then its challenged leaves' indexes.
std::vector<Fr> fallback_post_public_inputs(const PostPartition& partition);

// The partitions of one PoSt proof as the engine proves them.
class FallbackPostCircuit final : public r1cs::PartitionedCircuit {
 public:
  // `name` says which proof (e.g. "filecoin-window-post/32GiB"); every partition must
  // have the same number of sectors and challenges.
  FallbackPostCircuit(std::string name, core::TreeShape tree_shape, std::vector<PostPartition> partitions);

  std::string name() const override { return name_; }
  std::size_t partitions() const override { return partitions_.size(); }
  const core::TreeShape& tree_shape() const { return tree_shape_; }
  const std::vector<PostPartition>& assignments() const { return partitions_; }
  void synthesize(r1cs::ConstraintSystem& cs, std::size_t partition) const override;
  std::vector<Fr> public_inputs(std::size_t partition) const override;
  // One sector recorded and repeated.
  void synthesize_shape(r1cs::ConstraintSystem& cs, std::size_t partition) const override;
  // Every one of them: the Poseidon states and Merkle paths that make up nearly all
  // of the witness are field elements.
  std::size_t wide_aux_bound(std::size_t aux) const override { return aux; }
  // The sectors on all cores, laid out as synthesize() allocates them.
  r1cs::WitnessValues synthesize_values(std::size_t partition, std::size_t inputs_hint = 0,
                                        std::size_t aux_hint = 0) const override;

 private:
  const PostPartition& at(std::size_t partition) const;

  std::string name_;
  core::TreeShape tree_shape_;
  std::vector<PostPartition> partitions_;
};

// The circuit with every value zero for `sectors` sectors of `challenges` challenges in
// a tree of `leaves` leaves: the shape a key is set up for and counts are taken from.
FallbackPostCircuit fallback_post_shape(std::string name, std::uint64_t leaves, const core::TreeShape& tree_shape,
                                        std::size_t sectors, std::size_t challenges);

}  // namespace zkpipe::filecoin::post
