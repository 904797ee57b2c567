// A parametric circuit shaped like Filecoin's stacked-DRG PoRep circuit, for
// workloads and benchmarks, built on the Filecoin gadgets (circuits/filecoin) so
// that its hashes and paths cost what the real circuit's do. Per challenged node of
// a sector:
//   - a SHA-256 Merkle path from the node's data to comm_d (binary tree, tree_d's
//     nodes: the insertion and tree-node gadgets of filecoin::core);
//   - a labeling chain over `layers` layers: label_l = H(replica_id ‖ node ‖
//     label_{l−1} ‖ parent labels), H = SHA-256 (trimmed to 254 bits) or Filecoin's
//     Poseidon of arity 11 (the preimage zero padded);
//   - Filecoin's Poseidon column hash (arity 11, zero padded below 11 layers);
//   - an arity-8 Poseidon Merkle path from the column hash to comm_r (tree_r_last's
//     base levels).
// Public inputs: replica id, comm_d, comm_r, then each challenged node index.
// Every value derives from a seed: partition p's challenges, the data, the parent
// labels and the trees (sparse: see sparse_trees.hpp), so any machine rebuilds the
// same instance and a verifier rebuilds the public inputs from the seed alone.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "gadgets/num.hpp"
#include "r1cs/partitioned_circuit.hpp"
#include "circuits/porep_like/preset.hpp"
#include "circuits/porep_like/sparse_trees.hpp"

namespace zkpipe::porep_like {

class PorepLikeCircuit final : public r1cs::PartitionedCircuit {
 public:
  PorepLikeCircuit(const Preset& preset, std::uint64_t seed, std::size_t partitions);

  std::string name() const override;
  std::size_t partitions() const override { return partitions_; }
  void synthesize(r1cs::ConstraintSystem& cs, std::size_t partition) const override;
  std::vector<ff::Fr> public_inputs(std::size_t partition) const override;
  // The challenges on all cores (they are independent given the replica id and the
  // two commitments).
  r1cs::WitnessValues synthesize_values(std::size_t partition, std::size_t inputs_hint = 0,
                                  std::size_t aux_hint = 0) const override;

  std::uint64_t challenge(std::size_t partition, std::size_t j) const;

 private:
  struct Column {
    std::vector<Node> parents;  // layers × parents, layer-major
    ff::Fr hash;                // of the column of labels
  };

  // What every challenge reads: the replica id's bits and public input, comm_d,
  // comm_r, and a variable constrained to zero that pads Poseidon preimages (the
  // Filecoin gadget hashes variables only).
  struct Shared {
    std::vector<gadgets::Boolean> replica_bits;
    gadgets::AllocatedNum replica;
    gadgets::AllocatedNum comm_d;
    gadgets::AllocatedNum comm_r;
    gadgets::AllocatedNum zero;
  };
  Shared synthesize_shared(r1cs::ConstraintSystem& cs) const;
  void synthesize_challenge(r1cs::ConstraintSystem& cs, const Shared& shared, std::size_t partition,
                            std::size_t j) const;

  Node data_leaf(std::uint64_t node) const;
  Node parent_label(std::size_t layer, std::uint64_t node, std::size_t k) const;
  Column column(std::uint64_t node) const;

  Preset preset_;
  std::uint64_t seed_;
  std::size_t partitions_;
  Node replica_id_;
  std::map<std::uint64_t, Column> columns_;  // every challenged node of every partition
  SparseSha256Tree data_tree_;
  SparsePoseidonTree replica_tree_;
};

}  // namespace zkpipe::porep_like
