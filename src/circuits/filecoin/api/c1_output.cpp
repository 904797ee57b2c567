#include "circuits/filecoin/api/c1_output.hpp"

#include <algorithm>
#include <span>
#include <utility>

#include <nlohmann/json.hpp>

#include "circuits/filecoin/api/c1_output_shape.hpp"
#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/filecoin/porep/labels.hpp"
#include "circuits/filecoin/porep/sdr_graph.hpp"
#include "ff/fr.hpp"

namespace zkpipe::filecoin::api {
namespace {

using Json = nlohmann::json;

// Far deeper than the format's 17 levels; bounds what a hostile file can nest.
constexpr int kMaxDepth = 64;

// The position of a value in the document, kept as a chain of the callers' frames and
// spelt out only for an error message.
class Where {
 public:
  Where() = default;
  Where operator/(std::string_view key) const { return Where(this, key, 0); }
  Where operator[](std::size_t index) const { return Where(this, {}, index); }

  std::string str() const {
    if (parent_ == nullptr) return {};
    std::string s = parent_->str();
    if (key_.empty()) {
      s += '[' + std::to_string(index_) + ']';
    } else {
      if (!s.empty()) s += '.';
      s += key_;
    }
    return s;
  }

 private:
  Where(const Where* parent, std::string_view key, std::size_t index) : parent_(parent), key_(key), index_(index) {}

  const Where* parent_ = nullptr;
  std::string_view key_;
  std::size_t index_ = 0;
};

std::string kind_of(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array of " + std::to_string(j.size());
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer: return "the negative number " + j.dump();
    case Json::value_t::number_unsigned: return "the number " + j.dump();
    case Json::value_t::number_float: return "the number " + j.dump();
    case Json::value_t::binary: return "an array of 32 bytes";
    case Json::value_t::discarded: break;
  }
  return "nothing";
}

std::string count_of(std::size_t n, const char* what) { return std::to_string(n) + " " + what; }

bool is_canonical_fr(const core::NodeBytes& bytes) {
  ff::Limbs<4> limbs{};
  for (std::size_t i = 0; i < bytes.size(); ++i) limbs[i / 8] |= std::uint64_t{bytes[i]} << (8 * (i % 8));
  return ff::limbs_less(limbs, ff::FrParams::kModulus);
}

// What a tree of the replica (tree_r_last, tree_c) or of the data (tree_d) looks like.
struct TreeShape {
  const char* name;
  std::size_t base_arity;
  std::size_t base_levels;
  std::size_t sub_arity;  // 0: absent
  std::size_t top_arity;  // 0: absent

  MerkleProof::Kind kind() const {
    return top_arity ? MerkleProof::Kind::kTop : sub_arity ? MerkleProof::Kind::kSub : MerkleProof::Kind::kSingle;
  }
};

TreeShape replica_tree(const core::SectorShape& s) {
  const std::uint64_t base_leaves =
      s.nodes() / std::max<std::size_t>(1, s.sub_arity) / std::max<std::size_t>(1, s.top_arity);
  return {"the replica's trees", s.base_arity, core::tree_levels(base_leaves, s.base_arity), s.sub_arity, s.top_arity};
}

TreeShape data_tree(const core::SectorShape& s) { return {"tree_d", 2, core::tree_levels(s.nodes(), 2), 0, 0}; }

class Reader {
 public:
  explicit Reader(std::string_view source) : source_(source) {}

  [[noreturn]] void fail(const Where& where, const std::string& problem) const { fail(where.str(), problem); }
  [[noreturn]] void fail(std::string json_path, const std::string& problem) const {
    throw C1OutputError(source_, std::move(json_path), problem);
  }

  Json parse(std::string_view text) const;

  const Json& member(const Json& object, const Where& where, const char* key) const {
    if (!object.is_object()) fail(where, "expected an object, got " + kind_of(object));
    const auto it = object.find(key);
    if (it == object.end()) fail(where, std::string("missing field \"") + key + "\"");
    return *it;
  }

