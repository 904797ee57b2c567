// zkpipe zkey import|export-vk: snarkjs .zkey files to zkpipe's native parameter file
// and to verifying keys (snarkjs JSON or bellperson binary).
#include <fstream>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "file_args.hpp"
#include "formats/bellperson_vk.hpp"
#include "formats/format_error.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/zkey_file.hpp"
#include "groth16/parameter_file.hpp"
#include "insecure_key.hpp"
#include "io/atomic_file.hpp"

namespace zkpipe::cli {

namespace {

struct ZkeyImportOptions {
  std::string zkey;
  std::string out;
  groth16::InsecureKey insecure_key = groth16::InsecureKey::kRefuse;
};

struct ZkeyExportVkOptions {
  std::string zkey;
  std::string out;
  std::string format = "json";
  groth16::InsecureKey insecure_key = groth16::InsecureKey::kRefuse;
};

void run_import(const ZkeyImportOptions& o) {
  refuse_overwriting_inputs({o.zkey}, {o.out});
  // Full validation once, so that the mapped parameter file can be trusted afterwards.
  const formats::Zkey zkey = formats::read_zkey(o.zkey, {.check_subgroup = true, .insecure_key = o.insecure_key});
  groth16::write_parameter_file(o.out, zkey.key);
  std::cout << o.out << ": " << zkey.header.n_vars << " wires, " << zkey.header.n_public
            << " public signals, domain " << zkey.header.domain_size << "\n";
}

void run_export_vk(const ZkeyExportVkOptions& o) {
  refuse_overwriting_inputs({o.zkey}, {o.out});
  const formats::Zkey zkey = formats::read_zkey(o.zkey, {.check_subgroup = true, .insecure_key = o.insecure_key});
  if (o.format == "json") {
    io::write_file_atomically(o.out, formats::verifying_key_to_json(zkey.key.vk));
    return;
  }
  const std::vector<std::uint8_t> bytes = formats::encode_bellperson_vk(zkey.key.vk);
  io::write_file_atomically(o.out, bytes);
}

}  // namespace

void register_zkey(CLI::App& app) {
  CLI::App* group = app.add_subcommand("zkey", "snarkjs .zkey files");
  group->require_subcommand(1);

  auto import = std::make_shared<ZkeyImportOptions>();
  CLI::App* i = group->add_subcommand("import", "Convert a Groth16 .zkey to zkpipe's memory-mappable parameter file");
  i->add_option("zkey", import->zkey, "snarkjs .zkey (BLS12-381)")->required()->check(CLI::ExistingFile);
  i->add_option("out", import->out, "parameter file to write")->required()->check(output_file());
  add_insecure_key_flag(*i, import->insecure_key);
  i->callback([import] { run_import(*import); });

  auto vk = std::make_shared<ZkeyExportVkOptions>();
  CLI::App* e = group->add_subcommand("export-vk", "Write the verifying key of a .zkey");
  e->add_option("zkey", vk->zkey, "snarkjs .zkey (BLS12-381)")->required()->check(CLI::ExistingFile);
  e->add_option("out", vk->out, "file to write")->required()->check(output_file());
  e->add_option("--format", vk->format, "json (snarkjs verification_key.json) or bellperson (binary)")
      ->check(CLI::IsMember({"json", "bellperson"}));
  add_insecure_key_flag(*e, vk->insecure_key);
  e->callback([vk] { run_export_vk(*vk); });
}

}  // namespace zkpipe::cli
