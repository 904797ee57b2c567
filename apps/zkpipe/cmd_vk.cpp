#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "file_args.hpp"
#include "formats/bellperson_vk.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/parameter_file.hpp"
#include "insecure_key.hpp"
#include "io/atomic_file.hpp"

namespace zkpipe::cli {

namespace {

struct VkExportOptions {
  std::string key;
  std::string out;
  std::string format = "json";
  groth16::InsecureKey insecure_key = groth16::InsecureKey::kRefuse;
};

void run_export(const VkExportOptions& o) {
  refuse_overwriting_inputs({o.key}, {o.out});
  const groth16::ProvingKey key = groth16::load_parameter_file(o.key, {.insecure_key = o.insecure_key});
  if (o.format == "json") {
    io::write_file_atomically(o.out, formats::verifying_key_to_json(key.vk));
    return;
  }
  const std::vector<std::uint8_t> bytes = formats::encode_bellperson_vk(key.vk);
  io::write_file_atomically(o.out, bytes);
}

}  // namespace

void register_vk(CLI::App& app) {
  CLI::App* group = app.add_subcommand("vk", "Verifying keys of native parameter files");
  group->require_subcommand(1);
  auto opts = std::make_shared<VkExportOptions>();
  CLI::App* e = group->add_subcommand("export", "Write the verifying key in snarkjs JSON or bellperson binary layout");
  e->add_option("--key", opts->key, "Parameter file (.zkp)")->required()->check(CLI::ExistingFile);
  e->add_option("--out", opts->out, "File to write")->required()->check(output_file());
  e->add_option("--format", opts->format, "json (snarkjs verification_key.json) or bellperson (binary)")
      ->capture_default_str()
      ->check(CLI::IsMember({"json", "bellperson"}));
  add_insecure_key_flag(*e, opts->insecure_key);
  e->callback([opts] { run_export(*opts); });
}

}  // namespace zkpipe::cli
