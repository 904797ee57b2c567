#include "circuits/filecoin/api/c1_circuit.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include "circuits/filecoin/core/hex_bytes.hpp"
#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/porep/challenges.hpp"
#include "circuits/filecoin/porep/encoding.hpp"
#include "circuits/filecoin/porep/labels.hpp"

namespace zkpipe::filecoin::api {

using ff::Fr;

namespace {

std::string indexed(std::string path, std::size_t i) { return path + '[' + std::to_string(i) + ']'; }

// Where a Merkle proof's fields sit in c1.json.
struct MerkleAt {
  std::string proof;  // the MerkleProof object
  std::string body;   // its ProofData variant's object

  MerkleAt(std::string at, MerkleProof::Kind kind)
      : proof(std::move(at)), body(proof + ".data." + merkle_proof_kind_name(kind)) {}

  std::string root() const { return body + ".root"; }
  std::string leaf() const { return body + ".leaf"; }
};

// Every level the shape fixes: how many levels of which arity, each index among them.
struct TreeLevels {
  MerkleProof::Kind kind;
  std::size_t base_arity;
  std::size_t base_levels;
  std::size_t sub_arity;  // 0: absent
  std::size_t top_arity;  // 0: absent
};

TreeLevels replica_tree_levels(const core::SectorShape& s, const core::TreeShape& t) {
  const std::uint64_t base_leaves = s.nodes() / std::max<std::size_t>(1, t.sub) / std::max<std::size_t>(1, t.top);
  const MerkleProof::Kind kind =
      t.top != 0 ? MerkleProof::Kind::kTop : t.sub != 0 ? MerkleProof::Kind::kSub : MerkleProof::Kind::kSingle;
  return {kind, t.base, core::tree_levels(base_leaves, t.base), t.sub, t.top};
}

TreeLevels data_tree_levels(const core::SectorShape& s) {
  return {MerkleProof::Kind::kSingle, 2, core::tree_levels(s.nodes(), 2), 0, 0};
}

// The checks of one C1 output against its sector, and the conversion of each vanilla
// proof into the circuit's challenge proof once it has passed them.
class C1Checker {
 public:
  C1Checker(const C1Output& c1, const SectorValues& sector, std::string_view source)
      : c1_(c1),
        sector_(sector),
        source_(source),
        proof_(*sector.registered_proof),
        shape_(proof_.shape()),
        tree_shape_(core::sector_tree_shape(proof_.sector_bytes)),
        replica_levels_(replica_tree_levels(shape_, tree_shape_)),
        data_levels_(data_tree_levels(shape_)),
        graph_(seal_graph(proof_)),
        vanilla_at_(std::string("vanilla_proofs.") + std::string(core::vanilla_variant(proof_))) {}

  [[noreturn]] void fail(std::string json_path, const std::string& problem) const {
    throw C1OutputError(source_, std::move(json_path), problem);
  }

