// formats::proof_from_json on any text: a snarkjs proof.json either reads or is
// refused with FormatError. A proof that reads survives proof_to_json and back.
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
    const groth16::Proof proof = formats::proof_from_json(text, "fuzz.json");
    ZKPIPE_FUZZ_CHECK(formats::proof_from_json(formats::proof_to_json(proof), "again.json") == proof);
  } catch (const formats::FormatError&) {
  }
  return 0;
}
