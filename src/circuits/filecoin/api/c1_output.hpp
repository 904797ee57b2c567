// A storage provider's commit-phase-1 output (filecoin-proofs-api SealCommitPhase1Output,
// "c1.json"): the vanilla SDR proofs that a seal's Groth16 proof (C2) proves in circuit,
// as lotus, curio and filecoin-ffi exchange them, i.e. serde_json's rendering of the Rust
// structs. Reading checks everything the shape of the registered proof fixes before any
// proving starts; writing gives back the same bytes serde_json would.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "circuits/filecoin/core/node_bytes.hpp"
#include "circuits/filecoin/core/seal_proof.hpp"

namespace zkpipe::filecoin::api {

// One level of a Merkle path: the siblings of the node on the path (arity - 1 of them)
// and the node's position among its arity children.
struct MerklePathElement {
  std::vector<core::NodeBytes> hashes;
  std::uint64_t index = 0;

  bool operator==(const MerklePathElement&) const = default;
};

using MerklePath = std::vector<MerklePathElement>;

// A Merkle inclusion proof over the replica's trees: within one base tree ("path" when
// the tree is a single base tree, "base_proof" otherwise), then among the sub trees and
// the top trees of a compound tree (one level each, present when the shape has them).
struct MerkleProof {
  enum class Kind { kSingle, kSub, kTop };

  Kind kind = Kind::kSingle;
  core::NodeBytes root{};
  core::NodeBytes leaf{};
  MerklePath base;
  MerklePath sub;  // kSub and kTop only
  MerklePath top;  // kTop only

  bool operator==(const MerkleProof&) const = default;

  // The proven leaf's position: the base path's digits, then the sub and top levels.
  std::uint64_t leaf_index(std::size_t base_arity, std::size_t sub_arity) const;
};

// The name serde gives the variant (storage-proofs-core's ProofData: Single, Sub, Top),
// as c1.json spells it.
const char* merkle_proof_kind_name(MerkleProof::Kind kind);

// One node's labels over all layers (rows[l] is layer l + 1's label) and its tree_c proof.
struct ColumnProof {
  std::uint32_t index = 0;
  std::vector<core::NodeBytes> rows;
  MerkleProof inclusion_proof;

  bool operator==(const ColumnProof&) const = default;
};

struct ReplicaColumnProof {
  ColumnProof c_x;                       // the challenged node
  std::vector<ColumnProof> drg_parents;  // its base (DRG) parents
  std::vector<ColumnProof> exp_parents;  // its expander parents

  bool operator==(const ReplicaColumnProof&) const = default;
};

// The inputs of one SDR label: the challenged node, its layer, and its parents' labels
// repeated to the label's 37 parent slots. The encoding proof has the same form for the
// last layer (the label that keys the replica's encoding).
struct LabelingProof {
  std::vector<core::NodeBytes> parents;
  std::uint32_t layer_index = 0;
  std::uint64_t node = 0;

  bool operator==(const LabelingProof&) const = default;
};

using EncodingProof = LabelingProof;

// The vanilla proof of one challenge (storage-proofs-porep stacked::Proof).
struct VanillaProof {
  MerkleProof comm_d_proofs;      // tree_d (binary SHA-256), the unsealed node
  MerkleProof comm_r_last_proof;  // tree_r_last (Poseidon), the sealed node
  ReplicaColumnProof replica_column_proofs;
  std::vector<LabelingProof> labeling_proofs;  // layers 1..L
  EncodingProof encoding_proof;

  bool operator==(const VanillaProof&) const = default;

  // The challenge it proves (its comm_d proof's leaf index).
  std::uint64_t challenge() const;
};

struct C1Output {
  core::SealProof registered_proof{};
  // [partition][challenge within the partition].
  std::vector<std::vector<VanillaProof>> vanilla_proofs;
  core::NodeBytes comm_r{};
  core::NodeBytes comm_d{};
  core::NodeBytes replica_id{};
  std::array<std::uint8_t, 32> seed{};
  std::array<std::uint8_t, 32> ticket{};

  bool operator==(const C1Output& other) const;
};

// Bad C1 output: `source` (a file name) and the JSON path of the offending value, e.g.
// "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path:
// expected 6 levels, got 5".
class C1OutputError : public std::runtime_error {
 public:
  C1OutputError(std::string source, std::string json_path, const std::string& problem);

  const std::string& source() const { return source_; }
  const std::string& json_path() const { return json_path_; }

 private:
  std::string source_;
  std::string json_path_;
};

// Reads serde_json's SealCommitPhase1Output and checks it against its registered proof's
// shape: sector size, partitions, challenges per partition, layers, parent counts, every
// path's length, arity and index, the indices agreeing with one another, and every field
// element below r. Throws C1OutputError.
C1Output parse_c1_output(std::string_view json, std::string_view source);

// serde_json::to_vec's bytes for `output` (compact, fields in the Rust structs' order).
std::string c1_output_to_json(const C1Output& output);

}  // namespace zkpipe::filecoin::api
