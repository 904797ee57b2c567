// The SDR graph (bucket-sampled DRG base parents, Feistel expander parents).
// Bit-exactness: the parent cache manifest of rust-fil-proofs
// (storage-proofs-porep/parent_cache.json) records the SHA-256 of the whole parent cache
// (every node's 6 base then 8 expander parents, u32 little-endian) for the production
// graphs; the cache's name is derived from the graph's identifier and Feistel keys
// (storage-proofs-porep/src/stacked/vanilla/cache.rs, cache_path). The label vectors in
// filecoin_sdr_labels_test.cpp check the graph again through the labels.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "circuits/filecoin/porep/feistel.hpp"
#include "circuits/filecoin/porep/sdr_graph.hpp"
#include "circuits/filecoin_test_util.hpp"
#include "hash/sha256.hpp"

namespace zkpipe::filecoin::porep {
namespace {

using testing::hex_of;

struct ManifestEntry {
  std::string_view cache_id;
  std::uint64_t sector_bytes;
  std::string_view digest;
};

// storage-proofs-porep/parent_cache.json (rust-fil-proofs, parameter cache VERSION 28).
constexpr ManifestEntry kParentCacheManifest[] = {
    {"v28-sdr-parent-21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117", 34359738368,
     "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da"},
    {"v28-sdr-parent-2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42", 536870912,
     "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"},
    {"v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899", 2048,
     "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
    {"v28-sdr-parent-4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b", 68719476736,
     "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03"},
    {"v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b", 2048,
     "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
    {"v28-sdr-parent-5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5", 8388608,
     "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
    {"v28-sdr-parent-7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34", 536870912,
     "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"},
    {"v28-sdr-parent-8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6", 68719476736,
     "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c"},
    {"v28-sdr-parent-dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc", 8388608,
     "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
    {"v28-sdr-parent-e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13", 34359738368,
     "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6"},
};

void append_le(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes) {
  for (int b = 0; b < bytes; ++b) out.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
}

// cache.rs cache_path: SHA-256 of the tree hasher's name (Poseidon for every published
// proof), the StackedGraph identifier string, the four Feistel keys (u64 LE) and the
// entry count (u32 LE).
std::string cache_id(const SdrGraph& graph) {
  const std::string identifier =
      "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: " +
      std::to_string(graph.nodes()) + "; degree: 6; hasher: poseidon_hasher} }";
  std::vector<std::uint8_t> message;
  for (char c : std::string("poseidon_hasher") + identifier) message.push_back(static_cast<std::uint8_t>(c));
  for (std::uint64_t key : graph.feistel_keys()) append_le(message, key, 8);
  append_le(message, graph.nodes(), 4);
  return "v28-sdr-parent-" + hex_of(hash::sha256::hash(message));
}

std::string parent_cache_digest(const SdrGraph& graph) {
  std::vector<std::uint8_t> cache;
  cache.reserve(graph.nodes() * kDegree * 4);
  for (std::uint64_t node = 0; node < graph.nodes(); ++node) {
    for (std::uint32_t parent : graph.parents(node)) append_le(cache, parent, 4);
  }
  return hex_of(hash::sha256::hash(cache));
}

void expect_matches_manifest(const core::SealProof& proof) {
  SCOPED_TRACE(proof.name);
  const SdrGraph graph(proof.shape().nodes(), proof.porep_id(), proof.api_version);
  const std::string id = cache_id(graph);
  const auto entry = std::find_if(std::begin(kParentCacheManifest), std::end(kParentCacheManifest),
                                  [&](const ManifestEntry& e) { return e.cache_id == id; });
  ASSERT_NE(entry, std::end(kParentCacheManifest)) << id << " is not in the manifest";
  EXPECT_EQ(entry->sector_bytes, proof.sector_bytes);
  EXPECT_EQ(parent_cache_digest(graph), entry->digest);
}

// The manifest holds the V1 (API 1.0.0) and V1_1 (1.1.0) graphs of each size; API 1.2.0
// builds the 1.1.0 graph (only the porep_id differs).
TEST(FilecoinSdrGraph, ParentCacheOf2KiBMatchesTheManifest) {
  expect_matches_manifest(core::seal_proof("StackedDrg2KiBV1"));
  expect_matches_manifest(core::seal_proof("StackedDrg2KiBV1_1"));
}

// 2^18 nodes, with more buckets and Feistel cycle walking than 2 KiB exercises (a few
// seconds; the legacy 8 MiB graph differs from 2 KiB's only in size, so one suffices).
TEST(FilecoinSdrGraph, ParentCacheOf8MiBMatchesTheManifest) {
  expect_matches_manifest(core::seal_proof("StackedDrg8MiBV1_1"));
}

// The larger graphs' names (which also pin their Feistel keys) are in the manifest; their
// digests take minutes to recompute and are left to a slower check.
TEST(FilecoinSdrGraph, ProductionGraphNamesAreInTheManifest) {
  for (const char* name : {"StackedDrg512MiBV1", "StackedDrg512MiBV1_1", "StackedDrg32GiBV1", "StackedDrg32GiBV1_1",
                           "StackedDrg64GiBV1", "StackedDrg64GiBV1_1"}) {
    const core::SealProof& proof = core::seal_proof(name);
    const std::string id = cache_id(SdrGraph(proof.shape().nodes(), proof.porep_id(), proof.api_version));
    const bool found = std::any_of(std::begin(kParentCacheManifest), std::end(kParentCacheManifest),
                                   [&](const ManifestEntry& e) { return e.cache_id == id && e.sector_bytes == proof.sector_bytes; });
    EXPECT_TRUE(found) << name << ": " << id;
  }
}

core::PorepId porep_id_of(std::uint8_t first) {
  core::PorepId id{};
  id[0] = first;
  return id;
}

// drgraph.rs graph_bucket: nodes 0 and 1 have only node 0; the immediate predecessor is
// the last base parent in 1.0.0 and the first from 1.1.0 on; no node is its own parent.
// Also (from the construction): every base parent precedes its node.
TEST(FilecoinSdrGraph, BaseParentsStructure) {
  for (core::ApiVersion version : {core::ApiVersion::k1_0_0, core::ApiVersion::k1_1_0, core::ApiVersion::k1_2_0}) {
    for (std::uint64_t nodes : {4u, 16u, 256u, 2048u}) {
      const SdrGraph graph(nodes, porep_id_of(version == core::ApiVersion::k1_0_0 ? 0 : 5), version);
      EXPECT_EQ(graph.base_parents(0), BaseParents{});
      EXPECT_EQ(graph.base_parents(1), BaseParents{});
      for (std::uint64_t node = 2; node < nodes; ++node) {
        const BaseParents p = graph.base_parents(node);
        EXPECT_EQ(p, graph.base_parents(node));
        EXPECT_EQ(p[version == core::ApiVersion::k1_0_0 ? kBaseDegree - 1 : 0], node - 1);
        for (std::uint32_t parent : p) EXPECT_LT(parent, node);
      }
    }
  }
}

TEST(FilecoinSdrGraph, PorepIdChangesBothParentSets) {
  const SdrGraph a(1024, porep_id_of(5), core::ApiVersion::k1_1_0);
  const SdrGraph b(1024, porep_id_of(6), core::ApiVersion::k1_1_0);
  std::size_t base_differs = 0;
  std::size_t expander_differs = 0;
  for (std::uint64_t node = 2; node < 1024; ++node) {
    base_differs += a.base_parents(node) != b.base_parents(node);
    expander_differs += a.expander_parents(node) != b.expander_parents(node);
  }
  EXPECT_GT(base_differs, 900u);
  EXPECT_GT(expander_differs, 1000u);
}

// graph.rs test_shuffle / feistel.rs: over n·8 indexes the Feistel permutation (keys
// 1,2,3,4) hits every value once; invert undoes permute, also for sizes that are not
// powers of 4 (BAD_NS) where cycle walking is needed.
TEST(FilecoinFeistel, IsAPermutationWithItsInverse) {
  const FeistelKeys keys = {1, 2, 3, 4};
  for (std::uint64_t n : {4ull, 16ull, 64ull, 256ull, 5ull, 6ull, 8ull, 12ull, 17ull, 1024ull * 8}) {
    SCOPED_TRACE(n);
    const FeistelPermutation perm(n, keys);
    std::vector<bool> hit(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t p = perm.permute(i);
      ASSERT_LT(p, n);
      EXPECT_FALSE(hit[p]);
      hit[p] = true;
      EXPECT_EQ(perm.invert(p), i);
    }
  }
}

// feistel.rs precompute: the smallest h ≥ 1 with 4^h ≥ n. 32 GiB: 2^33 expander indexes
// → h = 17; 64 GiB: 2^34 → h = 17.
TEST(FilecoinFeistel, HalfWidths) {
  const FeistelKeys keys{};
  EXPECT_EQ(FeistelPermutation(1, keys).half_bits(), 1u);
  EXPECT_EQ(FeistelPermutation(4, keys).half_bits(), 1u);
  EXPECT_EQ(FeistelPermutation(5, keys).half_bits(), 2u);
  EXPECT_EQ(FeistelPermutation(512, keys).half_bits(), 5u);
  EXPECT_EQ(FeistelPermutation(std::uint64_t{1} << 33, keys).half_bits(), 17u);
  EXPECT_EQ(FeistelPermutation(std::uint64_t{1} << 34, keys).half_bits(), 17u);
  EXPECT_THROW(FeistelPermutation(0, keys), std::invalid_argument);
  EXPECT_THROW(FeistelPermutation(16, keys).permute(16), std::out_of_range);
}

// graph.rs test_high_parent_bits: a 64 GiB graph (2^31 nodes, porep_id 5 as u64 LE, API
// 1.2.0) gives some node among the first three an expander parent ≥ 2^29, which 32-bit
// truncation would make impossible.
TEST(FilecoinSdrGraph, ExpanderParentsKeepTheirHighBits) {
  core::PorepId id{};
  id[0] = 5;
  const SdrGraph graph(std::uint64_t{1} << 31, id, core::ApiVersion::k1_2_0);
  bool high = false;
  for (std::uint64_t node = 0; node < 3 && !high; ++node) {
    for (std::uint32_t parent : graph.expander_parents(node)) high = high || parent >= (1u << 29);
  }
  EXPECT_TRUE(high);
}

// graph.rs test_graph_distribution_pathology: the 1.0.0 graphs of 32/64 GiB (porep_id
// [3,0..] / [4,0..]) never draw an expander parent from the second half of the layer in
// the first 1000 nodes; the 1.1.0 ones ([8,0..] / [9,0..]) do.
TEST(FilecoinSdrGraph, LegacyExpanderPathology) {
  struct Case {
    std::uint8_t id;
    std::uint64_t nodes;
    core::ApiVersion version;
    bool pathological;
  };
  for (const Case& c :
       {Case{3, 1ull << 30, core::ApiVersion::k1_0_0, true}, Case{4, 1ull << 31, core::ApiVersion::k1_0_0, true},
        Case{8, 1ull << 30, core::ApiVersion::k1_1_0, false}, Case{9, 1ull << 31, core::ApiVersion::k1_2_0, false}}) {
    SCOPED_TRACE(static_cast<int>(c.id));
    const SdrGraph graph(c.nodes, porep_id_of(c.id), c.version);
    bool upper_half = false;
    for (std::uint64_t node = 0; node < 1000 && !upper_half; ++node) {
      for (std::uint32_t parent : graph.expander_parents(node)) upper_half = upper_half || parent >= c.nodes / 2;
    }
    EXPECT_EQ(upper_half, !c.pathological);
  }
}

TEST(FilecoinSdrGraph, RejectsBadSizesAndNodes) {
  EXPECT_THROW(SdrGraph(0, core::PorepId{}, core::ApiVersion::k1_1_0), std::invalid_argument);
  EXPECT_THROW(SdrGraph(std::uint64_t{1} << 32, core::PorepId{}, core::ApiVersion::k1_1_0), std::invalid_argument);
  const SdrGraph graph(64, core::PorepId{}, core::ApiVersion::k1_1_0);
  EXPECT_THROW(graph.base_parents(64), std::out_of_range);
  EXPECT_THROW(graph.expander_parents(64), std::out_of_range);
}

}  // namespace
}  // namespace zkpipe::filecoin::porep
