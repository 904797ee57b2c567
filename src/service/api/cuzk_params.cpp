#include "service/api/cuzk_params.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <utility>
#include <vector>

#include "circuits/filecoin/api/published_parameters.hpp"
#include "circuits/filecoin/core/seal_proof.hpp"
#include "circuits/filecoin/core/sector_shape.hpp"
#include "circuits/filecoin/post/post_proof.hpp"
#include "formats/excerpt.hpp"
#include "service/api/cuzk_request.hpp"
#include "service/errors.hpp"

namespace zkpipe::service::api {

namespace {

// Every cuzk circuit id with the published file it names.
std::vector<std::pair<std::string, std::string_view>> make_published_ids() {
  using filecoin::api::ParameterCircuit;
  std::vector<std::pair<std::string, std::string_view>> out;
  auto add = [&](std::string id, ParameterCircuit circuit, std::uint64_t bytes) {
    if (const auto name = filecoin::api::published_params_name(circuit, bytes)) out.emplace_back(std::move(id), *name);
  };
  for (const filecoin::core::SectorShape& shape : filecoin::core::published_sector_shapes()) {
    const std::uint64_t bytes = shape.sector_bytes;
    for (const filecoin::core::SealProof& proof : filecoin::core::seal_proofs()) {
      if (proof.sector_bytes == bytes && proof.name.ends_with("V1_1")) {
        add(cuzk_porep_circuit_id(proof), ParameterCircuit::kPorep, bytes);
      }
    }
    add(cuzk_post_circuit_id(filecoin::post::post_proof(filecoin::post::PostKind::kWindow, bytes)),
        ParameterCircuit::kWindowPost, bytes);
    add(cuzk_post_circuit_id(filecoin::post::post_proof(filecoin::post::PostKind::kWinning, bytes)),
        ParameterCircuit::kWinningPost, bytes);
    add(cuzk_update_circuit_id(bytes), ParameterCircuit::kSnapDeals, bytes);
  }
  return out;
}

const std::vector<std::pair<std::string, std::string_view>>& published_ids() {
  static const std::vector<std::pair<std::string, std::string_view>> ids = make_published_ids();
  return ids;
}

std::optional<std::string_view> published_name(std::string_view circuit_id) {
  for (const auto& [id, name] : published_ids()) {
    if (id == circuit_id) return name;
  }
  return std::nullopt;
}

// The first `count` bytes of `path` (fewer when it is shorter).
std::string leading_bytes(const std::filesystem::path& path, std::size_t count) {
  std::ifstream in(path, std::ios::binary);
  std::string out(count, '\0');
  in.read(out.data(), static_cast<std::streamsize>(count));
  out.resize(static_cast<std::size_t>(in.gcount()));
  return out;
}

// A .params begins with its verifying key, serialized as the .vk is.
void check_against_vk(const std::filesystem::path& params) {
  std::filesystem::path vk = params;
  vk.replace_extension(".vk");
  std::error_code error;
  const auto vk_bytes = std::filesystem::file_size(vk, error);
  if (error) return;  // no .vk fetched beside it: nothing to check against
  // A verifying key is a few KiB (its IC points); a larger .vk is not one.
  constexpr std::uintmax_t kMostVkBytes = std::uintmax_t{1} << 20;
  const std::string expected = vk_bytes <= kMostVkBytes ? leading_bytes(vk, vk_bytes) : std::string();
  if (expected.empty() || leading_bytes(params, expected.size()) != expected) {
    throw ServiceError(ErrorKind::failed_precondition,
                       params.string() + ": its verifying key is not the one in " + vk.filename().string() +
                           " beside it (an incomplete download, or another parameter set under Filecoin's name): "
                           "fetch both again");
  }
}

}  // namespace

CuzkParams::CuzkParams(List listed, std::filesystem::path filecoin_dir)
    : listed_(std::move(listed)), filecoin_dir_(std::move(filecoin_dir)) {}

std::filesystem::path CuzkParams::file_for(std::string_view circuit_id, std::string_view registered) const {
  if (const auto it = listed_.find(circuit_id); it != listed_.end()) return it->second;
  const std::string id = formats::excerpt(circuit_id, 128);
  const std::string from = registered.empty() ? std::string() : " (" + std::string(registered) + ")";
  const std::optional<std::string_view> name = published_name(circuit_id);
  if (!name) {
    throw ServiceError(ErrorKind::not_found, "no parameters for circuit id " + id + from +
                                                 ": the daemon's cuzk_params does not list it and Filecoin "
                                                 "publishes none for it");
  }
  if (filecoin_dir_.empty()) {
    throw ServiceError(ErrorKind::not_found, "no parameters for circuit id " + id + from +
                                                 ": the daemon's cuzk_params does not list it and no Filecoin "
                                                 "parameter directory is set (filecoin_params)");
  }
  const std::filesystem::path file = filecoin_dir_ / *name;
  if (std::error_code error; !std::filesystem::is_regular_file(file, error)) {
    throw ServiceError(ErrorKind::not_found, "no parameters for circuit id " + id + from + ": " + file.string() +
                                                 " does not exist (the daemon's cuzk_params does not list the id; "
                                                 "fetch Filecoin's parameters into " +
                                                 filecoin_dir_.string() + ")");
  }
  check_against_vk(file);
  return file;
}

std::string CuzkParams::circuit_id_of(const std::filesystem::path& file) const {
  for (const auto& [id, listed] : listed_) {
    if (listed == file) return id;
  }
  if (!filecoin_dir_.empty() && file.parent_path() == filecoin_dir_) {
    for (const auto& [id, name] : published_ids()) {
      if (file.filename() == name) return id;
    }
  }
  return file.string();
}

}  // namespace zkpipe::service::api