  porep::StackedCircuit circuit() {
    check_sector_values();
    check_shape();
    const VanillaProof& first = c1_.vanilla_proofs[0][0];
    comm_c_ = first.replica_column_proofs.c_x.inclusion_proof.root;
    comm_r_last_ = first.comm_r_last_proof.root;
    check_comm_r();

    const std::size_t per_partition = proof_.challenges_per_partition();
    std::vector<std::vector<std::uint64_t>> challenges(c1_.vanilla_proofs.size());
    for (std::size_t k = 0; k < challenges.size(); ++k) {
      challenges[k] = porep::porep_challenges(proof_, sector_replica_id_, c1_.seed, c1_.comm_r, k);
    }

    // The challenges are independent: checked on all cores, the first failure in
    // document order reported.
    const std::size_t total = c1_.vanilla_proofs.size() * per_partition;
    std::vector<porep::ChallengeProof> converted(total);
    std::vector<std::exception_ptr> errors(total);
    tbb::parallel_for(std::size_t{0}, total, [&](std::size_t j) {
      const std::size_t k = j / per_partition;
      const std::size_t i = j % per_partition;
      try {
        converted[j] = challenge_proof(c1_.vanilla_proofs[k][i], k, i, challenges[k][i]);
      } catch (...) {
        errors[j] = std::current_exception();
      }
    });
    for (const std::exception_ptr& e : errors) {
      if (e) std::rethrow_exception(e);
    }

    const Fr replica_id = hashers::domain_to_fr(c1_.replica_id);
    const Fr comm_d = fr_at(c1_.comm_d, "comm_d");
    const Fr comm_r = hashers::domain_to_fr(c1_.comm_r);
    const Fr comm_r_last = hashers::domain_to_fr(comm_r_last_);
    const Fr comm_c = hashers::domain_to_fr(comm_c_);
    std::vector<porep::StackedPartition> partitions;
    partitions.reserve(c1_.vanilla_proofs.size());
    for (std::size_t k = 0; k < c1_.vanilla_proofs.size(); ++k) {
      porep::StackedPartition p{replica_id, comm_d, comm_r, comm_r_last, comm_c, {}};
      p.challenges.reserve(per_partition);
      for (std::size_t i = 0; i < per_partition; ++i) {
        p.challenges.push_back(std::move(converted[k * per_partition + i]));
      }
      partitions.push_back(std::move(p));
    }
    return porep::StackedCircuit(graph_, tree_shape_, std::move(partitions));
  }

 private:
  std::string vanilla_at(std::size_t k, std::size_t i) const { return indexed(indexed(vanilla_at_, k), i); }

  void check_sector_values() {
    if (c1_.registered_proof.registered_id != proof_.registered_id) {
      fail("registered_proof", "the output is of " + std::string(c1_.registered_proof.name) + ", the sector of " +
                                   std::string(proof_.name));
    }
    auto same = [&](const char* field, const auto& ours, const auto& theirs) {
      if (ours != theirs) {
        fail(field, core::hex_of(ours) + " is not the sector's " + field + " " + core::hex_of(theirs));
      }
    };
    same("comm_r", c1_.comm_r, sector_.comm_r);
    same("comm_d", c1_.comm_d, sector_.comm_d);
    same("ticket", c1_.ticket, sector_.ticket);
    same("seed", c1_.seed, sector_.seed);
    sector_replica_id_ = sector_.replica_id();
    if (c1_.replica_id != sector_replica_id_) {
      fail("replica_id", core::hex_of(c1_.replica_id) + " is not the sector's replica id " +
                             core::hex_of(sector_replica_id_) +
                             " (from its prover_id, sector_id, ticket, comm_d and the proof's porep_id)");
    }
  }

  // What parse_c1_output checks too, for outputs built in memory: everything the
  // conversion indexes exists.
  void check_shape() const {
    const std::size_t per_partition = proof_.challenges_per_partition();
    const std::string partitions_at = vanilla_at_;
    count(partitions_at, c1_.vanilla_proofs.size(), proof_.partitions(), "partitions");
    for (std::size_t k = 0; k < c1_.vanilla_proofs.size(); ++k) {
      count(indexed(partitions_at, k), c1_.vanilla_proofs[k].size(), per_partition, "challenges");
      for (std::size_t i = 0; i < per_partition; ++i) check_shape(c1_.vanilla_proofs[k][i], vanilla_at(k, i));
    }
  }

  void count(const std::string& at, std::size_t got, std::size_t expected, const char* what) const {
    if (got != expected) {
      fail(at, "expected " + std::to_string(expected) + " " + what + ", got " + std::to_string(got));
    }
  }