  const Json& array(const Json& j, const Where& where) const {
    if (j.is_binary()) fail(where, "expected an array of objects or of 32-byte arrays, got 32 bare numbers");
    if (!j.is_array()) fail(where, "expected an array, got " + kind_of(j));
    return j;
  }

  const Json& array_of(const Json& j, const Where& where, std::size_t size, const char* what) const {
    array(j, where);
    if (j.size() != size) fail(where, "expected " + count_of(size, what) + ", got " + std::to_string(j.size()));
    return j;
  }

  std::uint64_t unsigned_number(const Json& j, const Where& where, std::uint64_t max) const {
    if (!j.is_number_unsigned()) fail(where, "expected an unsigned integer, got " + kind_of(j));
    const auto v = j.get<std::uint64_t>();
    if (v > max) fail(where, "expected at most " + std::to_string(max) + ", got " + std::to_string(v));
    return v;
  }

  std::array<std::uint8_t, 32> bytes32(const Json& j, const Where& where) const {
    std::array<std::uint8_t, 32> out{};
    if (j.is_binary()) {
      std::copy(j.get_binary().begin(), j.get_binary().end(), out.begin());
      return out;
    }
    array_of(j, where, 32, "bytes");
    for (std::size_t i = 0; i < 32; ++i) out[i] = static_cast<std::uint8_t>(unsigned_number(j[i], where[i], 0xff));
    return out;
  }

  // A hasher domain: 32 bytes, little-endian, of an element of Fr.
  core::NodeBytes field_element(const Json& j, const Where& where) const {
    const core::NodeBytes bytes = bytes32(j, where);
    if (!is_canonical_fr(bytes)) {
      fail(where, "not a field element: the 32 little-endian bytes are not below the BLS12-381 scalar modulus r");
    }
    return bytes;
  }

  std::vector<core::NodeBytes> field_elements(const Json& j, const Where& where, std::size_t size,
                                              const char* what) const {
    array_of(j, where, size, what);
    std::vector<core::NodeBytes> out;
    out.reserve(size);
    for (std::size_t i = 0; i < size; ++i) out.push_back(field_element(j[i], where[i]));
    return out;
  }

  // serde's InclusionPath {path: [PathElement {hashes, index}]} for one level kind.
  MerklePath path(const Json& j, const Where& where, std::size_t levels, std::size_t arity) const {
    const Where at = where / "path";
    const Json& elements = array(member(j, where, "path"), at);
    if (elements.size() != levels) {
      fail(at, "expected " + count_of(levels, "levels") + " of arity " + std::to_string(arity) + ", got " +
                   std::to_string(elements.size()));
    }
    MerklePath out(levels);
    for (std::size_t i = 0; i < levels; ++i) {
      const Where level = at[i];
      const Json& e = elements[i];
      out[i].hashes = field_elements(member(e, level, "hashes"), level / "hashes", arity - 1, "siblings");
      out[i].index = unsigned_number(member(e, level, "index"), level / "index", arity - 1);
    }
    return out;
  }

  // serde's MerkleProof {data: ProofData}, ProofData externally tagged (Single | Sub | Top).
  MerkleProof merkle_proof(const Json& j, const Where& where, const TreeShape& shape) const {
    const Where data_at = where / "data";
    const Json& data = member(j, where, "data");
    if (!data.is_object() || data.size() != 1) {
      fail(data_at, std::string("expected an object with one member, ") + merkle_proof_kind_name(shape.kind()) +
                        ", got " + (data.is_object() ? count_of(data.size(), "members") : kind_of(data)));
    }
    const std::string& variant = data.begin().key();
    MerkleProof p;
    p.kind = shape.kind();
    if (variant != merkle_proof_kind_name(p.kind)) {
      fail(data_at, std::string("expected ") + merkle_proof_kind_name(p.kind) + " (" + shape.name +
                        " of this sector size), got \"" + variant + "\"");
    }
    const Where at = data_at / merkle_proof_kind_name(p.kind);
    const Json& body = data.begin().value();
    p.root = field_element(member(body, at, "root"), at / "root");
    p.leaf = field_element(member(body, at, "leaf"), at / "leaf");
    if (p.kind == MerkleProof::Kind::kSingle) {
      p.base = path(member(body, at, "path"), at / "path", shape.base_levels, shape.base_arity);
      return p;
    }
    p.base = path(member(body, at, "base_proof"), at / "base_proof", shape.base_levels, shape.base_arity);
    p.sub = path(member(body, at, "sub_proof"), at / "sub_proof", 1, shape.sub_arity);
    if (p.kind == MerkleProof::Kind::kTop) {
      p.top = path(member(body, at, "top_proof"), at / "top_proof", 1, shape.top_arity);
    }
    return p;
  }

