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
    const filecoin::api::FallbackPostSectorProof proof = filecoin::api::parse_post_vanilla_proof(blob, "fuzz");
    const std::vector<std::uint8_t> written = filecoin::api::post_vanilla_proof_bytes(proof);
    ZKPIPE_FUZZ_CHECK(std::vector<std::uint8_t>(blob.begin(), blob.end()) == written);
    try {
      const filecoin::post::PostProof window = filecoin::post::post_proof(filecoin::post::PostKind::kWindow, 2048);
      filecoin::api::post_partition_from_vanilla(window, std::span(&proof, 1));
    } catch (const std::invalid_argument&) {
    }
  } catch (const filecoin::api::BincodeError&) {
  }
  try {
    const filecoin::api::UpdatePartitionProof proof = filecoin::api::parse_update_vanilla_proof(blob, "fuzz");
    ZKPIPE_FUZZ_CHECK(std::vector<std::uint8_t>(blob.begin(), blob.end()) ==
                      filecoin::api::update_vanilla_proof_bytes(proof));
  } catch (const filecoin::api::BincodeError&) {
  }
  return 0;
}
