// Sector shapes and registered seal proofs against rust-fil-proofs
// filecoin-proofs/src/constants.rs (+ parameters.rs, types/porep_config.rs) and
// rust-filecoin-proofs-api src/registry.rs.
#include <gtest/gtest.h>

#include "circuits/filecoin/core/seal_proof.hpp"
#include "circuits/filecoin/core/sector_shape.hpp"
#include "circuits/filecoin_test_util.hpp"

namespace zkpipe::filecoin::core {
namespace {

using testing::hex_of;

struct ExpectedShape {
  std::uint64_t bytes;
  std::uint64_t nodes;
  std::size_t layers, base, sub, top;
  std::size_t partitions, per_partition;        // interactive and synthetic
  std::size_t ni_partitions, ni_per_partition;  // non-interactive
};

// constants.rs: LAYERS, POREP_PARTITIONS, SectorShape{2KiB,8MiB,512MiB} = Base (8,0,0),
// SectorShape32GiB = Sub8 (8,8,0), SectorShape64GiB = Top2 (8,8,2),
// get_porep_interactive_minimum_challenges (2 / 176), get_porep_non_interactive_partitions
// (13 / 126) and _minimum_challenges (26 / 2253); parameters.rs select_challenges takes
// ceil(minimum / partitions) per partition (≤ MAX_CHALLENGES_PER_PARTITION = 18).
constexpr ExpectedShape kExpected[] = {
    {2048, 64, 2, 8, 0, 0, 1, 2, 13, 2},
    {8ull << 20, 1ull << 18, 2, 8, 0, 0, 1, 2, 13, 2},
    {512ull << 20, 1ull << 24, 2, 8, 0, 0, 1, 2, 13, 2},
    {32ull << 30, 1ull << 30, 11, 8, 8, 0, 10, 18, 126, 18},
    {64ull << 30, 1ull << 31, 11, 8, 8, 2, 10, 18, 126, 18},
};

TEST(FilecoinSectorShape, PublishedSizes) {
  ASSERT_EQ(published_sector_shapes().size(), std::size(kExpected));
  for (const ExpectedShape& e : kExpected) {
    SCOPED_TRACE(e.bytes);
    const SectorShape& s = sector_shape(e.bytes);
    EXPECT_EQ(s.nodes(), e.nodes);
    EXPECT_EQ(s.layers, e.layers);
    EXPECT_EQ(s.base_arity, e.base);
    EXPECT_EQ(s.sub_arity, e.sub);
    EXPECT_EQ(s.top_arity, e.top);
    EXPECT_EQ(s.interactive_partitions, e.partitions);
    EXPECT_EQ(challenges_per_partition(s.interactive_min_challenges, s.interactive_partitions), e.per_partition);
    EXPECT_EQ(s.non_interactive_partitions, e.ni_partitions);
    EXPECT_EQ(challenges_per_partition(s.non_interactive_min_challenges, s.non_interactive_partitions),
              e.ni_per_partition);
    // The replica tree's leaves: nodes = 8^k · sub · top.
    std::uint64_t leaves_per_base = s.nodes() / std::max<std::size_t>(1, s.sub_arity) / std::max<std::size_t>(1, s.top_arity);
    while (leaves_per_base % 8 == 0) leaves_per_base /= 8;
    EXPECT_EQ(leaves_per_base, 1u);
  }
}

TEST(FilecoinSectorShape, UnknownSizeListsThePublishedOnes) {
  try {
    sector_shape(4096);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("4096"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("34359738368"), std::string::npos);
  }
  EXPECT_THROW(challenges_per_partition(2, 0), std::invalid_argument);
}

// One grammar for sector sizes everywhere they are read: the names in any case, a
// space before the unit, or bytes; the canonical name comes back for the published ones.
TEST(FilecoinSectorShape, SectorSizesAreReadOneWay) {
  EXPECT_EQ(parse_sector_size("32GiB"), 32ull << 30);
  EXPECT_EQ(parse_sector_size(" 32 gib "), 32ull << 30);
  EXPECT_EQ(parse_sector_size("2KIB"), 2048u);
  EXPECT_EQ(parse_sector_size("512MiB"), 512ull << 20);
  EXPECT_EQ(parse_sector_size("34359738368"), 32ull << 30);
  EXPECT_EQ(parse_sector_size("4096"), 4096u);  // read; sector_shape says it is not published
  for (const SectorShape& s : published_sector_shapes()) {
    EXPECT_EQ(parse_sector_size(sector_size_name(s.sector_bytes)), s.sector_bytes);
  }
  for (const char* bad : {"", "0", "32GB", "32 G", "GiB", "-2KiB", "32GiBs", "99999999999GiB"}) {
    try {
      parse_sector_size(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("expected 2KiB, 8MiB, 512MiB, 32GiB, 64GiB or a number of bytes"),
                std::string::npos)
          << e.what();
    }
  }
}

// registry.rs REGISTERED_PROOF_IDS, version() and as_v1_config(): ids 0..4 are V1 (API
// 1.0.0), 5..9 V1_1 (1.1.0), 10..14 the synthetic variants (1.2.0 despite their names),
// 15..19 non-interactive (1.2.0); each size cycles 2KiB, 8MiB, 512MiB, 32GiB, 64GiB.
TEST(FilecoinSealProof, RegistryTable) {
  ASSERT_EQ(seal_proofs().size(), 20u);
  const std::uint64_t sizes[] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
  for (const SealProof& p : seal_proofs()) {
    SCOPED_TRACE(p.name);
    EXPECT_EQ(&seal_proof(p.registered_id), &p);
    EXPECT_EQ(&seal_proof(p.name), &p);
    EXPECT_EQ(p.sector_bytes, sizes[p.registered_id % 5]);
    const std::size_t group = p.registered_id / 5;
    EXPECT_EQ(p.api_version, group == 0 ? ApiVersion::k1_0_0 : group == 1 ? ApiVersion::k1_1_0 : ApiVersion::k1_2_0);
    EXPECT_EQ(p.challenges, group == 2   ? PorepChallenges::kSynthetic
                            : group == 3 ? PorepChallenges::kNonInteractive
                                         : PorepChallenges::kInteractive);
  }
  EXPECT_EQ(seal_proof("StackedDrg32GiBV1_1").registered_id, 8u);
  EXPECT_EQ(seal_proof("StackedDrg32GiBV1_1_Feat_SyntheticPoRep").registered_id, 13u);
  EXPECT_EQ(seal_proof("StackedDrg64GiBV1_2_Feat_NonInteractivePoRep").registered_id, 19u);
}

TEST(FilecoinSealProof, PartitionsAndChallenges) {
  const SealProof& v11 = seal_proof("StackedDrg32GiBV1_1");
  EXPECT_EQ(v11.partitions(), 10u);
  EXPECT_EQ(v11.challenges_per_partition(), 18u);
  const SealProof& synth = seal_proof("StackedDrg32GiBV1_1_Feat_SyntheticPoRep");
  EXPECT_EQ(synth.partitions(), 10u);
  EXPECT_EQ(synth.challenges_per_partition(), 18u);
  const SealProof& ni = seal_proof("StackedDrg32GiBV1_2_Feat_NonInteractivePoRep");
  EXPECT_EQ(ni.partitions(), 126u);
  EXPECT_EQ(ni.challenges_per_partition(), 18u);
  const SealProof& small_ni = seal_proof("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep");
  EXPECT_EQ(small_ni.partitions(), 13u);
  EXPECT_EQ(small_ni.challenges_per_partition(), 2u);
  EXPECT_EQ(seal_proof("StackedDrg2KiBV1_1").partitions(), 1u);
}

// registry.rs porep_id(): id as u64 little-endian, the nonce (0 for all) likewise, then zeros.
TEST(FilecoinSealProof, PorepIdBytes) {
  EXPECT_EQ(hex_of(seal_proof("StackedDrg32GiBV1_1").porep_id()),
            "0800000000000000000000000000000000000000000000000000000000000000");
  EXPECT_EQ(hex_of(seal_proof("StackedDrg64GiBV1_2_Feat_NonInteractivePoRep").porep_id()),
            "1300000000000000000000000000000000000000000000000000000000000000");
  EXPECT_EQ(hex_of(make_porep_id(0x0102, 0x0304)),
            "0201000000000000040300000000000000000000000000000000000000000000");
}

TEST(FilecoinSealProof, UnknownProofsAreNamed) {
  EXPECT_THROW(seal_proof(20), std::invalid_argument);
  try {
    seal_proof("StackedDrg16GiBV1");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("StackedDrg16GiBV1"), std::string::npos);
  }
}

}  // namespace
}  // namespace zkpipe::filecoin::core