  // serde's ColumnProof {column: Column {index, rows, _h: null}, inclusion_proof}.
  ColumnProof column_proof(const Json& j, const Where& where, const core::SectorShape& shape) const {
    ColumnProof c;
    const Where column_at = where / "column";
    const Json& column = member(j, where, "column");
    c.index = static_cast<std::uint32_t>(
        unsigned_number(member(column, column_at, "index"), column_at / "index", shape.nodes() - 1));
    c.rows = field_elements(member(column, column_at, "rows"), column_at / "rows", shape.layers, "rows (one a layer)");
    // serde writes the PhantomData marker as null and requires it back.
    const Json& marker = member(column, column_at, "_h");
    if (!marker.is_null()) fail(column_at / "_h", "expected null, got " + kind_of(marker));
    const Where proof_at = where / "inclusion_proof";
    c.inclusion_proof = merkle_proof(member(j, where, "inclusion_proof"), proof_at, replica_tree(shape));
    const std::uint64_t leaf = c.inclusion_proof.leaf_index(shape.base_arity, shape.sub_arity);
    if (leaf != c.index) {
      fail(proof_at, "proves node " + std::to_string(leaf) + ", but the column is node " + std::to_string(c.index));
    }
    return c;
  }

  std::vector<ColumnProof> column_proofs(const Json& j, const Where& where, std::size_t count, const char* what,
                                         const core::SectorShape& shape) const {
    array_of(j, where, count, what);
    std::vector<ColumnProof> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) out.push_back(column_proof(j[i], where[i], shape));
    return out;
  }

  // serde's LabelingProof / EncodingProof {parents, layer_index, node}.
  LabelingProof labeling_proof(const Json& j, const Where& where, std::uint32_t layer, std::uint64_t node) const {
    LabelingProof l;
    l.parents =
        field_elements(member(j, where, "parents"), where / "parents", porep::kLabelParentSlots, "parent labels");
    l.layer_index = static_cast<std::uint32_t>(
        unsigned_number(member(j, where, "layer_index"), where / "layer_index", 0xffffffff));
    if (l.layer_index != layer) {
      fail(where / "layer_index", "expected layer " + std::to_string(layer) + ", got " + std::to_string(l.layer_index));
    }
    l.node = unsigned_number(member(j, where, "node"), where / "node", ~std::uint64_t{0});
    if (l.node != node) {
      fail(where / "node", "expected the challenged node " + std::to_string(node) + ", got " + std::to_string(l.node));
    }
    return l;
  }

