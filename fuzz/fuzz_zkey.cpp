// formats::read_zkey on any bytes: a snarkjs .zkey either reads or is refused with
// FormatError. Both settings the command line uses are fuzzed: without the subgroup
// check (zkpipe groth16 prove's default) and, when that reads, with it (zkey import).
#include <cstddef>
#include <cstdint>

#include "formats/format_error.hpp"
#include "formats/zkey_file.hpp"
#include "fuzz_common.hpp"

using namespace zkpipe;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_single_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file("zkey");
  const auto& path = file.write(data, size);
  try {
    const formats::Zkey unchecked = formats::read_zkey(path, {.check_subgroup = false});
    // The documented shape of what was read.
    ZKPIPE_FUZZ_CHECK(unchecked.key.vk.ic.size() == std::size_t{unchecked.header.n_public} + 1);
    ZKPIPE_FUZZ_CHECK(unchecked.key.l.size() == unchecked.header.n_vars - unchecked.key.vk.ic.size());
    ZKPIPE_FUZZ_CHECK(unchecked.key.h.size() == unchecked.header.domain_size);
    (void)formats::read_zkey(path, {.check_subgroup = true});
  } catch (const formats::FormatError&) {
  }
  return 0;
}
