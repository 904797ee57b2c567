// formats::read_wtns on any bytes: a circom .wtns either reads (w[0] = 1) or is
// refused with FormatError.
#include <cstddef>
#include <cstdint>

#include "formats/format_error.hpp"
#include "formats/wtns_file.hpp"
#include "fuzz_common.hpp"

using namespace zkpipe;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_single_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file("wtns");
  try {
    const auto w = formats::read_wtns(file.write(data, size));
    ZKPIPE_FUZZ_CHECK(!w.empty() && w[0].is_one());
  } catch (const formats::FormatError&) {
  }
  return 0;
}