  VanillaProof vanilla_proof(const Json& j, const Where& where, const core::SectorShape& shape) const {
    VanillaProof v;
    const Where d_at = where / "comm_d_proofs";
    v.comm_d_proofs = merkle_proof(member(j, where, "comm_d_proofs"), d_at, data_tree(shape));
    const std::uint64_t challenge = v.challenge();

    const Where r_at = where / "comm_r_last_proof";
    v.comm_r_last_proof = merkle_proof(member(j, where, "comm_r_last_proof"), r_at, replica_tree(shape));
    const std::uint64_t r_leaf = v.comm_r_last_proof.leaf_index(shape.base_arity, shape.sub_arity);
    if (r_leaf != challenge) {
      fail(r_at, "proves node " + std::to_string(r_leaf) + ", but comm_d_proofs proves the challenge " +
                     std::to_string(challenge));
    }

    const Where cols_at = where / "replica_column_proofs";
    const Json& cols = member(j, where, "replica_column_proofs");
    v.replica_column_proofs.c_x = column_proof(member(cols, cols_at, "c_x"), cols_at / "c_x", shape);
    if (v.replica_column_proofs.c_x.index != challenge) {
      fail(cols_at / "c_x" / "column" / "index", "expected the challenge " + std::to_string(challenge) + ", got " +
                                                     std::to_string(v.replica_column_proofs.c_x.index));
    }
    v.replica_column_proofs.drg_parents = column_proofs(member(cols, cols_at, "drg_parents"), cols_at / "drg_parents",
                                                        porep::kBaseDegree, "DRG parent columns", shape);
    v.replica_column_proofs.exp_parents = column_proofs(member(cols, cols_at, "exp_parents"), cols_at / "exp_parents",
                                                        porep::kExpansionDegree, "expander parent columns", shape);

    const Where labels_at = where / "labeling_proofs";
    const Json& labels = array_of(member(j, where, "labeling_proofs"), labels_at, shape.layers, "labeling proofs");
    for (std::size_t l = 0; l < shape.layers; ++l) {
      v.labeling_proofs.push_back(labeling_proof(labels[l], labels_at[l], static_cast<std::uint32_t>(l + 1), challenge));
    }
    v.encoding_proof = labeling_proof(member(j, where, "encoding_proof"), where / "encoding_proof",
                                      static_cast<std::uint32_t>(shape.layers), challenge);
    return v;
  }

  C1Output c1_output(const Json& j) const {
    const Where root;
    if (!j.is_object()) fail(root, "expected a SealCommitPhase1Output object, got " + kind_of(j));
    C1Output out;
    const Json& name = member(j, root, "registered_proof");
    if (!name.is_string()) fail(root / "registered_proof", "expected a registered seal proof's name, got " + kind_of(name));
    try {
      out.registered_proof = core::seal_proof(name.get_ref<const std::string&>());
    } catch (const std::invalid_argument& e) {
      fail(root / "registered_proof", e.what());
    }
    const core::SealProof& proof = out.registered_proof;
    const core::SectorShape& shape = proof.shape();

    const Where vp_at = root / "vanilla_proofs";
    const Json& vp = member(j, root, "vanilla_proofs");
    const std::string_view variant = core::vanilla_variant(proof);
    if (!vp.is_object() || vp.size() != 1) {
      fail(vp_at, "expected an object with one member, " + std::string(variant) + ", got " +
                      (vp.is_object() ? count_of(vp.size(), "members") : kind_of(vp)));
    }
    if (vp.begin().key() != variant) {
      fail(vp_at, "expected " + std::string(variant) + " for " + std::string(proof.name) + " (" +
                      std::to_string(proof.sector_bytes) + "-byte sectors), got \"" + vp.begin().key() + "\"");
    }
    const Where partitions_at = vp_at / variant;
    const Json& partitions = array(vp.begin().value(), partitions_at);
    if (partitions.size() != proof.partitions()) {
      fail(partitions_at, "expected " + count_of(proof.partitions(), "partitions") + " for " + std::string(proof.name) +
                              ", got " + std::to_string(partitions.size()));
    }
    const std::size_t per_partition = proof.challenges_per_partition();
    out.vanilla_proofs.resize(partitions.size());
    for (std::size_t k = 0; k < partitions.size(); ++k) {
      const Where part_at = partitions_at[k];
      const Json& challenges = array(partitions[k], part_at);
      if (challenges.size() != per_partition) {
        fail(part_at, "expected " + count_of(per_partition, "challenges") + " in a partition of " +
                          std::string(proof.name) + ", got " + std::to_string(challenges.size()));
      }
      out.vanilla_proofs[k].reserve(per_partition);
      for (std::size_t i = 0; i < per_partition; ++i) {
        out.vanilla_proofs[k].push_back(vanilla_proof(challenges[i], part_at[i], shape));
      }
    }
    out.comm_r = field_element(member(j, root, "comm_r"), root / "comm_r");
    out.comm_d = field_element(member(j, root, "comm_d"), root / "comm_d");
    out.replica_id = field_element(member(j, root, "replica_id"), root / "replica_id");
    out.seed = bytes32(member(j, root, "seed"), root / "seed");
    out.ticket = bytes32(member(j, root, "ticket"), root / "ticket");
    return out;
  }

