#include "proving/bellperson_key.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "formats/byte_size.hpp"
#include "groth16/parameter_file.hpp"
#include "io/file_error.hpp"
#include "poly/evaluation_domain.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/shape_system.hpp"

namespace zkpipe::proving {

namespace {

std::vector<bool> bits_of(const r1cs::DensityBitmap& bitmap) {
  std::vector<bool> out(bitmap.size());
  for (std::size_t i = 0; i < bitmap.size(); ++i) out[i] = bitmap.test(i);
  return out;
}

// Why `key` (a cache's) is not the key of `vk`'s parameters for `circuit`, or "".
std::string cache_mismatch(const groth16::ProvingKey& key, const groth16::VerifyingKey& vk,
                           const formats::CircuitRequirements& circuit) {
  if (key.vk != vk) return "its verifying key is not the .params's (other parameters)";
  if (key.density != circuit.density || key.h_query != groth16::HQuery::kMonomial ||
      key.domain_size() != poly::EvaluationDomain(std::max<std::size_t>(circuit.num_constraints, 1)).size()) {
    return "its shape is not the circuit's";
  }
  return "";
}

// Why the cache's file system cannot take it (empty when it can), counting a file it
// replaces as free. Checked first: a conversion that fills the disk would fail only
// after writing for minutes.
std::string no_room_for_cache(std::size_t params_bytes, const std::filesystem::path& cache) {
  const std::uintmax_t need = key_cache_bytes_estimate(params_bytes);
  const std::filesystem::path dir = cache.has_parent_path() ? cache.parent_path() : ".";
  std::error_code ec;
  const std::filesystem::space_info space = std::filesystem::space(dir, ec);
  if (ec) return {};
  const std::uintmax_t replaced =
      std::filesystem::is_regular_file(cache, ec) ? std::filesystem::file_size(cache, ec) : 0;
  if (space.available + (ec ? 0 : replaced) >= need) return {};
  return cache.string() + ": not written: the key cache needs about " +
         formats::format_bytes(static_cast<double>(need)) + ", " + dir.string() + " has " +
         formats::format_bytes(static_cast<double>(space.available)) + " free";
}

}  // namespace

formats::CircuitRequirements bellperson_requirements(const r1cs::PartitionedCircuit& shape) {
  r1cs::ShapeSystem cs;
  shape.synthesize(cs, 0);
  r1cs::enforce_input_constraints(cs);
  formats::CircuitRequirements requirements;
  requirements.num_constraints = cs.num_constraints();
  requirements.density.a_aux = bits_of(cs.a_aux_density());
  requirements.density.b_input = bits_of(cs.b_input_density());
  requirements.density.b_aux = bits_of(cs.b_aux_density());
  return requirements;
}

CachedBellpersonKey load_bellperson_key(const std::shared_ptr<const io::FileMapping>& params, const std::string& label,
                                        const formats::CircuitRequirements& requirements,
                                        const std::filesystem::path& cache,
                                        const formats::BellpersonReadOptions& options,
                                        const formats::ConvertProgress& progress) {
  formats::check_params_fit(formats::read_bellperson_params_counts(params), requirements, label);
  const groth16::VerifyingKey vk = formats::read_bellperson_params_vk(params, options.insecure_key);

  CachedBellpersonKey out;
  std::error_code ec;
  if (std::filesystem::exists(cache, ec)) {
    try {
      auto mapping = io::FileMapping::open(cache);
      groth16::ProvingKey key = groth16::load_parameter_file(mapping, {.insecure_key = options.insecure_key});
      const std::string mismatch = cache_mismatch(key, vk, requirements);
      if (mismatch.empty() && options.check_subgroup && !groth16::points_subgroup_checked(*mapping)) {
        // Converted by a run that skipped the check: this run's check is done by
        // converting again (a point outside the subgroup is named there).
        out.passed_over = "its points were converted without the subgroup check (--no-subgroup-check); converted "
                          "again with it";
      } else if (mismatch.empty()) {
        out.key = std::move(key);
        out.cache_mapping = std::move(mapping);
        return out;
      } else {
        // A sound key of other parameters is someone's: it is not replaced.
        out.not_cached = cache.string() + " holds another key (" + mismatch + "), left as it is";
      }
    } catch (const groth16::ParameterFileError& e) {
      // Only a damaged cache is replaced, never a file that is not one.
      if (groth16::is_parameter_file(cache)) {
        out.passed_over = e.what();
      } else {
        out.not_cached = cache.string() + " is not a zkpipe parameter file, left as it is";
      }
    } catch (const io::FileError& e) {
      out.not_cached = e.what();
    }
  }
  if (out.not_cached.empty()) out.not_cached = no_room_for_cache(params->bytes().size(), cache);
  if (out.not_cached.empty()) {
    try {
      formats::convert_bellperson_params(params, requirements, cache, options, progress);
      out.converted = true;
      out.cache_mapping = io::FileMapping::open(cache);
      // Just written from points checked as they were decoded.
      out.key = groth16::load_parameter_file(
          out.cache_mapping, {.verify_checksums = false, .check_points = false, .insecure_key = options.insecure_key});
    } catch (const groth16::ParameterFileError& e) {
      out.not_cached = e.what();
    } catch (const io::FileError& e) {
      out.not_cached = e.what();
    }
  }
  if (!out.not_cached.empty()) {
    out.converted = false;
    out.cache_mapping.reset();
    out.key = formats::to_proving_key(formats::read_bellperson_params(params, options), requirements, label);
  }
  return out;
}

std::uintmax_t key_cache_bytes_estimate(std::uintmax_t params_bytes) {
  return params_bytes / 96 * 104 + (std::uintmax_t{64} << 10);
}

std::filesystem::path default_key_cache(const std::filesystem::path& params) {
  return std::filesystem::path(params.string() + ".zkp");
}

}  // namespace zkpipe::proving
