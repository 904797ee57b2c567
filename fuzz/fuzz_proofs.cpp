// groth16::decode_proofs on any bytes: P·192 bytes of compressed proofs either
// decode or are refused, with std::invalid_argument (a size that is not a multiple
// of 192) or ec::PointDecodeError (flags, canonical, on curve, in subgroup). Every
// check being made, the encoding is canonical: what decodes re-encodes to the same
// bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "ec/serialization.hpp"
#include "fuzz_common.hpp"
#include "groth16/proof.hpp"

using namespace zkpipe;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_single_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  try {
    const auto proofs = groth16::decode_proofs(bytes);
    ZKPIPE_FUZZ_CHECK(proofs.size() * groth16::Proof::kEncodedSize == size);
    ZKPIPE_FUZZ_CHECK(std::ranges::equal(groth16::encode_proofs(proofs), bytes));
  } catch (const std::invalid_argument&) {
  } catch (const ec::PointDecodeError&) {
  }
  return 0;
}
