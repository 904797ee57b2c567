// The vanilla proofs Curio sends for PoSt and SnapDeals (bincode blobs) on any bytes:
// each reader either reads the blob or refuses it with BincodeError, never reading
// past its end or allocating from a hostile length. A blob that reads is written back
// to the same bytes (no trailing bytes, canonical nodes), and a PoSt sector proof that
// reads is checked into a 2 KiB Window partition or refused with std::invalid_argument.
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "circuits/filecoin/api/bincode.hpp"
#include "circuits/filecoin/api/post_vanilla.hpp"
#include "circuits/filecoin/api/vanilla_proofs.hpp"
#include "fuzz_common.hpp"

using namespace zkpipe;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_single_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> blob(data, size);
  try {
    const filecoin::FallbackPostSectorProof proof = filecoin::parse_post_vanilla_proof(blob, "fuzz");
    const std::vector<std::uint8_t> written = filecoin::post_vanilla_proof_bytes(proof);
    ZKPIPE_FUZZ_CHECK(std::vector<std::uint8_t>(blob.begin(), blob.end()) == written);
    try {
      const filecoin::PostProof window = filecoin::post_proof(filecoin::PostKind::kWindow, 2048);
      filecoin::post_partition_from_vanilla(window, std::span(&proof, 1));
    } catch (const std::invalid_argument&) {
    }
  } catch (const filecoin::BincodeError&) {
  }
  try {
    const filecoin::UpdatePartitionProof proof = filecoin::parse_update_vanilla_proof(blob, "fuzz");
    ZKPIPE_FUZZ_CHECK(std::vector<std::uint8_t>(blob.begin(), blob.end()) ==
                      filecoin::update_vanilla_proof_bytes(proof));
  } catch (const filecoin::BincodeError&) {
  }
  return 0;
}