 private:
  std::string source_;
};

// nlohmann's DOM, built from its SAX events so that each array of 32 bytes becomes one
// binary value: a 32 GiB sector's output holds millions of them, and a JSON value per
// byte would take 16 times the text. Also refuses what serde_json refuses and nlohmann
// accepts (a field given twice), bounds the nesting, checks each value against the
// document's shape at its first token (c1_output_shape.hpp: fields the reader does
// not use are read past, not kept) and bounds the DOM's memory to a multiple of the
// text: `[{},{},…]` once took 32 times its size before its shape was looked at.
class DomBuilder final : public nlohmann::json_sax<Json> {
 public:
  // A C1 output's DOM takes about 3 times its text (binary byte arrays, a few keys
  // per Merkle path element); past 8 times (at least 64 MiB) it is something else.
  static constexpr std::size_t kBytesPerTextByte = 8;
  static constexpr std::size_t kMinBudget = std::size_t{64} << 20;
  // What one value costs in the DOM, roughly: the value, its slot or map node.
  static constexpr std::size_t kValueBytes = 64;

  DomBuilder(const Reader& reader, std::size_t text_bytes)
      : reader_(reader), budget_(std::max(kMinBudget, kBytesPerTextByte * text_bytes)), text_bytes_(text_bytes) {}

  Json take() { return std::move(root_); }

