// SDR labels, the replica id and the encoding.
#include <gtest/gtest.h>

#include "circuits/filecoin/porep/encoding.hpp"
#include "circuits/filecoin/porep/labels.hpp"
#include "circuits/filecoin/porep/replica_id.hpp"
#include "circuits/filecoin_test_util.hpp"
#include "hash/sha256.hpp"

namespace zkpipe::filecoin::porep {
namespace {

using core::ApiVersion;
using testing::filled;
using testing::hex_of;
using testing::le_bytes_of_limbs;

struct LabelVector {
  std::uint64_t nodes;
  std::uint8_t porep_id_byte;
  ApiVersion version;
  std::array<std::uint64_t, 4> last_label;  // u64 limbs, least significant first
};

// storage-proofs-porep/tests/stacked_vanilla.rs test_stacked_porep_generate_labels (the
// same values in src/stacked/vanilla/create_label/multi.rs test_create_labels): 11
// layers, replica_id [9; 32], porep_id [0; 32] (1.0.0) or [123; 32] (1.1.0 and 1.2.0),
// graphs of 2^11/32 = 64 and 2^12/32 = 128 nodes; the last label of the last layer.
const LabelVector kLabelVectors[] = {
    {64, 0, ApiVersion::k1_0_0, {0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37}},
    {128, 0, ApiVersion::k1_0_0, {0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8, 0x234c00d1dc1d53be}},
    {64, 123, ApiVersion::k1_1_0, {0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5}},
    {128, 123, ApiVersion::k1_1_0, {0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd}},
    {64, 123, ApiVersion::k1_2_0, {0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5}},
    {128, 123, ApiVersion::k1_2_0, {0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd}},
};

TEST(FilecoinSdrLabels, ReferenceLastLabels) {
  for (const LabelVector& v : kLabelVectors) {
    SCOPED_TRACE(::testing::Message() << v.nodes << " nodes, porep_id byte " << int{v.porep_id_byte});
    const SdrGraph graph(v.nodes, filled(v.porep_id_byte), v.version);
    const std::vector<LabelLayer> labels = generate_labels(graph, filled(9), 11);
    ASSERT_EQ(labels.size(), 11u);
    EXPECT_EQ(hex_of(labels.back().back()), hex_of(le_bytes_of_limbs(v.last_label)));
  }
}

// Node 0 hashes the 64-byte prefix alone: replica_id ‖ layer (u32 BE) ‖ node (u64 BE) ‖ zeros.
TEST(FilecoinSdrLabels, NodeZeroHashesThePrefixOnly) {
  const ReplicaId id = filled(7);
  std::vector<std::uint8_t> prefix(id.begin(), id.end());
  prefix.resize(64);
  prefix[35] = 3;  // layer 3, big-endian
  core::NodeBytes expected = hash::sha256::hash(prefix);
  expected[31] &= 0x3f;
  EXPECT_EQ(label(id, 3, 0, {}), expected);
}

TEST(FilecoinSdrLabels, LabelsFitIn254Bits) {
  const SdrGraph graph(64, filled(123), ApiVersion::k1_1_0);
  for (const LabelLayer& layer : generate_labels(graph, filled(9), 2)) {
    for (const core::NodeBytes& l : layer) EXPECT_LT(l[31], 0x40);
  }
}

// The parent labels parent_labels() gathers reproduce the stored label (a labeling proof).
TEST(FilecoinSdrLabels, LabelingProofRecomputesTheLabel) {
  const SdrGraph graph(128, filled(123), ApiVersion::k1_1_0);
  const ReplicaId id = filled(9);
  const std::vector<LabelLayer> labels = generate_labels(graph, id, 3);
  for (std::uint32_t layer = 1; layer <= 3; ++layer) {
    for (std::uint64_t node : {0u, 1u, 2u, 77u, 127u}) {
      const std::vector<core::NodeBytes> parents = parent_labels(graph, labels, layer, node);
      EXPECT_EQ(parents.size(), node == 0 ? 0u : layer == 1 ? kBaseDegree : kDegree);
      EXPECT_EQ(label(id, layer, node, parents), labels[layer - 1][node]);
    }
  }
}

TEST(FilecoinSdrLabels, RejectsWrongParentsAndLayers) {
  const ReplicaId id{};
  const std::vector<core::NodeBytes> six(6);
  const std::vector<core::NodeBytes> fourteen(14);
  EXPECT_THROW(label(id, 0, 1, six), std::invalid_argument);
  EXPECT_THROW(label(id, 1, 1, fourteen), std::invalid_argument);
  EXPECT_THROW(label(id, 2, 1, six), std::invalid_argument);
  EXPECT_THROW(label(id, 1, 0, six), std::invalid_argument);
  const SdrGraph graph(16, core::PorepId{}, ApiVersion::k1_1_0);
  const std::vector<LabelLayer> labels = generate_labels(graph, id, 2);
  EXPECT_THROW(parent_labels(graph, labels, 3, 5), std::out_of_range);
  EXPECT_THROW(generate_labels(graph, id, 0), std::invalid_argument);
}

// params.rs generate_replica_id: SHA-256(prover_id ‖ sector_id u64 BE ‖ ticket ‖ comm_d ‖
// porep_id), top two bits cleared. No published vector: this checks the layout only.
TEST(FilecoinReplicaId, LayoutAndTruncation) {
  const auto prover = filled(1);
  const auto ticket = filled(2);
  const core::NodeBytes comm_d = filled(3);
  const core::PorepId porep = core::seal_proof("StackedDrg2KiBV1_1").porep_id();
  std::vector<std::uint8_t> message(prover.begin(), prover.end());
  for (std::uint8_t b : {0, 0, 0, 0, 0, 0, 0x01, 0x02}) message.push_back(b);
  message.insert(message.end(), ticket.begin(), ticket.end());
  message.insert(message.end(), comm_d.begin(), comm_d.end());
  message.insert(message.end(), porep.begin(), porep.end());
  core::NodeBytes expected = hash::sha256::hash(message);
  expected[31] &= 0x3f;
  EXPECT_EQ(replica_id(prover, 0x0102, ticket, comm_d, porep), expected);
  EXPECT_NE(replica_id(prover, 0x0201, ticket, comm_d, porep), expected);
}

core::NodeBytes node_of(std::uint64_t v) {
  core::NodeBytes out{};
  for (int b = 0; b < 8; ++b) out[b] = static_cast<std::uint8_t>(v >> (8 * b));
  return out;
}

// Fr modulus r, little-endian.
core::NodeBytes modulus_bytes() {
  return le_bytes_of_limbs({0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48});
}

TEST(FilecoinEncoding, AddsTheKeyInFr) {
  EXPECT_EQ(encode(node_of(5), node_of(7)), node_of(12));
  EXPECT_EQ(decode(node_of(5), node_of(12)), node_of(7));
  // (r − 1) + 2 wraps to 1.
  core::NodeBytes r_minus_1 = modulus_bytes();
  r_minus_1[0] -= 1;
  EXPECT_EQ(encode(r_minus_1, node_of(2)), node_of(1));
  EXPECT_EQ(decode(r_minus_1, node_of(1)), node_of(2));
}

TEST(FilecoinEncoding, RejectsNonCanonicalOperands) {
  try {
    encode(node_of(1), modulus_bytes());
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("data"), std::string::npos);
  }
  EXPECT_THROW(decode(modulus_bytes(), node_of(1)), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::filecoin::porep
