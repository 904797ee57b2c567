// formats::public_from_json on any text: a snarkjs public.json either reads or is
// refused with FormatError. Signals that read survive public_to_json and back.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "formats/format_error.hpp"
#include "formats/snarkjs_json.hpp"
#include "fuzz_common.hpp"

using namespace zkpipe;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_single_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto signals = formats::public_from_json(text, "fuzz.json");
    ZKPIPE_FUZZ_CHECK(formats::public_from_json(formats::public_to_json(signals), "again.json") == signals);
  } catch (const formats::FormatError&) {
  }
  return 0;
}