  void check_shape(const VanillaProof& v, const std::string& at) const {
    check_shape(v.comm_d_proofs, at + ".comm_d_proofs", data_levels_);
    check_shape(v.comm_r_last_proof, at + ".comm_r_last_proof", replica_levels_);
    const std::string cols_at = at + ".replica_column_proofs";
    check_shape(v.replica_column_proofs.c_x, cols_at + ".c_x");
    count(cols_at + ".drg_parents", v.replica_column_proofs.drg_parents.size(), porep::kBaseDegree, "columns");
    count(cols_at + ".exp_parents", v.replica_column_proofs.exp_parents.size(), porep::kExpansionDegree, "columns");
    for (std::size_t j = 0; j < porep::kBaseDegree; ++j) {
      check_shape(v.replica_column_proofs.drg_parents[j], indexed(cols_at + ".drg_parents", j));
    }
    for (std::size_t j = 0; j < porep::kExpansionDegree; ++j) {
      check_shape(v.replica_column_proofs.exp_parents[j], indexed(cols_at + ".exp_parents", j));
    }
    count(at + ".labeling_proofs", v.labeling_proofs.size(), shape_.layers, "labeling proofs");
    for (std::size_t l = 0; l < shape_.layers; ++l) {
      count(indexed(at + ".labeling_proofs", l) + ".parents", v.labeling_proofs[l].parents.size(),
            porep::kLabelParentSlots, "parent labels");
    }
    count(at + ".encoding_proof.parents", v.encoding_proof.parents.size(), porep::kLabelParentSlots, "parent labels");
  }

  void check_shape(const ColumnProof& c, const std::string& at) const {
    count(at + ".column.rows", c.rows.size(), shape_.layers, "rows");
    check_shape(c.inclusion_proof, at + ".inclusion_proof", replica_levels_);
  }

  void check_shape(const MerkleProof& p, const std::string& at, const TreeLevels& levels) const {
    if (p.kind != levels.kind) {
      fail(at + ".data",
           std::string("expected ") + merkle_proof_kind_name(levels.kind) + ", got " + merkle_proof_kind_name(p.kind));
    }
    const MerkleAt m(at, p.kind);
    const bool single = p.kind == MerkleProof::Kind::kSingle;
    check_shape(p.base, m.body + (single ? ".path" : ".base_proof"), levels.base_levels, levels.base_arity);
    check_shape(p.sub, m.body + ".sub_proof", levels.sub_arity == 0 ? 0 : 1, levels.sub_arity);
    check_shape(p.top, m.body + ".top_proof", levels.top_arity == 0 ? 0 : 1, levels.top_arity);
  }

  void check_shape(const MerklePath& path, const std::string& at, std::size_t levels, std::size_t arity) const {
    const std::string path_at = at + ".path";
    count(path_at, path.size(), levels, "levels");
    for (std::size_t i = 0; i < levels; ++i) {
      count(indexed(path_at, i) + ".hashes", path[i].hashes.size(), arity - 1, "siblings");
      if (path[i].index >= arity) {
        fail(indexed(path_at, i) + ".index",
             "expected below the arity " + std::to_string(arity) + ", got " + std::to_string(path[i].index));
      }
    }
  }

  Fr fr_at(const core::NodeBytes& bytes, const std::string& at) const {
    try {
      return hashers::domain_to_fr(bytes);
    } catch (const std::invalid_argument& e) {
      fail(at, e.what());
    }
  }

  // comm_r = Poseidon(comm_c, comm_r_last), the roots the first challenge proves
  // against (every other challenge must prove against the same).
  void check_comm_r() const {
    const VanillaProof& first = c1_.vanilla_proofs[0][0];
    const Fr comm_c = fr_at(comm_c_, MerkleAt(vanilla_at(0, 0) + ".replica_column_proofs.c_x.inclusion_proof",
                                              first.replica_column_proofs.c_x.inclusion_proof.kind)
                                         .root());
    const Fr comm_r_last =
        fr_at(comm_r_last_, MerkleAt(vanilla_at(0, 0) + ".comm_r_last_proof", first.comm_r_last_proof.kind).root());
    const Fr expected = hashers::poseidon::hash(std::vector<Fr>{comm_c, comm_r_last});
    if (fr_at(c1_.comm_r, "comm_r") != expected) {
      fail("comm_r", core::hex_of(c1_.comm_r) +
                         " is not Poseidon(comm_c, comm_r_last) = " + core::hex_of(hashers::fr_to_domain(expected)) +
                         " of the trees that " + vanilla_at(0, 0) + " opens");
    }
  }