  bool null() override { return add(Json(nullptr)); }
  bool boolean(bool v) override { return add(Json(v)); }
  bool number_integer(number_integer_t v) override { return add(Json(v)); }
  bool number_unsigned(number_unsigned_t v) override {
    if (skipped_depth_ == 0 && !frames_.empty()) {
      Frame& f = frames_.back();
      if (f.collecting && v <= 0xff && f.bytes.size() < 32) {
        f.bytes.push_back(static_cast<std::uint8_t>(v));
        return true;
      }
    }
    return add(Json(v));
  }
  bool number_float(number_float_t v, const string_t&) override { return add(Json(v)); }
  bool string(string_t& v) override { return add(Json(std::move(v))); }
  bool binary(binary_t& v) override { return add(Json::binary(std::move(v))); }
  bool start_object(std::size_t) override { return open(Json::object()); }
  bool key(string_t& k) override {
    if (skipped_depth_ > 0) return true;
    const Frame& f = frames_.back();
    if (f.value->contains(k)) reader_.fail(where(), "duplicate field \"" + k + "\"");
    if (f.shape->kind == C1ValueShape::Kind::variant && !f.value->empty()) {
      reader_.fail(where(), "expected " + std::string(f.shape->what) + ", got a second member \"" + k + "\"");
    }
    key_ = std::move(k);
    return true;
  }
  bool end_object() override {
    if (skipped_depth_ > 0) {
      --skipped_depth_;
      return true;
    }
    frames_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override { return open(Json::array()); }
  bool end_array() override {
    if (skipped_depth_ > 0) {
      --skipped_depth_;
      return true;
    }
    Frame& f = frames_.back();
    if (f.collecting && f.bytes.size() == 32) {
      *f.value = Json::binary(std::move(f.bytes));
    } else {
      flush(f);
    }
    frames_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    reader_.fail(Where(), "not valid JSON at byte " + std::to_string(position) + " (" + e.what() + ")");
  }

 private:
  struct Frame {
    Json* value;
    const C1ValueShape* shape;
    std::string label;  // its key, or [index], in its parent
    bool collecting;    // an array of bytes, kept in `bytes` until it closes
    std::vector<std::uint8_t> bytes;
  };

  // The shape the next value must have: the root's, its object field's (null for a
  // field the reader does not use), or its array's or variant's element.
  const C1ValueShape* next_shape() const {
    if (frames_.empty()) return &c1_output_shape();
    const C1ValueShape& parent = *frames_.back().shape;
    return parent.kind == C1ValueShape::Kind::object ? parent.field(key_) : parent.element;
  }

  // Whether a value whose first token made `v` is of the shape's kind.
  static bool takes(const C1ValueShape& shape, const Json& v) {
    switch (shape.kind) {
      case C1ValueShape::Kind::object:
      case C1ValueShape::Kind::variant: return v.is_object();
      case C1ValueShape::Kind::array: return v.is_array() || v.is_binary();
      case C1ValueShape::Kind::number: return v.is_number();
      case C1ValueShape::Kind::string: return v.is_string();
      case C1ValueShape::Kind::null: return v.is_null();
    }
    return false;
  }

  // Refuses a value whose first token is not of its shape's kind, or one element too
  // many for its array.
  void check(const C1ValueShape& shape, const Json& v) const {
    if (!takes(shape, v)) {
      const std::string got = v.is_array() ? "an array" : kind_of(v);  // an opening array is empty yet
      // The path is spelt out only here: building it for every value costs the reader.
      reader_.fail(frames_.empty() ? std::string() : where_next(),
                   "expected " + std::string(shape.what) + ", got " + got);
    }
    if (frames_.empty()) return;
    const Frame& f = frames_.back();
    const std::size_t max = f.shape->max_elements;
    if (f.value->is_array() && max != 0 && f.value->size() + f.bytes.size() >= max) {
      reader_.fail(where(), "expected " + std::string(f.shape->what) + ", got more than " + std::to_string(max) +
                                " elements");
    }
  }

  // The path of the value about to be placed.
  std::string where_next() const {
    const Frame& f = frames_.back();
    std::string s = where();
    if (f.value->is_array()) return s + '[' + std::to_string(f.value->size() + f.bytes.size()) + ']';
    return s.empty() ? key_ : s + '.' + key_;
  }

  // The JSON path of the value being read, for an error.
  std::string where() const {
    std::string s;
    for (const Frame& f : frames_) {
      if (f.label.empty()) continue;
      if (!s.empty() && f.label.front() != '[') s += '.';
      s += f.label;
    }
    return s;
  }

  void flush(Frame& f) {
    spend(f.bytes.size() * kValueBytes);
    for (const std::uint8_t b : f.bytes) f.value->push_back(Json(b));
    f.bytes.clear();
    f.collecting = false;
  }

  void spend(std::size_t bytes) {
    spent_ += bytes;
    if (spent_ > budget_) {
      reader_.fail(where(), "the document would take more than " + std::to_string(budget_ >> 20) +
                                " MiB in memory, over " + std::to_string(kBytesPerTextByte) + " times its " +
                                std::to_string(text_bytes_) + " bytes of text: not a C1 output");
    }
  }

  Json* place(Json v, std::string& label) {
    spend(kValueBytes + (v.is_string() ? v.get_ref<const std::string&>().size() : 0) + key_.size());
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& f = frames_.back();
    if (f.value->is_array()) {
      flush(f);
      label = '[' + std::to_string(f.value->size()) + ']';
      f.value->push_back(std::move(v));
      return &f.value->back();
    }
    label = key_;
    return &((*f.value)[key_] = std::move(v));
  }

  // A scalar: checked and placed, or dropped in a field the reader does not use.
  bool add(Json v) {
    if (skipped_depth_ > 0) return true;
    const C1ValueShape* shape = next_shape();
    if (shape == nullptr) return true;
    check(*shape, v);
    std::string label;
    place(std::move(v), label);
    return true;
  }

  // An object or array: checked and opened, or read past when the reader does not use it.
  bool open(Json v) {
    if (frames_.size() + skipped_depth_ >= static_cast<std::size_t>(kMaxDepth)) {
      reader_.fail(Where(), "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    if (skipped_depth_ > 0) {
      ++skipped_depth_;
      return true;
    }
    const C1ValueShape* shape = next_shape();
    if (shape == nullptr) {
      skipped_depth_ = 1;
      return true;
    }
    const bool array = v.is_array();
    check(*shape, v);
    const bool bytes = array && shape->element != nullptr && shape->element->kind == C1ValueShape::Kind::number;
    std::string label;
    Json* value = place(std::move(v), label);
    frames_.push_back({value, shape, std::move(label), bytes, {}});
    return true;
  }

  const Reader& reader_;
  std::size_t budget_;
  std::size_t text_bytes_;
  std::size_t spent_ = 0;
  Json root_;
  std::vector<Frame> frames_;  // the open objects and arrays; their values stay put until closed
  std::string key_;
  std::size_t skipped_depth_ = 0;  // > 0: inside a value the reader does not use
};

Json Reader::parse(std::string_view text) const {
  DomBuilder builder(*this, text.size());
  try {
    Json::sax_parse(text.begin(), text.end(), &builder);
  } catch (const Json::exception& e) {
    fail(Where(), std::string("not valid JSON (") + e.what() + ")");
  }
  return builder.take();
}

// ---------------------------------------------------------------- writing

// The decimal digits of 0 .. 255.
struct Decimal {
  std::array<char, 3> digits;
  std::size_t size;
};

constexpr std::array<Decimal, 256> kDecimal = [] {
  std::array<Decimal, 256> t{};
  for (std::size_t i = 0; i < t.size(); ++i) {
    const auto d = [](std::size_t x) { return static_cast<char>('0' + x % 10); };
    if (i >= 100) t[i] = {{d(i / 100), d(i / 10), d(i)}, 3};
    else if (i >= 10) t[i] = {{d(i / 10), d(i), 0}, 2};
    else t[i] = {{d(i), 0, 0}, 1};
  }
  return t;
}();

class Writer {
 public:
  std::string take() { return std::move(out_); }

  void bytes(std::span<const std::uint8_t, 32> b) {
    out_ += '[';
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (i) out_ += ',';
      out_.append(kDecimal[b[i]].digits.data(), kDecimal[b[i]].size);
    }
    out_ += ']';
  }

  void elements(const std::vector<core::NodeBytes>& v) {
    out_ += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) out_ += ',';
      bytes(v[i]);
    }
    out_ += ']';
  }

  void key(const char* k, bool first = false) {
    if (!first) out_ += ',';
    out_ += '"';
    out_ += k;
    out_ += "\":";
  }

  void number(std::uint64_t v) { out_ += std::to_string(v); }

  void path(const MerklePath& p) {
    out_ += "{\"path\":[";
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (i) out_ += ',';
      out_ += '{';
      key("hashes", true);
      elements(p[i].hashes);
      key("index");
      number(p[i].index);
      out_ += '}';
    }
    out_ += "]}";
  }

  void merkle_proof(const MerkleProof& p) {
    out_ += "{\"data\":{\"";
    out_ += merkle_proof_kind_name(p.kind);
    out_ += "\":{";
    if (p.kind == MerkleProof::Kind::kSingle) {
      key("root", true);
      bytes(p.root);
      key("leaf");
      bytes(p.leaf);
      key("path");
      path(p.base);
    } else {
      key("base_proof", true);
      path(p.base);
      key("sub_proof");
      path(p.sub);
      if (p.kind == MerkleProof::Kind::kTop) {
        key("top_proof");
        path(p.top);
      }
      key("root");
      bytes(p.root);
      key("leaf");
      bytes(p.leaf);
    }
    out_ += "}}}";
  }

  void column_proof(const ColumnProof& c) {
    out_ += '{';
    key("column", true);
    out_ += '{';
    key("index", true);
    number(c.index);
    key("rows");
    elements(c.rows);
    key("_h");
    out_ += "null}";
    key("inclusion_proof");
    merkle_proof(c.inclusion_proof);
    out_ += '}';
  }

  void column_proofs(const std::vector<ColumnProof>& v) {
    out_ += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) out_ += ',';
      column_proof(v[i]);
    }
    out_ += ']';
  }

  void labeling_proof(const LabelingProof& l) {
    out_ += '{';
    key("parents", true);
    elements(l.parents);
    key("layer_index");
    number(l.layer_index);
    key("node");
    number(l.node);
    out_ += '}';
  }

  void vanilla_proof(const VanillaProof& v) {
    out_ += '{';
    key("comm_d_proofs", true);
    merkle_proof(v.comm_d_proofs);
    key("comm_r_last_proof");
    merkle_proof(v.comm_r_last_proof);
    key("replica_column_proofs");
    out_ += '{';
    key("c_x", true);
    column_proof(v.replica_column_proofs.c_x);
    key("drg_parents");
    column_proofs(v.replica_column_proofs.drg_parents);
    key("exp_parents");
    column_proofs(v.replica_column_proofs.exp_parents);
    out_ += '}';
    key("labeling_proofs");
    out_ += '[';
    for (std::size_t i = 0; i < v.labeling_proofs.size(); ++i) {
      if (i) out_ += ',';
      labeling_proof(v.labeling_proofs[i]);
    }
    out_ += ']';
    key("encoding_proof");
    labeling_proof(v.encoding_proof);
    out_ += '}';
  }

  void c1_output(const C1Output& c) {
    out_ += '{';
    key("registered_proof", true);
    out_ += '"';
    out_ += c.registered_proof.name;
    out_ += '"';
    key("vanilla_proofs");
    out_ += "{\"";
    out_ += core::vanilla_variant(c.registered_proof);
    out_ += "\":[";
    for (std::size_t k = 0; k < c.vanilla_proofs.size(); ++k) {
      if (k) out_ += ',';
      out_ += '[';
      for (std::size_t i = 0; i < c.vanilla_proofs[k].size(); ++i) {
        if (i) out_ += ',';
        vanilla_proof(c.vanilla_proofs[k][i]);
      }
      out_ += ']';
    }
    out_ += "]}";
    key("comm_r");
    bytes(c.comm_r);
    key("comm_d");
    bytes(c.comm_d);
    key("replica_id");
    bytes(c.replica_id);
    key("seed");
    bytes(c.seed);
    key("ticket");
    bytes(c.ticket);
    out_ += '}';
  }

 private:
  std::string out_;
};

}  // namespace

