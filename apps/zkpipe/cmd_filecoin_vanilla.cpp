// zkpipe filecoin vanilla: a small sector's vanilla proofs as filecoin-proofs-api writes
// them (bincode), for trying the daemon's PoSt and SnapDeals jobs without a storage
// provider's sectors: a Window or Winning PoSt partition of synthetic sectors, or a
// SnapDeals update of a sector held in memory. Writes vanilla-<k>.bin and job.json (the
// registered proof, the randomness or the three commitments, the files in order) and
// prints the `zkpipe client submit` options that send them.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "circuits/filecoin/api/post_vanilla.hpp"
#include "circuits/filecoin/api/update_vanilla.hpp"
#include "circuits/filecoin/api/vanilla_proofs.hpp"
#include "circuits/filecoin/core/hex_bytes.hpp"
#include "circuits/filecoin/core/sector_shape.hpp"
#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/synthetic/synthetic_post.hpp"
#include "circuits/filecoin/synthetic/synthetic_update.hpp"
#include "commands.hpp"
#include "io/atomic_file.hpp"
#include "seal_proof_args.hpp"

namespace zkpipe::cli {

namespace {

struct VanillaOptions {
  std::string kind;
  std::string sector_size;
  std::uint64_t seed = 1;
  std::string out_dir;
};

// 32 bytes, little-endian: how the requests carry a commitment.
std::string le_hex(const ff::Fr& value) { return filecoin::core::hex_of(filecoin::hashers::fr_to_domain(value)); }

// The blobs as vanilla-<k>.bin in order; their names for job.json.
nlohmann::json write_blobs(const std::filesystem::path& dir, const std::vector<std::vector<std::uint8_t>>& blobs) {
  nlohmann::json names = nlohmann::json::array();
  for (std::size_t k = 0; k < blobs.size(); ++k) {
    const std::string name = "vanilla-" + std::to_string(k) + ".bin";
    io::write_file_atomically(dir / name, std::string(blobs[k].begin(), blobs[k].end()));
    names.push_back(name);
  }
  return names;
}

nlohmann::json post_job(const VanillaOptions& o, std::uint64_t sector_bytes, const std::filesystem::path& dir) {
  const bool window = o.kind == "window-post";
  const filecoin::post::PostProof proof = filecoin::post::post_proof(
      window ? filecoin::post::PostKind::kWindow : filecoin::post::PostKind::kWinning, sector_bytes);
  // One partition, numbered as API 1.2 numbers a Window PoSt's challenges (Winning's as 1.0).
  const filecoin::post::FallbackPostCircuit circuit = filecoin::synthetic::synthetic_post(proof, o.seed, 1);
  const filecoin::synthetic::SyntheticPostDraws draws = filecoin::synthetic::synthetic_post_draws(proof, o.seed, 1);
  std::vector<std::vector<std::uint8_t>> blobs;
  for (const auto& p : filecoin::api::post_vanilla_proofs(proof, circuit.assignments()[0], draws.sector_ids)) {
    blobs.push_back(filecoin::api::post_vanilla_proof_bytes(p));
  }
  const std::string size = filecoin::core::sector_size_name(sector_bytes);
  nlohmann::json job;
  job["registered_proof"] = window ? "StackedDrgWindow" + size + "V1_2" : "StackedDrgWinning" + size + "V1";
  job["randomness"] = filecoin::core::hex_of(draws.randomness);
  job["partition_index"] = 0;
  job["vanilla_proofs"] = write_blobs(dir, blobs);
  return job;
}

nlohmann::json update_job(const VanillaOptions& o, std::uint64_t sector_bytes, const std::filesystem::path& dir) {
  const filecoin::update::UpdateShape shape = filecoin::update::update_shape(
      sector_bytes / 32, filecoin::core::sector_tree_shape(sector_bytes), filecoin::update::UpdateHash::kSha256);
  const filecoin::synthetic::SyntheticUpdate update =
      filecoin::synthetic::synthetic_update(shape, o.seed, filecoin::api::kDefaultUpdateHIndex);
  std::vector<std::vector<std::uint8_t>> blobs;
  for (const filecoin::update::UpdatePartition& p : update.partitions) {
    blobs.push_back(filecoin::api::update_vanilla_proof_bytes(filecoin::api::update_vanilla_proof(shape, p)));
  }
  const filecoin::update::UpdatePartition& first = update.partitions.front();
  nlohmann::json job;
  job["registered_proof"] = "StackedDrg" + filecoin::core::sector_size_name(sector_bytes) + "V1";
  job["comm_r_old"] = le_hex(first.comm_r_old);
  job["comm_r_new"] = le_hex(first.comm_r_new);
  job["comm_d_new"] = le_hex(first.comm_d_new);
  job["vanilla_proofs"] = write_blobs(dir, blobs);
  return job;
}

void run_vanilla(const VanillaOptions& o) {
  const std::uint64_t sector_bytes = filecoin::core::parse_sector_size(o.sector_size);
  if (sector_bytes > (std::uint64_t{8} << 20)) {
    throw std::invalid_argument("--sector-size " + o.sector_size +
                                ": vanilla proofs are made for sectors held in memory, 2KiB or 8MiB");
  }
  const std::filesystem::path dir(o.out_dir);
  std::filesystem::create_directories(dir);
  const bool post = o.kind != "snapdeals";
  nlohmann::json job = post ? post_job(o, sector_bytes, dir) : update_job(o, sector_bytes, dir);
  io::write_file_atomically(dir / "job.json", job.dump(2) + "\n");
  std::cerr << "wrote " << job["vanilla_proofs"].size() << " vanilla proofs and job.json to " << dir.string() << "\n";
  // What `zkpipe client submit` takes (the key's path is the daemon's).
  std::string options = post ? "--filecoin-post " + job["registered_proof"].get<std::string>() + " --randomness " +
                                   job["randomness"].get<std::string>()
                             : "--filecoin-update " + job["registered_proof"].get<std::string>() + " --comm-r-old " +
                                   job["comm_r_old"].get<std::string>() + " --comm-r-new " +
                                   job["comm_r_new"].get<std::string>() + " --comm-d-new " +
                                   job["comm_d_new"].get<std::string>();
  for (const auto& name : job["vanilla_proofs"]) options += " --vanilla " + (dir / name.get<std::string>()).string();
  std::cout << options << "\n";
}

}  // namespace

void register_filecoin_vanilla(CLI::App& filecoin) {
  auto o = std::make_shared<VanillaOptions>();
  CLI::App* cmd = filecoin.add_subcommand(
      "vanilla", "A small sector's vanilla proofs as filecoin-proofs-api writes them, for the daemon's PoSt and "
                 "SnapDeals jobs: vanilla-<k>.bin, job.json, and the client options that send them");
  cmd->add_option("--kind", o->kind, "window-post, winning-post or snapdeals")
      ->required()
      ->check(CLI::IsMember({"window-post", "winning-post", "snapdeals"}));
  cmd->add_option("--sector-size", o->sector_size, "2KiB or 8MiB")->required();
  cmd->add_option("--seed", o->seed, "Seed of the synthetic sectors and randomness")->capture_default_str();
  cmd->add_option("--out-dir", o->out_dir, "Directory for the files")->required();
  cmd->callback([o] { run_vanilla(*o); });
}

}  // namespace zkpipe::cli
