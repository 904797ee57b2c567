// The proving layer's Filecoin PoRep on 2 KiB sectors sealed in memory: the C1 output
// read bare and inside lotus-bench's Commit2In, checked against its sector; the public
// inputs a verifier derives from the sector's values alone against those of the
// circuit made from the output, for interactive, synthetic and non-interactive
// challenges; and parameters of another circuit refused from their counts.
#include "proving/filecoin_porep.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "circuits/filecoin/api/c1_circuit.hpp"
#include "circuits/filecoin/api/commit2_input.hpp"
#include "circuits/filecoin/api/seal_commit1.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "formats/format_error.hpp"
#include "tiny_key.hpp"

namespace zkpipe::proving {
namespace {

using filecoin::core::PorepChallenges;
using filecoin::core::SealProof;

struct SealedFiles {
  filecoin::api::SectorValues values;
  filecoin::api::C1Output c1;
  std::string c1_json;
  std::string sector_json;
};

SealedFiles seal_2kib(const SealProof& proof, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto bytes = [&] {
    std::array<std::uint8_t, 32> out{};
    for (auto& b : out) b = static_cast<std::uint8_t>(rng());
    return out;
  };
  filecoin::api::SectorValues values;
  values.registered_proof = &proof;
  values.prover_id = bytes();
  values.sector_id = seed;
  values.ticket = bytes();
  values.seed = bytes();
  std::vector<filecoin::core::NodeBytes> data(proof.sector_bytes / filecoin::core::kNodeBytes);
  for (auto& node : data) node = filecoin::hashers::fr_to_domain(ff::Fr::random(rng));
  const filecoin::api::SealedSector sealed = filecoin::api::seal_sector(values, data);
  SealedFiles out{sealed.values, filecoin::api::seal_commit_phase1(sealed), {}, {}};
  out.c1_json = filecoin::api::c1_output_to_json(out.c1);
  out.sector_json = filecoin::api::sector_values_to_json(out.values);
  return out;
}

class FilecoinPorepChallenges : public ::testing::TestWithParam<const char*> {};

TEST_P(FilecoinPorepChallenges, VerifierInputsAreTheCircuitsForEveryPartition) {
  const SealProof& proof = filecoin::core::seal_proof(GetParam());
  const SealedFiles s = seal_2kib(proof, 7);
  const FilecoinPorepInstance instance = filecoin_porep_instance(s.c1_json, "c1.json", s.sector_json, "sector.json");
  EXPECT_EQ(instance.sector, s.values);
  const std::vector<std::vector<ff::Fr>> inputs = filecoin_porep_public_inputs(s.values);
  ASSERT_EQ(inputs.size(), proof.partitions());
  ASSERT_EQ(instance.circuit->partitions(), proof.partitions());
  for (std::size_t p = 0; p < proof.partitions(); ++p) {
    EXPECT_EQ(inputs[p], instance.circuit->public_inputs(p)) << "partition " << p;
    EXPECT_EQ(inputs[p].size(), 3 + 18 * proof.challenges_per_partition());
  }
  // Another seed draws other challenges: the inputs follow the sector's values.
  filecoin::api::SectorValues reseeded = s.values;
  reseeded.seed[0] ^= 1;
  if (proof.challenges != PorepChallenges::kNonInteractive) {
    EXPECT_NE(filecoin_porep_public_inputs(reseeded), inputs);
  }
}

INSTANTIATE_TEST_SUITE_P(FilecoinSealProofs, FilecoinPorepChallenges,
                         ::testing::Values("StackedDrg2KiBV1_1", "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
                                           "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"),
                         [](const auto& info) {
                           const SealProof& p = filecoin::core::seal_proof(info.param);
                           return p.challenges == PorepChallenges::kInteractive ? std::string("Interactive")
                                  : p.challenges == PorepChallenges::kSynthetic ? std::string("Synthetic")
                                                                                : std::string("NonInteractive");
                         });

TEST(FilecoinPorep, Commit2InWrapperGivesTheSameInstance) {
  const SealedFiles s = seal_2kib(filecoin::core::seal_proof("StackedDrg2KiBV1_1"), 11);
  const std::string wrapped = filecoin::api::commit2_input_to_json({s.values.sector_id, s.c1});
  const FilecoinPorepInstance bare = filecoin_porep_instance(s.c1_json, "c1.json", s.sector_json, "sector.json");
  const FilecoinPorepInstance lotus = filecoin_porep_instance(wrapped, "c1.json", s.sector_json, "sector.json");
  EXPECT_EQ(lotus.sector, bare.sector);
  EXPECT_EQ(lotus.circuit->name(), bare.circuit->name());
  EXPECT_EQ(lotus.circuit->public_inputs(0), bare.circuit->public_inputs(0));
}

TEST(FilecoinPorep, OutputOfAnotherSectorIsRefusedNamingFileAndField) {
  const SealProof& proof = filecoin::core::seal_proof("StackedDrg2KiBV1_1");
  const SealedFiles s = seal_2kib(proof, 13);
  const SealedFiles other = seal_2kib(proof, 14);
  const std::string wrapped = filecoin::api::commit2_input_to_json({1, s.c1});
  try {
    filecoin_porep_instance(wrapped, "in.json", other.sector_json, "sector.json");
    FAIL() << "another sector's C1 output accepted";
  } catch (const filecoin::api::C1OutputError& e) {
    EXPECT_EQ(e.source(), "in.json Phase1Out");
    EXPECT_NE(std::string(e.what()).find("in.json Phase1Out: "), std::string::npos) << e.what();
  }
  try {
    filecoin_porep_instance(s.c1_json, "c1.json", R"({"registered_proof": "StackedDrg2KiBV1_1"})", "sector.json");
    FAIL() << "an incomplete sector.json accepted";
  } catch (const filecoin::api::C1OutputError& e) {
    EXPECT_EQ(e.source(), "sector.json");
  }
}

TEST(FilecoinPorep, ReadingNamesAMissingFile) {
  testing::ScratchDir dir;
  EXPECT_THROW(read_filecoin_porep(dir.path() / "none.json", dir.path() / "sector.json"), std::runtime_error);
}

TEST(FilecoinPorep, RequirementsAndParamsOfAnotherCircuit) {
  const SealProof& proof = filecoin::core::seal_proof("StackedDrg2KiBV1_1");
  const formats::CircuitRequirements r = filecoin_porep_requirements(proof);
  // ONE, replica_id, comm_d, comm_r, then 18 leaf indexes per challenge.
  EXPECT_EQ(r.num_inputs(), 4 + 18 * proof.challenges_per_partition());
  EXPECT_EQ(r.density.b_aux.size(), r.num_aux());
  EXPECT_GT(r.num_constraints, r.num_aux() / 2);

  // A well-formed file with one point per query: refused for its counts, before a
  // point (all zero bytes here, which do not decode) is read.
  testing::ScratchDir dir;
  const auto path = dir.path() / "other.params";
  {
    std::ofstream out(path, std::ios::binary);
    auto zeros = [&](std::size_t n) { out << std::string(n, '\0'); };
    auto u32 = [&](std::uint32_t v) {
      for (int shift = 24; shift >= 0; shift -= 8) out.put(static_cast<char>(v >> shift));
    };
    zeros(3 * 96 + 3 * 192);
    u32(static_cast<std::uint32_t>(r.num_inputs()));
    zeros(r.num_inputs() * 96);
    for (int query = 0; query < 4; ++query) {
      u32(1);
      zeros(96);
    }
    u32(1);
    zeros(192);
  }
  try {
    read_filecoin_porep_key(path, proof);
    FAIL() << "parameters of another circuit accepted";
  } catch (const formats::FormatError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("StackedDrg2KiBV1_1"), std::string::npos) << what;
    EXPECT_NE(what.find("do not fit the circuit: L points"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace zkpipe::proving
