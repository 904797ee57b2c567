// The commit-phase-1 output (c1.json) reader and writer. The expected JSON is built
// here with nlohmann::ordered_json from serde's layout as the Rust sources declare it
// (field order = declaration order, externally tagged enums, [u8; 32] and the hasher
// domains as arrays of 32 numbers, Column's PhantomData `_h` as null):
//   rust-filecoin-proofs-api src/seal.rs      SealCommitPhase1Output, VanillaSealProof
//   rust-filecoin-proofs-api src/registry.rs  RegisteredSealProof (unit variants: strings)
//   storage-proofs-porep stacked/vanilla/params.rs  Proof, ReplicaColumnProof
//   storage-proofs-porep stacked/vanilla/{column,column_proof,labeling_proof,encoding_proof}.rs
//   storage-proofs-core merkle/proof.rs       MerkleProof {data}, ProofData, Single/Sub/TopProof,
//                                             InclusionPath {path}, PathElement {hashes, index}
//   filecoin-hashers poseidon.rs / sha256.rs  PoseidonDomain([u8; 32]), Sha256Domain([u8; 32])
// curio lib/proof/porep_vproof_types.go mirrors the same layout in Go and checks it
// against filecoin-ffi's output of a 2 KiB seal (porep_vproof_test.go).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/api/commit2_input.hpp"
#include "circuits/filecoin/porep/labels.hpp"
#include "circuits/filecoin/porep/sdr_graph.hpp"

namespace zkpipe::filecoin::api {
namespace {

using OJson = nlohmann::ordered_json;

// Deterministic field elements: 254-bit values (top two bits clear), always below r.
class Elements {
 public:
  explicit Elements(std::uint64_t seed) : state_(seed) {}

  core::NodeBytes next() {
    core::NodeBytes b{};
    for (std::size_t i = 0; i < 32; i += 8) {
      const std::uint64_t x = step();
      for (std::size_t k = 0; k < 8; ++k) b[i + k] = static_cast<std::uint8_t>(x >> (8 * k));
    }
    b[31] &= 0x3f;
    return b;
  }

  std::vector<core::NodeBytes> next(std::size_t n) {
    std::vector<core::NodeBytes> v;
    for (std::size_t i = 0; i < n; ++i) v.push_back(next());
    return v;
  }

 private:
  std::uint64_t step() {  // splitmix64
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }

