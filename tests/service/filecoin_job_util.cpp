#include "filecoin_job_util.hpp"

#include <array>
#include <fstream>
#include <random>
#include <stdexcept>
#include <vector>

#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/api/post_vanilla.hpp"
#include "circuits/filecoin/api/seal_commit1.hpp"
#include "circuits/filecoin/api/update_vanilla.hpp"
#include "circuits/filecoin/api/vanilla_proofs.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/synthetic/synthetic_post.hpp"
#include "circuits/filecoin/synthetic/synthetic_update.hpp"
#include "ec/generators.hpp"
#include "ec/scalar_mul.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/bellperson_vk.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"

namespace zkpipe::service::testing {

FilecoinDocuments seal_2kib(std::uint64_t seed, std::optional<filecoin::api::ProverId> prover_id,
                            std::optional<std::uint64_t> sector_id) {
  const filecoin::core::SealProof& proof = filecoin::core::seal_proof("StackedDrg2KiBV1_1");
  std::mt19937_64 rng(seed);
  auto random_bytes = [&] {
    std::array<std::uint8_t, 32> out{};
    for (auto& b : out) b = static_cast<std::uint8_t>(rng());
    return out;
  };
  filecoin::api::SectorValues values;
  values.registered_proof = &proof;
  values.prover_id = random_bytes();
  values.sector_id = rng() % 1000;
  values.ticket = random_bytes();
  values.seed = random_bytes();
  if (prover_id) values.prover_id = *prover_id;
  if (sector_id) values.sector_id = *sector_id;
  std::vector<filecoin::core::NodeBytes> data(proof.shape().nodes());
  for (auto& node : data) node = filecoin::hashers::fr_to_domain(ff::Fr::random(rng));
  const filecoin::api::SealedSector sealed = filecoin::api::seal_sector(values, data);
  return {sealed.values, filecoin::api::c1_output_to_json(filecoin::api::seal_commit_phase1(sealed)),
          filecoin::api::sector_values_to_json(sealed.values)};
}

const FilecoinDocuments& sealed_2kib() {
  static const FilecoinDocuments documents = seal_2kib(2048);
  return documents;
}

groth16::VerifyingKey arbitrary_vk(std::size_t ic_points) {
  auto g1 = [](std::uint64_t k) {
    return ec::mul_double_and_add(ec::Jacobian<ec::G1Curve>::from_affine(ec::kG1Generator), ff::Limbs<1>{k})
        .to_affine();
  };
  auto g2 = [](std::uint64_t k) {
    return ec::mul_double_and_add(ec::Jacobian<ec::G2Curve>::from_affine(ec::kG2Generator), ff::Limbs<1>{k})
        .to_affine();
  };
  groth16::VerifyingKey vk{g1(2), g1(3), g2(3), g2(5), g1(7), g2(7), {}};
  for (std::size_t i = 0; i < ic_points; ++i) vk.ic.push_back(g1(11 + i));
  return vk;
}

void write_params_without_queries(const std::filesystem::path& path, std::size_t ic_points) {
  const std::vector<std::uint8_t> vk = formats::encode_bellperson_vk(arbitrary_vk(ic_points));
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(vk.data()), static_cast<std::streamsize>(vk.size()));
  // Five u32 counts of zero: H, L, A, B₁, B₂.
  const std::array<char, 20> empty_queries{};
  out.write(empty_queries.data(), empty_queries.size());
  if (!out.flush()) throw std::runtime_error(path.string() + ": cannot write");
}

void write_params_head(const std::filesystem::path& path, std::size_t ic_points) {
  formats::write_bellperson_vk(path, arbitrary_vk(ic_points));
}

v1::SubmitProofRequest filecoin_request(const FilecoinDocuments& documents, const std::filesystem::path& params) {
  v1::SubmitProofRequest r;
  r.mutable_filecoin_porep()->set_c1_json(documents.c1_json);
  r.mutable_filecoin_porep()->set_sector_json(documents.sector_json);
  r.mutable_filecoin_porep()->set_parameter_file(params.string());
  return r;
}