std::uint64_t MerkleProof::leaf_index(std::size_t base_arity, std::size_t sub_arity) const {
  std::uint64_t index = 0;
  std::uint64_t scale = 1;
  for (const MerklePathElement& e : base) {
    index += e.index * scale;
    scale *= base_arity;
  }
  for (const MerklePathElement& e : sub) {
    index += e.index * scale;
    scale *= sub_arity;
  }
  for (const MerklePathElement& e : top) index += e.index * scale;
  return index;
}

std::uint64_t VanillaProof::challenge() const { return comm_d_proofs.leaf_index(2, 0); }

bool C1Output::operator==(const C1Output& other) const {
  return registered_proof.registered_id == other.registered_proof.registered_id &&
         vanilla_proofs == other.vanilla_proofs && comm_r == other.comm_r && comm_d == other.comm_d &&
         replica_id == other.replica_id && seed == other.seed && ticket == other.ticket;
}

C1OutputError::C1OutputError(std::string source, std::string json_path, const std::string& problem)
    : std::runtime_error(source + ": " + (json_path.empty() ? "" : json_path + ": ") + problem),
      source_(std::move(source)),
      json_path_(std::move(json_path)) {}

C1Output parse_c1_output(std::string_view json, std::string_view source) {
  const Reader reader(source);
  return reader.c1_output(reader.parse(json));
}

std::string c1_output_to_json(const C1Output& output) {
  Writer w;
  w.c1_output(output);
  return w.take();
}

const char* merkle_proof_kind_name(MerkleProof::Kind kind) {
  switch (kind) {
    case MerkleProof::Kind::kSingle: return "Single";
    case MerkleProof::Kind::kSub: return "Sub";
    case MerkleProof::Kind::kTop: return "Top";
  }
  return "?";
}

}  // namespace zkpipe::filecoin::api