  std::uint64_t state_;
};

std::size_t levels(std::uint64_t leaves, std::size_t arity) {
  std::size_t k = 0;
  for (; leaves > 1; leaves /= arity) ++k;
  return k;
}

// A path to `node` in a tree of `levels` levels of `arity`: the node's digits in base
// `arity`, least significant first (the leaf's level first).
MerklePath path_to(std::uint64_t node, std::size_t levels, std::size_t arity, Elements& e) {
  MerklePath p;
  for (std::size_t i = 0; i < levels; ++i) {
    p.push_back({e.next(arity - 1), node % arity});
    node /= arity;
  }
  return p;
}

MerkleProof replica_proof(const core::SectorShape& s, std::uint64_t node, Elements& e) {
  const std::uint64_t base_leaves = s.nodes() / std::max<std::size_t>(1, s.sub_arity) / std::max<std::size_t>(1, s.top_arity);
  MerkleProof p;
  p.root = e.next();
  p.leaf = e.next();
  p.base = path_to(node % base_leaves, levels(base_leaves, s.base_arity), s.base_arity, e);
  node /= base_leaves;
  if (s.sub_arity) {
    p.kind = MerkleProof::Kind::kSub;
    p.sub = path_to(node % s.sub_arity, 1, s.sub_arity, e);
    node /= s.sub_arity;
  }
  if (s.top_arity) {
    p.kind = MerkleProof::Kind::kTop;
    p.top = path_to(node, 1, s.top_arity, e);
  }
  return p;
}

ColumnProof column(const core::SectorShape& s, std::uint64_t node, Elements& e) {
  return {static_cast<std::uint32_t>(node), e.next(s.layers), replica_proof(s, node, e)};
}

VanillaProof vanilla(const core::SectorShape& s, std::uint64_t challenge, Elements& e) {
  VanillaProof v;
  v.comm_d_proofs.root = e.next();
  v.comm_d_proofs.leaf = e.next();
  v.comm_d_proofs.base = path_to(challenge, levels(s.nodes(), 2), 2, e);
  v.comm_r_last_proof = replica_proof(s, challenge, e);
  v.replica_column_proofs.c_x = column(s, challenge, e);
  for (std::size_t k = 0; k < porep::kBaseDegree; ++k) {
    v.replica_column_proofs.drg_parents.push_back(column(s, (challenge + 1 + k) % s.nodes(), e));
  }
  for (std::size_t k = 0; k < porep::kExpansionDegree; ++k) {
    v.replica_column_proofs.exp_parents.push_back(column(s, (challenge * 7 + 3 + k) % s.nodes(), e));
  }
  for (std::size_t l = 1; l <= s.layers; ++l) {
    v.labeling_proofs.push_back({e.next(porep::kLabelParentSlots), static_cast<std::uint32_t>(l), challenge});
  }
  v.encoding_proof = {e.next(porep::kLabelParentSlots), static_cast<std::uint32_t>(s.layers), challenge};
  return v;
}

C1Output sample(const core::SealProof& proof, std::uint64_t seed = 1) {
  Elements e(seed);
  C1Output c;
  c.registered_proof = proof;
  const core::SectorShape& s = proof.shape();
  std::uint64_t challenge = 1;
  for (std::size_t k = 0; k < proof.partitions(); ++k) {
    c.vanilla_proofs.emplace_back();
    for (std::size_t i = 0; i < proof.challenges_per_partition(); ++i) {
      challenge = (challenge * 6364136223846793005 + 1442695040888963407) % s.nodes();
      c.vanilla_proofs.back().push_back(vanilla(s, challenge, e));
    }
  }
  c.comm_r = e.next();
  c.comm_d = e.next();
  c.replica_id = e.next();
  c.seed = e.next();
  c.seed[31] = 0xff;  // seed and ticket are plain bytes, not field elements
  c.ticket = e.next();
  c.ticket[31] = 0xee;
  return c;
}

// ---------------------------------------------------------------- serde's layout

OJson bytes(std::span<const std::uint8_t, 32> b) { return OJson(std::vector<std::uint8_t>(b.begin(), b.end())); }

OJson elements(const std::vector<core::NodeBytes>& v) {
  OJson a = OJson::array();
  for (const core::NodeBytes& x : v) a.push_back(bytes(x));
  return a;
}

OJson inclusion_path(const MerklePath& p) {
  OJson a = OJson::array();
  for (const MerklePathElement& e : p) a.push_back({{"hashes", elements(e.hashes)}, {"index", e.index}});
  return {{"path", a}};
}

OJson merkle(const MerkleProof& p) {
  OJson body;
  switch (p.kind) {
    case MerkleProof::Kind::kSingle:
      body = {{"root", bytes(p.root)}, {"leaf", bytes(p.leaf)}, {"path", inclusion_path(p.base)}};
      return {{"data", {{"Single", body}}}};
    case MerkleProof::Kind::kSub:
      body = {{"base_proof", inclusion_path(p.base)}, {"sub_proof", inclusion_path(p.sub)},
              {"root", bytes(p.root)}, {"leaf", bytes(p.leaf)}};
      return {{"data", {{"Sub", body}}}};
    case MerkleProof::Kind::kTop:
      body = {{"base_proof", inclusion_path(p.base)}, {"sub_proof", inclusion_path(p.sub)},
              {"top_proof", inclusion_path(p.top)}, {"root", bytes(p.root)}, {"leaf", bytes(p.leaf)}};
      return {{"data", {{"Top", body}}}};
  }
  return {};
}

OJson column_json(const ColumnProof& c) {
  return {{"column", {{"index", c.index}, {"rows", elements(c.rows)}, {"_h", nullptr}}},
          {"inclusion_proof", merkle(c.inclusion_proof)}};
}

OJson columns_json(const std::vector<ColumnProof>& v) {
  OJson a = OJson::array();
  for (const ColumnProof& c : v) a.push_back(column_json(c));
  return a;
}

OJson labeling(const LabelingProof& l) {
  return {{"parents", elements(l.parents)}, {"layer_index", l.layer_index}, {"node", l.node}};
}

OJson expected_json(const C1Output& c, const char* variant) {
  OJson partitions = OJson::array();
  for (const auto& partition : c.vanilla_proofs) {
    OJson proofs = OJson::array();
    for (const VanillaProof& v : partition) {
      OJson labels = OJson::array();
      for (const LabelingProof& l : v.labeling_proofs) labels.push_back(labeling(l));
      proofs.push_back({{"comm_d_proofs", merkle(v.comm_d_proofs)},
                        {"comm_r_last_proof", merkle(v.comm_r_last_proof)},
                        {"replica_column_proofs",
                         {{"c_x", column_json(v.replica_column_proofs.c_x)},
                          {"drg_parents", columns_json(v.replica_column_proofs.drg_parents)},
                          {"exp_parents", columns_json(v.replica_column_proofs.exp_parents)}}},
                        {"labeling_proofs", labels},
                        {"encoding_proof", labeling(v.encoding_proof)}});
    }
    partitions.push_back(proofs);
  }
  return {{"registered_proof", std::string(c.registered_proof.name)},
          {"vanilla_proofs", {{variant, partitions}}},
          {"comm_r", bytes(c.comm_r)},
          {"comm_d", bytes(c.comm_d)},
          {"replica_id", bytes(c.replica_id)},
          {"seed", bytes(c.seed)},
          {"ticket", bytes(c.ticket)}};
}

// VanillaSealProof's variants: the V1 names, for every version of the same size.
const char* variant_for(std::uint64_t sector_bytes) {
  switch (sector_bytes) {
    case 2048: return "StackedDrg2KiBV1";
    case 8ull << 20: return "StackedDrg8MiBV1";
    case 512ull << 20: return "StackedDrg512MiBV1";
    case 32ull << 30: return "StackedDrg32GiBV1";
    case 64ull << 30: return "StackedDrg64GiBV1";
  }
  return "?";
}

// The whole document against serde's layout, or (for the production sizes, where the
// layout built here would take seconds) the layout of one compound-tree proof and column.
void expect_round_trip(const core::SealProof& proof, bool whole_layout) {
  SCOPED_TRACE(std::string(proof.name));
  const C1Output c = sample(proof);
  const std::string text = c1_output_to_json(c);
  if (whole_layout) {
    EXPECT_EQ(text, expected_json(c, variant_for(proof.sector_bytes)).dump());
  } else {
    const VanillaProof& v = c.vanilla_proofs.back().back();
    EXPECT_NE(text.find("\"comm_r_last_proof\":" + merkle(v.comm_r_last_proof).dump() + ","), std::string::npos);
    EXPECT_NE(text.find(column_json(v.replica_column_proofs.exp_parents.back()).dump() + "]},\"labeling_proofs\""),
              std::string::npos);
    EXPECT_EQ(text.rfind(std::string("{\"registered_proof\":\"") + std::string(proof.name) + "\",\"vanilla_proofs\":{\"" +
                             variant_for(proof.sector_bytes) + "\":[[{\"comm_d_proofs\":{\"data\":{\"Single\":",
                         0),
              0u);
  }
  const C1Output back = parse_c1_output(text, "c1.json");
  EXPECT_TRUE(back == c);
  EXPECT_EQ(back.registered_proof.name, proof.name);
  EXPECT_EQ(c1_output_to_json(back), text);
}

TEST(FilecoinC1Output, RoundTripEveryTestSizedProof) {
  for (const core::SealProof& proof : core::seal_proofs()) {
    if (proof.sector_bytes <= (512ull << 20)) expect_round_trip(proof, true);
  }
}

// The production sizes: tree_r_last and tree_c are compound (Sub at 32 GiB, Top at 64 GiB).
TEST(FilecoinC1Output, RoundTripCompoundTrees) {
  expect_round_trip(core::seal_proof("StackedDrg32GiBV1_1"), false);
  expect_round_trip(core::seal_proof("StackedDrg64GiBV1_1"), false);
}

TEST(FilecoinC1Output, ChallengeIsTheLeafIndexOfEveryTree) {
  const C1Output c = sample(core::seal_proof("StackedDrg64GiBV1_1"));
  const VanillaProof& v = c.vanilla_proofs[3][5];
  const std::uint64_t challenge = v.challenge();
  EXPECT_EQ(v.comm_r_last_proof.leaf_index(8, 8), challenge);
  EXPECT_EQ(v.replica_column_proofs.c_x.index, challenge);
  EXPECT_EQ(v.encoding_proof.node, challenge);
  // 2^31 nodes: 9 base levels of 8 (2^27 leaves), one of 8 sub trees, one of 2 top trees.
  EXPECT_EQ(v.comm_r_last_proof.base.size(), 9u);
  EXPECT_EQ(v.comm_r_last_proof.leaf_index(8, 8) >> 27,
            v.comm_r_last_proof.sub[0].index + 8 * v.comm_r_last_proof.top[0].index);
}

// ---------------------------------------------------------------- rejections

OJson valid_2kib(const char* name = "StackedDrg2KiBV1_1") {
  const C1Output c = sample(core::seal_proof(name));
  return expected_json(c, "StackedDrg2KiBV1");
}

const char* kProof01 = "vanilla_proofs.StackedDrg2KiBV1[0][1]";

// Parsing `text` fails at `path` with a message containing `problem`.
void expect_rejected(const std::string& text, const std::string& path, const std::string& problem) {
  try {
    parse_c1_output(text, "c1.json");
    ADD_FAILURE() << "accepted; expected an error at " << path;
  } catch (const C1OutputError& e) {
    EXPECT_EQ(e.json_path(), path) << e.what();
    EXPECT_NE(std::string(e.what()).find(problem), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("c1.json: ", 0), 0u) << e.what();
  }
}

void expect_rejected(const OJson& j, const std::string& path, const std::string& problem) {
  expect_rejected(j.dump(), path, problem);
}

OJson& proof01(OJson& j) { return j["vanilla_proofs"]["StackedDrg2KiBV1"][0][1]; }

TEST(FilecoinC1Output, TruncatedJson) {
  const std::string text = valid_2kib().dump();
  expect_rejected(text.substr(0, text.size() / 2), "", "not valid JSON at byte");
  expect_rejected(std::string(), "", "not valid JSON");
}

TEST(FilecoinC1Output, RegisteredProofAgainstSectorSize) {
  OJson j = valid_2kib();
  j["registered_proof"] = "StackedDrg32GiBV1_1";
  expect_rejected(j, "vanilla_proofs", "expected StackedDrg32GiBV1 for StackedDrg32GiBV1_1");
  j["registered_proof"] = "StackedDrg4KiBV1";
  expect_rejected(j, "registered_proof", "unknown registered seal proof \"StackedDrg4KiBV1\"");
  j["registered_proof"] = 5;
  expect_rejected(j, "registered_proof", "expected a registered seal proof's name, got the number 5");
}

TEST(FilecoinC1Output, PathLength) {
  OJson j = valid_2kib();
  OJson& hashes = proof01(j)["replica_column_proofs"]["drg_parents"][2]["inclusion_proof"]["data"]["Single"]["path"]
                            ["path"][1]["hashes"];
  hashes.erase(hashes.size() - 1);
  expect_rejected(j,
                  std::string(kProof01) +
                      ".replica_column_proofs.drg_parents[2].inclusion_proof.data.Single.path.path[1].hashes",
                  "expected 7 siblings, got 6");

  j = valid_2kib();
  proof01(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"].erase(0);
  expect_rejected(j, std::string(kProof01) + ".comm_d_proofs.data.Single.path.path",
                  "expected 6 levels of arity 2, got 5");

  j = valid_2kib();
  OJson& rows = proof01(j)["replica_column_proofs"]["exp_parents"][7]["column"]["rows"];
  rows.push_back(rows[0]);
  expect_rejected(j, std::string(kProof01) + ".replica_column_proofs.exp_parents[7].column.rows",
                  "expected 2 rows (one a layer), got 3");
}

TEST(FilecoinC1Output, TreeKindMustMatchTheSectorShape) {
  OJson j = valid_2kib();
  OJson& data = proof01(j)["comm_r_last_proof"]["data"];
  data = {{"Sub", data["Single"]}};
  expect_rejected(j, std::string(kProof01) + ".comm_r_last_proof.data", "expected Single");
}

TEST(FilecoinC1Output, NonCanonicalFieldElement) {
  // r, little-endian: the smallest 32 bytes that are not a field element.
  const std::vector<std::uint8_t> r = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                                       0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8,
                                       0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
  std::vector<std::uint8_t> r_minus_1 = r;
  r_minus_1[0] = 0x00;

  OJson j = valid_2kib();
  proof01(j)["comm_r_last_proof"]["data"]["Single"]["leaf"] = r_minus_1;
  j["replica_id"] = r_minus_1;
  EXPECT_NO_THROW(parse_c1_output(j.dump(), "c1.json"));

  proof01(j)["comm_r_last_proof"]["data"]["Single"]["leaf"] = r;
  expect_rejected(j, std::string(kProof01) + ".comm_r_last_proof.data.Single.leaf", "not a field element");

  j = valid_2kib();
  j["comm_r"] = std::vector<std::uint8_t>(32, 0xff);
  expect_rejected(j, "comm_r", "not below the BLS12-381 scalar modulus");

  // seed and ticket are bytes: any value reads.
  j = valid_2kib();
  j["seed"] = std::vector<std::uint8_t>(32, 0xff);
  EXPECT_NO_THROW(parse_c1_output(j.dump(), "c1.json"));
}

TEST(FilecoinC1Output, PartitionCount) {
  OJson j = valid_2kib();
  OJson& partitions = j["vanilla_proofs"]["StackedDrg2KiBV1"];
  partitions.push_back(partitions[0]);
  expect_rejected(j, "vanilla_proofs.StackedDrg2KiBV1", "expected 1 partitions for StackedDrg2KiBV1_1, got 2");

  // Non-interactive PoRep: 13 partitions of 2 at 2 KiB.
  j = valid_2kib("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep");
  EXPECT_NO_THROW(parse_c1_output(j.dump(), "c1.json"));
  j["vanilla_proofs"]["StackedDrg2KiBV1"].erase(12);
  expect_rejected(j, "vanilla_proofs.StackedDrg2KiBV1", "expected 13 partitions");
}

TEST(FilecoinC1Output, ChallengeCount) {
  OJson j = valid_2kib();
  j["vanilla_proofs"]["StackedDrg2KiBV1"][0].erase(1);
  expect_rejected(j, "vanilla_proofs.StackedDrg2KiBV1[0]", "expected 2 challenges in a partition");

  j = valid_2kib();
  proof01(j)["labeling_proofs"].erase(0);
  expect_rejected(j, std::string(kProof01) + ".labeling_proofs", "expected 2 labeling proofs, got 1");

  j = valid_2kib();
  proof01(j)["replica_column_proofs"]["drg_parents"].erase(0);
  expect_rejected(j, std::string(kProof01) + ".replica_column_proofs.drg_parents",
                  "expected 6 DRG parent columns, got 5");

  j = valid_2kib();
  proof01(j)["encoding_proof"]["parents"].erase(0);
  expect_rejected(j, std::string(kProof01) + ".encoding_proof.parents", "expected 37 parent labels, got 36");
}

TEST(FilecoinC1Output, MissingField) {
  OJson j = valid_2kib();
  j.erase("seed");
  expect_rejected(j, "", "missing field \"seed\"");

  j = valid_2kib();
  proof01(j)["replica_column_proofs"]["c_x"]["column"].erase("_h");
  expect_rejected(j, std::string(kProof01) + ".replica_column_proofs.c_x.column", "missing field \"_h\"");

  j = valid_2kib();
  proof01(j)["comm_r_last_proof"]["data"]["Single"].erase("root");
  expect_rejected(j, std::string(kProof01) + ".comm_r_last_proof.data.Single", "missing field \"root\"");
}

TEST(FilecoinC1Output, WrongType) {
  OJson j = valid_2kib();
  const std::string first_level = std::string(kProof01) + ".comm_d_proofs.data.Single.path.path[0]";
  proof01(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"][0]["index"] = "1";
  expect_rejected(j, first_level + ".index", "expected an unsigned integer, got a string");
  proof01(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"][0]["index"] = 1.5;
  expect_rejected(j, first_level + ".index", "expected an unsigned integer, got the number 1.5");
  proof01(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"][0]["index"] = -1;
  expect_rejected(j, first_level + ".index", "got the negative number -1");

  j = valid_2kib();
  j["comm_d"] = "0x00";
  expect_rejected(j, "comm_d", "expected an array of 32 bytes, got a string");
  j["comm_d"] = std::vector<int>(31, 0);
  expect_rejected(j, "comm_d", "expected 32 bytes, got 31");

  j = valid_2kib();
  std::vector<int> seed(32, 7);
  seed[3] = 256;
  j["seed"] = seed;
  expect_rejected(j, "seed[3]", "expected at most 255, got 256");

  j = valid_2kib();
  proof01(j)["replica_column_proofs"]["c_x"]["column"]["_h"] = 0;
  expect_rejected(j, std::string(kProof01) + ".replica_column_proofs.c_x.column._h", "expected null");

  expect_rejected(std::string("[1,2]"), "", "expected a SealCommitPhase1Output object, got an array");
}

TEST(FilecoinC1Output, IndicesMustAgree) {
  OJson j = valid_2kib();
  OJson& level = proof01(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"][0]["index"];
  level = 2;
  expect_rejected(j, std::string(kProof01) + ".comm_d_proofs.data.Single.path.path[0].index",
                  "expected at most 1, got 2");

  // A different comm_d leaf: the replica's proof no longer proves the same node.
  j = valid_2kib();
  OJson& bit = proof01(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"][5]["index"];
  bit = 1 - bit.get<int>();
  expect_rejected(j, std::string(kProof01) + ".comm_r_last_proof", "but comm_d_proofs proves the challenge");

  j = valid_2kib();
  OJson& index = proof01(j)["replica_column_proofs"]["exp_parents"][0]["column"]["index"];
  index = (index.get<int>() + 1) % 64;
  expect_rejected(j, std::string(kProof01) + ".replica_column_proofs.exp_parents[0].inclusion_proof",
                  "but the column is node");

  j = valid_2kib();
  proof01(j)["labeling_proofs"][1]["layer_index"] = 1;
  expect_rejected(j, std::string(kProof01) + ".labeling_proofs[1].layer_index", "expected layer 2, got 1");

  j = valid_2kib();
  OJson& node = proof01(j)["encoding_proof"]["node"];
  node = node.get<int>() + 64;
  expect_rejected(j, std::string(kProof01) + ".encoding_proof.node", "expected the challenged node");
}

// serde_json refuses a struct field given twice; nlohmann alone would keep the last.
TEST(FilecoinC1Output, DuplicateField) {
  std::string text = valid_2kib().dump();
  text.insert(text.size() - 1, ",\"comm_r\":[1]");
  expect_rejected(text, "", "duplicate field \"comm_r\"");
  text = valid_2kib().dump();
  const std::string c_x = "\"c_x\":{\"column\":{";
  text.insert(text.find(c_x) + c_x.size(), "\"index\":3,");
  expect_rejected(text, "vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs.c_x.column",
                  "duplicate field \"index\"");
}

TEST(FilecoinC1Output, DeepNestingIsRefused) {
  expect_rejected("{\"a\":" + std::string(100, '[') + std::string(100, ']') + "}", "", "nested deeper than 64 levels");
}

// The wrong shape is refused before a DOM of it is built: a document that is not an
// object at its first token, and one whose DOM would outgrow a multiple of its text
// (empty objects: 2 bytes of text each, far more in memory).
TEST(FilecoinC1Output, RefusesANonObjectAtItsFirstToken) {
  expect_rejected(std::string("[{},{},{}]"), "", "expected a SealCommitPhase1Output object, got an array");
  expect_rejected(std::string("17"), "", "expected a SealCommitPhase1Output object, got the number 17");
}

// Millions of values each of the right kind where it stands (empty vanilla proofs):
// refused once the DOM would pass a multiple of the text.
TEST(FilecoinC1Output, BoundsTheDomToAMultipleOfItsText) {
  std::string text = "{\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[[";
  for (int i = 0; i < 2'000'000; ++i) text += "{},";
  text += "{}]]}}";
  expect_rejected(text, "vanilla_proofs.StackedDrg2KiBV1[0]", "MiB in memory, over 8 times its");
}

// Each value is checked against the document's shape at its first token: nothing
// below a value of the wrong kind is read.
TEST(FilecoinC1Output, RefusesTheWrongShapeAtItsFirstToken) {
  expect_rejected(std::string("{\"vanilla_proofs\":[{},{},{}]}"), "vanilla_proofs",
                  "expected an object with one member, named by the seal proof, got an array");
  expect_rejected(std::string("{\"vanilla_proofs\":{\"A\":[[]],\"B\":[]}}"), "vanilla_proofs",
                  "got a second member \"B\"");
  expect_rejected(std::string("{\"comm_r\":{\"x\":1}}"), "comm_r", "expected an array of 32 bytes, got an object");
  std::string long_seed = "{\"seed\":[1";
  for (int i = 0; i < 40; ++i) long_seed += ",1";
  expect_rejected(long_seed + "]}", "seed", "expected an array of 32 bytes, got more than 32 elements");

  OJson j = valid_2kib();
  proof01(j)["labeling_proofs"] = OJson::object();
  expect_rejected(j, std::string(kProof01) + ".labeling_proofs",
                  "expected an array of labeling proofs, got an object");
  j = valid_2kib();
  proof01(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"][0]["hashes"][0] = true;
  expect_rejected(j, std::string(kProof01) + ".comm_d_proofs.data.Single.path.path[0].hashes[0]",
                  "expected an array of 32 bytes, got a boolean");
}

// Fields the reader does not use are read past and not kept, whatever they hold.
TEST(FilecoinC1Output, FieldsTheReaderDoesNotUseAreSkipped) {
  OJson j = valid_2kib();
  const std::string expected = c1_output_to_json(parse_c1_output(j.dump(), "c1.json"));
  OJson junk = OJson::array();
  for (int i = 0; i < 1000; ++i) {
    OJson item;
    item["a"] = OJson::array({1, 2, OJson::object()});
    item["c"] = "d";
    junk.push_back(item);
  }
  j["extra"] = junk;
  proof01(j)["comm_d_proofs"]["note"] = true;
  proof01(j)["encoding_proof"]["_h"] = nullptr;
  EXPECT_EQ(c1_output_to_json(parse_c1_output(j.dump(), "c1.json")), expected);
}

// ---------------------------------------------------------------- lotus-bench / curio wrapper

TEST(FilecoinCommit2Input, RoundTripWithBase64FromCoreutils) {
  const Commit2Input input{7, sample(core::seal_proof("StackedDrg2KiBV1_1"))};
  const std::string text = commit2_input_to_json(input);
  // `printf '%s' '{"registered_proof":"StackedDrg2KiBV1_1",...{"root":[' | base64 -w0`,
  // its first 123 bytes (whole 3-byte groups).
  const std::string expected_prefix =
      "{\"SectorNum\":7,\"Phase1Out\":\"eyJyZWdpc3RlcmVkX3Byb29mIjoiU3RhY2tlZERyZzJLaUJWMV8xIiwidmFuaWxsYV9wcm9vZnMiOnsi"
      "U3RhY2tlZERyZzJLaUJWMSI6W1t7ImNvbW1fZF9wcm9vZnMiOnsiZGF0YSI6eyJTaW5nbGUiOnsicm9vdCI6";
  EXPECT_EQ(text.rfind(expected_prefix, 0), 0u);
  EXPECT_NE(text.find("\",\"SectorSize\":2048}"), std::string::npos);
  const Commit2Input back = parse_commit2_input(text, "c1.json");
  EXPECT_TRUE(back == input);
  EXPECT_EQ(commit2_input_to_json(back), text);
}

TEST(FilecoinCommit2Input, Rejections) {
  const Commit2Input input{7, sample(core::seal_proof("StackedDrg2KiBV1_1"))};
  OJson j = OJson::parse(commit2_input_to_json(input));
  j["SectorSize"] = 34359738368ull;
  try {
    parse_commit2_input(j.dump(), "c1.json");
    ADD_FAILURE() << "accepted";
  } catch (const C1OutputError& e) {
    EXPECT_EQ(e.json_path(), "SectorSize") << e.what();
    EXPECT_NE(std::string(e.what()).find("expected 2048 for StackedDrg2KiBV1_1, got 34359738368"), std::string::npos)
        << e.what();
  }

  j = OJson::parse(commit2_input_to_json(input));
  std::string b64 = j["Phase1Out"];
  j["Phase1Out"] = b64.substr(0, b64.size() - 1);
  try {
    parse_commit2_input(j.dump(), "c1.json");
    ADD_FAILURE() << "accepted";
  } catch (const C1OutputError& e) {
    EXPECT_EQ(e.json_path(), "Phase1Out") << e.what();
  }
  b64[10] = '*';
  j["Phase1Out"] = b64;
  try {
    parse_commit2_input(j.dump(), "c1.json");
    ADD_FAILURE() << "accepted";
  } catch (const C1OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("Phase1Out: not standard base64 with padding at character 10"),
              std::string::npos)
        << e.what();
  }

  // An error inside the decoded output names its path there.
  Commit2Input bad = input;
  bad.phase1_output.vanilla_proofs[0].pop_back();
  try {
    parse_commit2_input(commit2_input_to_json(bad), "c1.json");
    ADD_FAILURE() << "accepted";
  } catch (const C1OutputError& e) {
    EXPECT_EQ(e.source(), "c1.json Phase1Out");
    EXPECT_EQ(e.json_path(), "vanilla_proofs.StackedDrg2KiBV1[0]") << e.what();
  }

  j = OJson::parse(commit2_input_to_json(input));
  j.erase("SectorNum");
  try {
    parse_commit2_input(j.dump(), "c1.json");
    ADD_FAILURE() << "accepted";
  } catch (const C1OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("missing field \"SectorNum\""), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace zkpipe::filecoin::api
