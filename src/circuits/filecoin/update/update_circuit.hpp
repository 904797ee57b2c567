// Filecoin's SnapDeals circuit for one partition: storage-proofs-update's
// EmptySectorUpdateCircuit (circuit.rs; tree_d binary SHA-256 with an apex tree) and
// its Poseidon variant (poseidon/circuit.rs; tree_d shaped as tree_r, one partition),
// with the same constraints in the same order (docs/filecoin/snapdeals-circuit.md says
// what each step is). The challenges are derived inside the circuit from comm_r_new
// and the partition; the public inputs are [k | h_select << partition bits, comm_r_old,
// comm_d_new, comm_r_new] (the Poseidon variant: h_select for the first).
//
// Its counts are rust-fil-proofs'; synthetic_update.hpp makes updates that satisfy it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/partitioned_circuit.hpp"

namespace zkpipe::filecoin::update {

using ff::Fr;

enum class UpdateHash { kSha256, kPoseidon };

// The constants of a sector size (constants.rs), in nodes of 32 bytes.
struct UpdateShape {
  UpdateHash variant = UpdateHash::kSha256;
  std::uint64_t nodes = 0;
  core::TreeShape tree_r;
  std::size_t partitions = 1;         // 1 for the Poseidon variant
  std::size_t challenge_count = 0;    // a partition's
  std::array<std::size_t, 6> hs{};    // the h values h_select chooses among
  std::size_t apex_leaf_count = 0;    // 0 for the Poseidon variant

  std::size_t challenge_bits() const;
  std::size_t partition_bits() const;  // 0 for the Poseidon variant (one partition)
  std::size_t apex_bits() const;       // 0 for the Poseidon variant
  // SHA-256 variant: tree_d's levels between a leaf and its apex leaf.
  std::size_t levels_below_apex() const { return challenge_bits() - partition_bits() - apex_bits(); }
};

// neptune's HashType::Custom(CType::Arbitrary(1)) domain tag: the one of storage-proofs-update's
// "generate randomness" Poseidon (phi, rho and the challenge digests): id · 2^40 = 2^40 in
// neptune 11 (the version rust-fil-proofs builds with; neptune before 8 shifted by 32).
Fr update_randomness_tag();

// Throws std::invalid_argument for a node count rust-fil-proofs does not allow.
UpdateShape update_shape(std::uint64_t nodes, const core::TreeShape& tree_r, UpdateHash variant);

struct UpdateChallenge {
  Fr leaf_r_old;
  Fr leaf_d_new;
  std::vector<core::PathElement> path_r_old;  // tree_r's shape
  std::vector<core::PathElement> path_r_new;
  std::vector<core::PathElement> path_d_new;  // SHA-256: the binary levels below the apex; Poseidon: tree_r's shape
};

struct UpdatePartition {
  std::uint64_t k = 0;
  std::size_t h_index = 0;  // which of shape.hs
  Fr comm_r_old, comm_d_new, comm_r_new, comm_c, root_r_old, root_r_new;
  std::vector<Fr> apex_leaves;                    // SHA-256 variant
  std::vector<core::PathElement> partition_path;  // SHA-256 variant: tree_d's top partition-bits levels
  std::vector<UpdateChallenge> challenges;
};

// The partition's circuit. Throws std::invalid_argument for paths, apex leaves or
// challenge counts that do not fit the shape.
void synthesize_empty_sector_update(r1cs::ConstraintSystem& cs, const UpdateShape& shape,
                                    const UpdatePartition& partition);

// A partition with every value zero and every path of the shape's length: what a key is
// set up for and counts are taken from.
UpdatePartition blank_update_partition(const UpdateShape& shape);

// The partition's public inputs: [k | h_select << partition bits, comm_r_old, comm_d_new,
// comm_r_new] (the Poseidon variant: no k).
std::vector<Fr> update_public_inputs(const UpdateShape& shape, const UpdatePartition& partition);

// One SnapDeals proof's partitions as the engine proves them.
class EmptySectorUpdateCircuit final : public r1cs::PartitionedCircuit {
 public:
  EmptySectorUpdateCircuit(std::string name, UpdateShape shape, std::vector<UpdatePartition> partitions);

  std::string name() const override { return name_; }
  std::size_t partitions() const override { return partitions_.size(); }
  const UpdateShape& shape() const { return shape_; }
  void synthesize(r1cs::ConstraintSystem& cs, std::size_t partition) const override;
  std::vector<Fr> public_inputs(std::size_t partition) const override;
  // The Poseidon variant's witness is its Merkle paths and hashes, nearly all field
  // elements: every value. The SHA-256 variant's is nearly all bits: none counted.
  std::size_t wide_aux_bound(std::size_t aux) const override {
    return shape_.variant == UpdateHash::kPoseidon ? aux : 0;
  }

 private:
  const UpdatePartition& at(std::size_t partition) const;

  std::string name_;
  UpdateShape shape_;
  std::vector<UpdatePartition> partitions_;
};

}  // namespace zkpipe::filecoin::update