const filecoin::post::PostProof& window_2kib() {
  static const filecoin::post::PostProof proof = filecoin::post::post_proof(filecoin::post::PostKind::kWindow, 2048);
  return proof;
}

const filecoin::post::PostProof& winning_2kib() {
  static const filecoin::post::PostProof proof = filecoin::post::post_proof(filecoin::post::PostKind::kWinning, 2048);
  return proof;
}

namespace {

PostPartitionInput post_partition(const filecoin::post::PostProof& proof, const std::string& registered,
                                  std::uint64_t seed, const std::filesystem::path& key) {
  filecoin::post::FallbackPostCircuit circuit = filecoin::synthetic::synthetic_post(proof, seed, 1);
  const filecoin::synthetic::SyntheticPostDraws draws = filecoin::synthetic::synthetic_post_draws(proof, seed, 1);
  v1::FilecoinPostJob job;
  job.set_registered_proof(registered);
  job.set_randomness(std::string(draws.randomness.begin(), draws.randomness.end()));
  for (const auto& vanilla : filecoin::api::post_vanilla_proofs(proof, circuit.assignments()[0], draws.sector_ids)) {
    const std::vector<std::uint8_t> blob = filecoin::api::post_vanilla_proof_bytes(vanilla);
    job.add_vanilla_proofs(std::string(blob.begin(), blob.end()));
  }
  job.set_parameter_file(key.string());
  return {std::move(circuit), std::move(job)};
}

}  // namespace

PostPartitionInput window_partition(std::uint64_t seed, const std::filesystem::path& key) {
  return post_partition(window_2kib(), "StackedDrgWindow2KiBV1_2", seed, key);
}

PostPartitionInput winning_partition(std::uint64_t seed, const std::filesystem::path& key) {
  return post_partition(winning_2kib(), "StackedDrgWinning2KiBV1", seed, key);
}

const filecoin::update::UpdateShape& update_shape_2kib() {
  static const filecoin::update::UpdateShape shape = filecoin::update::update_shape(
      2048 / 32, filecoin::core::sector_tree_shape(2048), filecoin::update::UpdateHash::kSha256);
  return shape;
}

UpdateInput update_2kib(std::uint64_t seed, const std::filesystem::path& key) {
  // 32 bytes, little-endian, as the requests carry a commitment.
  auto le_bytes = [](const ff::Fr& value) {
    const filecoin::hashers::Sha256Domain bytes = filecoin::hashers::fr_to_domain(value);
    return std::string(bytes.begin(), bytes.end());
  };
  filecoin::synthetic::SyntheticUpdate update =
      filecoin::synthetic::synthetic_update(update_shape_2kib(), seed, filecoin::api::kDefaultUpdateHIndex);
  v1::FilecoinUpdateJob job;
  job.set_registered_proof("StackedDrg2KiBV1");
  const filecoin::update::UpdatePartition& first = update.partitions.front();
  job.set_comm_r_old(le_bytes(first.comm_r_old));
  job.set_comm_r_new(le_bytes(first.comm_r_new));
  job.set_comm_d_new(le_bytes(first.comm_d_new));
  for (const filecoin::update::UpdatePartition& p : update.partitions) {
    const std::vector<std::uint8_t> blob =
        filecoin::api::update_vanilla_proof_bytes(filecoin::api::update_vanilla_proof(update_shape_2kib(), p));
    job.add_vanilla_proofs(std::string(blob.begin(), blob.end()));
  }
  job.set_parameter_file(key.string());
  return {filecoin::update::EmptySectorUpdateCircuit("filecoin-snapdeals/2KiB", update_shape_2kib(),
                                                     std::move(update.partitions)),
          std::move(job)};
}

void write_update_key_2kib(const std::filesystem::path& path, std::uint64_t toxic_seed) {
  const filecoin::update::EmptySectorUpdateCircuit blank(
      "filecoin-snapdeals/2KiB", update_shape_2kib(),
      std::vector<filecoin::update::UpdatePartition>{filecoin::update::blank_update_partition(update_shape_2kib())});
  groth16::write_parameter_file(
      path, groth16::setup(groth16::record_matrices(blank), groth16::ToxicWaste::from_seed(toxic_seed)));
}

}  // namespace zkpipe::service::testing
