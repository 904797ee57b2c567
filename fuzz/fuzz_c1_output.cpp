// filecoin::api::parse_c1_output, parse_commit2_input (lotus-bench / curio's wrapper) and
// parse_sector_values (sector.json) on any text: each either reads or is refused with
// C1OutputError. One that reads is written back to the same value, and writing is
// stable from then on.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/api/commit2_input.hpp"
#include "circuits/filecoin/api/sector_values.hpp"
#include "fuzz_common.hpp"

using namespace zkpipe;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_single_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const filecoin::api::C1Output output = filecoin::api::parse_c1_output(text, "fuzz.json");
    const std::string written = filecoin::api::c1_output_to_json(output);
    const filecoin::api::C1Output again = filecoin::api::parse_c1_output(written, "again.json");
    ZKPIPE_FUZZ_CHECK(again == output);
    ZKPIPE_FUZZ_CHECK(filecoin::api::c1_output_to_json(again) == written);
  } catch (const filecoin::api::C1OutputError&) {
  }
  try {
    const filecoin::api::Commit2Input input = filecoin::api::parse_commit2_input(text, "fuzz.json");
    ZKPIPE_FUZZ_CHECK(filecoin::api::parse_commit2_input(filecoin::api::commit2_input_to_json(input), "again.json") ==
                      input);
  } catch (const filecoin::api::C1OutputError&) {
  }
  try {
    const filecoin::api::SectorValues values = filecoin::api::parse_sector_values(text, "sector.json");
    ZKPIPE_FUZZ_CHECK(filecoin::api::parse_sector_values(filecoin::api::sector_values_to_json(values), "again.json") ==
                      values);
  } catch (const filecoin::api::C1OutputError&) {
  }
  return 0;
}
