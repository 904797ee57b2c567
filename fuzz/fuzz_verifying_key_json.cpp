// formats::verifying_key_from_json on any text: a snarkjs verification_key.json
// either reads (every point on the curve and in the subgroup, α β γ δ never at
// infinity) or is refused with FormatError.
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
    const groth16::VerifyingKey vk = formats::verifying_key_from_json(text, "fuzz.json");
    ZKPIPE_FUZZ_CHECK(!vk.ic.empty() && !vk.alpha_g1.infinity && !vk.gamma_g2.infinity && !vk.delta_g2.infinity);
  } catch (const formats::FormatError&) {
  }
  return 0;
}