  // The vanilla proof of partition k's challenge i, which must be `node`, checked and
  // converted; any value that is not a field element is reported against the proof.
  porep::ChallengeProof challenge_proof(const VanillaProof& v, std::size_t k, std::size_t i, std::uint64_t node) const {
    const std::string at = vanilla_at(k, i);
    try {
      return checked_challenge_proof(v, at, k, i, node);
    } catch (const std::invalid_argument& e) {
      fail(at, e.what());
    }
  }

  porep::ChallengeProof checked_challenge_proof(const VanillaProof& v, const std::string& at, std::size_t k,
                                                std::size_t i, std::uint64_t node) const {
    const MerkleAt d_at(at + ".comm_d_proofs", v.comm_d_proofs.kind);
    if (v.challenge() != node) {
      fail(d_at.proof, "proves node " + std::to_string(v.challenge()) + ", but challenge " + std::to_string(i) +
                           " of partition " + std::to_string(k) + " is node " + std::to_string(node));
    }
    if (v.comm_d_proofs.root != c1_.comm_d) fail(d_at.root(), "is not comm_d " + core::hex_of(c1_.comm_d));
    check_tree_d_path(v.comm_d_proofs, d_at);

    const MerkleAt r_at(at + ".comm_r_last_proof", v.comm_r_last_proof.kind);
    check_leaf_index(v.comm_r_last_proof, r_at, node);
    if (v.comm_r_last_proof.root != comm_r_last_) {
      fail(r_at.root(), "is not comm_r_last " + core::hex_of(comm_r_last_) + ", the root of " + vanilla_at(0, 0) +
                            ".comm_r_last_proof");
    }
    check_poseidon_path(v.comm_r_last_proof, r_at);

    const ReplicaColumnProof& cols = v.replica_column_proofs;
    const std::string cols_at = at + ".replica_column_proofs";
    check_column(cols.c_x, cols_at + ".c_x", node);
    const porep::SdrParents parents = graph_.parents(node);
    for (std::size_t j = 0; j < porep::kBaseDegree; ++j) {
      check_column(cols.drg_parents[j], indexed(cols_at + ".drg_parents", j), parents[j]);
    }
    for (std::size_t j = 0; j < porep::kExpansionDegree; ++j) {
      check_column(cols.exp_parents[j], indexed(cols_at + ".exp_parents", j), parents[porep::kBaseDegree + j]);
    }

    check_labels(v, at, node);

    // The replica node is the data node encoded with the last layer's label.
    const core::NodeBytes key = cols.c_x.rows.back();
    if (porep::encode(key, v.comm_d_proofs.leaf) != v.comm_r_last_proof.leaf) {
      fail(r_at.leaf(), "is not the encoding of the data leaf (" + d_at.leaf() + ") with the last layer's label");
    }

    porep::ChallengeProof c;
    c.node = node;
    c.data_leaf = hashers::domain_to_fr(v.comm_d_proofs.leaf);
    c.comm_d_path = path_elements(v.comm_d_proofs);
    c.comm_r_last_path = path_elements(v.comm_r_last_proof);
    c.comm_c_path = path_elements(cols.c_x.inclusion_proof);
    for (const ColumnProof& col : cols.drg_parents) c.drg_parents.push_back(opening(col));
    for (const ColumnProof& col : cols.exp_parents) c.exp_parents.push_back(opening(col));
    return c;
  }

  void check_leaf_index(const MerkleProof& p, const MerkleAt& at, std::uint64_t node) const {
    const std::uint64_t leaf = p.leaf_index(replica_levels_.base_arity, replica_levels_.sub_arity);
    if (leaf != node) fail(at.proof, "proves node " + std::to_string(leaf) + ", expected node " + std::to_string(node));
  }

