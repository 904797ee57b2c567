// formats::decode_bellperson_vk on any bytes: a bellperson verifying key either
// decodes or is refused with FormatError (lengths, counts, points, degenerate keys).
// The uncompressed encoding is checked point by point, so what decodes re-encodes
// to the same bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/bellperson_vk.hpp"
#include "formats/format_error.hpp"
#include "fuzz_common.hpp"

using namespace zkpipe;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_single_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  try {
    const groth16::VerifyingKey vk = formats::decode_bellperson_vk(bytes, "fuzz.vk");
    ZKPIPE_FUZZ_CHECK(std::ranges::equal(formats::encode_bellperson_vk(vk), bytes));
  } catch (const formats::FormatError&) {
  }
  return 0;
}
