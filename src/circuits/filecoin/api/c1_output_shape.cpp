#include "circuits/filecoin/api/c1_output_shape.hpp"

namespace zkpipe::filecoin::api {

namespace {

using Kind = C1ValueShape::Kind;
using Fields = std::vector<std::pair<std::string_view, const C1ValueShape*>>;

C1ValueShape leaf(Kind kind, std::string_view what) { return {kind, what, {}, nullptr, 0}; }
C1ValueShape array(std::string_view what, const C1ValueShape* element, std::size_t max_elements = 0) {
  return {Kind::array, what, {}, element, max_elements};
}
C1ValueShape object(std::string_view what, Fields fields) {
  return {Kind::object, what, std::move(fields), nullptr, 0};
}
C1ValueShape variant(std::string_view what, const C1ValueShape* value) { return {Kind::variant, what, {}, value, 0}; }

// Every shape once, each member built from those declared before it
// (rust-fil-proofs storage-proofs-core merkle/proof.rs, storage-proofs-porep
// stacked/vanilla/*.rs).
struct Shapes {
  Shapes() = default;
  Shapes(const Shapes&) = delete;  // its members point at each other
  Shapes& operator=(const Shapes&) = delete;

  C1ValueShape byte = leaf(Kind::number, "a byte");
  C1ValueShape count = leaf(Kind::number, "an unsigned integer");
  C1ValueShape name = leaf(Kind::string, "a registered seal proof's name");
  C1ValueShape null = leaf(Kind::null, "null");
  // 32 bytes: a field element, a seed or a ticket.
  C1ValueShape bytes32 = array("an array of 32 bytes", &byte, 32);
  C1ValueShape elements = array("an array of field elements", &bytes32);
  C1ValueShape path_element = object("a path element {hashes, index}", {{"hashes", &elements}, {"index", &count}});
  C1ValueShape path_elements = array("an array of path elements", &path_element);
  C1ValueShape inclusion_path = object("an inclusion path {path}", {{"path", &path_elements}});
  C1ValueShape proof_body = object("a Merkle proof's body", {{"root", &bytes32},
                                                             {"leaf", &bytes32},
                                                             {"path", &inclusion_path},
                                                             {"base_proof", &inclusion_path},
                                                             {"sub_proof", &inclusion_path},
                                                             {"top_proof", &inclusion_path}});
  C1ValueShape proof_data = variant("an object with one member, Single, Sub or Top", &proof_body);
  C1ValueShape merkle_proof = object("a Merkle proof {data}", {{"data", &proof_data}});
  C1ValueShape column = object("a column {index, rows, _h}", {{"index", &count}, {"rows", &elements}, {"_h", &null}});
  C1ValueShape column_proof =
      object("a column proof {column, inclusion_proof}", {{"column", &column}, {"inclusion_proof", &merkle_proof}});
  C1ValueShape column_proofs = array("an array of column proofs", &column_proof);
  C1ValueShape replica_columns =
      object("replica column proofs {c_x, drg_parents, exp_parents}",
             {{"c_x", &column_proof}, {"drg_parents", &column_proofs}, {"exp_parents", &column_proofs}});
  C1ValueShape labeling_proof = object("a labeling proof {parents, layer_index, node}",
                                       {{"parents", &elements}, {"layer_index", &count}, {"node", &count}});
  C1ValueShape labeling_proofs = array("an array of labeling proofs", &labeling_proof);
  C1ValueShape vanilla_proof = object("a challenge's vanilla proof", {{"comm_d_proofs", &merkle_proof},
                                                                      {"comm_r_last_proof", &merkle_proof},
                                                                      {"replica_column_proofs", &replica_columns},
                                                                      {"labeling_proofs", &labeling_proofs},
                                                                      {"encoding_proof", &labeling_proof}});
  C1ValueShape partition = array("a partition's array of vanilla proofs", &vanilla_proof);
  C1ValueShape partitions = array("an array of partitions", &partition);
  C1ValueShape vanilla_proofs = variant("an object with one member, named by the seal proof", &partitions);
  C1ValueShape root = object("a SealCommitPhase1Output object", {{"registered_proof", &name},
                                                                 {"vanilla_proofs", &vanilla_proofs},
                                                                 {"comm_r", &bytes32},
                                                                 {"comm_d", &bytes32},
                                                                 {"replica_id", &bytes32},
                                                                 {"seed", &bytes32},
                                                                 {"ticket", &bytes32}});
};

}  // namespace

const C1ValueShape* C1ValueShape::field(std::string_view name) const {
  for (const auto& [field_name, shape] : fields) {
    if (field_name == name) return shape;
  }
  return nullptr;
}

const C1ValueShape& c1_output_shape() {
  static const Shapes shapes;
  return shapes.root;
}

}  // namespace zkpipe::filecoin::api