  void check_tree_d_path(const MerkleProof& p, const MerkleAt& at) const {
    core::NodeBytes node = p.leaf;
    for (const MerklePathElement& e : p.base) {
      node = e.index == 0 ? hashers::sha256_hash2(node, e.hashes[0]) : hashers::sha256_hash2(e.hashes[0], node);
    }
    if (node != p.root) {
      fail(at.proof,
           "its path from the leaf leads to " + core::hex_of(node) + ", not to its root " + core::hex_of(p.root));
    }
  }

  void check_poseidon_path(const MerkleProof& p, const MerkleAt& at) const {
    const Fr root = core::root_from_path(hashers::domain_to_fr(p.leaf), path_elements(p));
    if (root != hashers::domain_to_fr(p.root)) {
      fail(at.proof, "its path from the leaf leads to " + core::hex_of(hashers::fr_to_domain(root)) +
                         ", not to its root " + core::hex_of(p.root));
    }
  }

  // A column of `node`: its leaf in tree_c is the hash of its rows, under comm_c.
  void check_column(const ColumnProof& c, const std::string& at, std::uint64_t node) const {
    if (c.index != node) {
      fail(at + ".column.index", "expected node " + std::to_string(node) + ", got " + std::to_string(c.index));
    }
    const MerkleAt p_at(at + ".inclusion_proof", c.inclusion_proof.kind);
    check_leaf_index(c.inclusion_proof, p_at, node);
    if (c.inclusion_proof.root != comm_c_) {
      fail(p_at.root(), "is not comm_c " + core::hex_of(comm_c_) + ", the root of " + vanilla_at(0, 0) +
                            ".replica_column_proofs.c_x.inclusion_proof");
    }
    if (hashers::domain_to_fr(c.inclusion_proof.leaf) != hashers::poseidon::hash(frs(c.rows))) {
      fail(p_at.leaf(), "is not the Poseidon hash of the column's rows (" + at + ".column.rows)");
    }
    check_poseidon_path(c.inclusion_proof, p_at);
  }

  // Each layer's label proof hashes the parent columns' labels and gives the challenged
  // column's row; the encoding proof repeats the last layer's.
  void check_labels(const VanillaProof& v, const std::string& at, std::uint64_t node) const {
    const ReplicaColumnProof& cols = v.replica_column_proofs;
    for (std::size_t l = 0; l < shape_.layers; ++l) {
      const auto layer = static_cast<std::uint32_t>(l + 1);
      const std::string l_at = indexed(at + ".labeling_proofs", l);
      const std::vector<core::NodeBytes> parents = column_parent_labels(cols, layer);
      check_labeling_proof(v.labeling_proofs[l], l_at, layer, node, parents);
      if (porep::label(sector_replica_id_, layer, node, parents) != cols.c_x.rows[l]) {
        const std::string row_at = indexed(at + ".replica_column_proofs.c_x.column.rows", l);
        fail(l_at, "the label of node " + std::to_string(node) + " in layer " + std::to_string(layer) +
                       " over these parents is not the column's row (" + row_at + ")");
      }
    }
    const auto last = static_cast<std::uint32_t>(shape_.layers);
    check_labeling_proof(v.encoding_proof, at + ".encoding_proof", last, node, column_parent_labels(cols, last));
  }

  void check_labeling_proof(const LabelingProof& p, const std::string& at, std::uint32_t layer, std::uint64_t node,
                            const std::vector<core::NodeBytes>& parents) const {
    if (p.layer_index != layer) {
      fail(at + ".layer_index", "expected layer " + std::to_string(layer) + ", got " + std::to_string(p.layer_index));
    }
    if (p.node != node) {
      fail(at + ".node", "expected the challenged node " + std::to_string(node) + ", got " + std::to_string(p.node));
    }
    for (std::size_t s = 0; s < porep::kLabelParentSlots; ++s) {
      const std::size_t parent = s % parents.size();
      if (p.parents[s] != parents[parent]) {
        const bool drg = parent < porep::kBaseDegree;
        fail(indexed(at + ".parents", s),
             std::string("is not the label in ") + (drg ? "drg_parents" : "exp_parents") + "[" +
                 std::to_string(drg ? parent : parent - porep::kBaseDegree) + "]'s column at layer " +
                 std::to_string(drg ? layer : layer - 1));
      }
    }
  }

