// CuzkParams: a circuit id resolves to the daemon's list first, else to Filecoin's
// published name in the parameter directory, checked against the .vk beside it;
// the messages say where it was looked for.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "circuits/filecoin/api/published_parameters.hpp"
#include "io/temp_dir.hpp"
#include "service/api/cuzk_params.hpp"
#include "service/errors.hpp"

namespace zkpipe::service {
namespace {

namespace fs = std::filesystem;
using io::testing::TempDir;

void write(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

ErrorKind refusal(const api::CuzkParams& params, const std::string& id, std::string& message) {
  try {
    params.file_for(id, "StackedDrg32GiBV1_1");
  } catch (const ServiceError& e) {
    message = e.what();
    return e.kind();
  }
  ADD_FAILURE() << id << " resolved";
  return ErrorKind::invalid_argument;
}

TEST(CuzkParams, TheListThenThePublishedNameCheckedAgainstItsVk) {
  const TempDir dir;
  const std::string porep(
      filecoin::api::published_params_name(filecoin::api::ParameterCircuit::kPorep, 32ull << 30).value());
  const fs::path published = dir.path() / porep;
  write(published, "VERIFYING-KEY and then the points");
  write(fs::path(published).replace_extension(".vk"), "VERIFYING-KEY");
  const api::CuzkParams params({{"wpost-32g", "/srv/listed.params"}}, dir.path());
  EXPECT_EQ(params.file_for("wpost-32g"), fs::path("/srv/listed.params"));
  EXPECT_EQ(params.file_for("porep-32g"), published);
  EXPECT_EQ(params.circuit_id_of(published), "porep-32g");
  EXPECT_EQ(params.circuit_id_of("/srv/listed.params"), "wpost-32g");
  EXPECT_EQ(params.circuit_id_of("/srv/other.params"), "/srv/other.params");

  std::string message;
  EXPECT_EQ(refusal(params, "snap-32g", message), ErrorKind::not_found);
  EXPECT_NE(message.find("v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"), std::string::npos) << message;
  EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
  EXPECT_EQ(refusal(params, "porep-4k", message), ErrorKind::not_found);
  EXPECT_NE(message.find("publishes none"), std::string::npos) << message;
  EXPECT_EQ(refusal(api::CuzkParams({}, {}), "porep-32g", message), ErrorKind::not_found);
  EXPECT_NE(message.find("no Filecoin parameter directory"), std::string::npos) << message;

  write(fs::path(published).replace_extension(".vk"), "ANOTHER-KEY");
  EXPECT_EQ(refusal(params, "porep-32g", message), ErrorKind::failed_precondition);
  EXPECT_NE(message.find(".vk beside it"), std::string::npos) << message;
  // No .vk fetched: nothing to check against.
  fs::remove(fs::path(published).replace_extension(".vk"));
  EXPECT_EQ(params.file_for("porep-32g"), published);
}

}  // namespace
}  // namespace zkpipe::service