  // The distinct parent labels of a layer's label, in the order label() takes them:
  // the DRG parents' labels in this layer, then the expander parents' in the previous.
  static std::vector<core::NodeBytes> column_parent_labels(const ReplicaColumnProof& cols, std::uint32_t layer) {
    std::vector<core::NodeBytes> out;
    for (const ColumnProof& c : cols.drg_parents) out.push_back(c.rows[layer - 1]);
    if (layer > 1) {
      for (const ColumnProof& c : cols.exp_parents) out.push_back(c.rows[layer - 2]);
    }
    return out;
  }

  static std::vector<Fr> frs(const std::vector<core::NodeBytes>& nodes) {
    std::vector<Fr> out;
    out.reserve(nodes.size());
    for (const core::NodeBytes& n : nodes) out.push_back(hashers::domain_to_fr(n));
    return out;
  }

  // Base levels, then the sub and top levels: the circuit's (and root_from_path's) order.
  static std::vector<core::PathElement> path_elements(const MerkleProof& p) {
    std::vector<core::PathElement> out;
    out.reserve(p.base.size() + p.sub.size() + p.top.size());
    for (const MerklePath* levels : {&p.base, &p.sub, &p.top}) {
      for (const MerklePathElement& e : *levels) out.push_back(core::PathElement{frs(e.hashes), e.index});
    }
    return out;
  }

  static porep::ColumnOpening opening(const ColumnProof& c) {
    return porep::ColumnOpening{frs(c.rows), path_elements(c.inclusion_proof)};
  }

  const C1Output& c1_;
  const SectorValues& sector_;
  std::string source_;
  const core::SealProof& proof_;
  const core::SectorShape& shape_;
  core::TreeShape tree_shape_;
  TreeLevels replica_levels_;
  TreeLevels data_levels_;
  porep::SdrGraph graph_;
  std::string vanilla_at_;
  porep::ReplicaId sector_replica_id_{};
  core::NodeBytes comm_c_{};
  core::NodeBytes comm_r_last_{};
};

}  // namespace

porep::SdrGraph seal_graph(const core::SealProof& proof) {
  return porep::SdrGraph(proof.shape().nodes(), proof.porep_id(), proof.api_version);
}

porep::StackedCircuit stacked_circuit_from_c1(const C1Output& c1, const SectorValues& sector, std::string_view source) {
  if (sector.registered_proof == nullptr) {
    throw std::invalid_argument("stacked_circuit_from_c1: the sector values name no registered proof");
  }
  return C1Checker(c1, sector, source).circuit();
}

porep::StackedCircuit stacked_circuit_shape(const core::SealProof& proof) {
  const core::SectorShape& shape = proof.shape();
  const core::TreeShape tree = core::sector_tree_shape(proof.sector_bytes);
  const std::vector<core::PathElement> tree_path = core::zero_path(shape.nodes(), tree);
  const std::vector<core::PathElement> tree_d_path = core::zero_path(shape.nodes(), core::TreeShape{2, 0, 0});

  const porep::ColumnOpening column{std::vector<Fr>(shape.layers), tree_path};
  porep::ChallengeProof challenge;
  challenge.comm_d_path = tree_d_path;
  challenge.comm_r_last_path = tree_path;
  challenge.comm_c_path = tree_path;
  challenge.drg_parents.assign(porep::kBaseDegree, column);
  challenge.exp_parents.assign(porep::kExpansionDegree, column);

  porep::StackedPartition partition{};
  partition.challenges.assign(proof.challenges_per_partition(), challenge);
  return porep::StackedCircuit(seal_graph(proof), tree, {std::move(partition)});
}

}  // namespace zkpipe::filecoin::api
