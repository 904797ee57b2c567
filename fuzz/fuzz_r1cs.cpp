// formats::read_r1cs on any bytes: a circom .r1cs either reads or is refused with
// FormatError.
#include <cstddef>
#include <cstdint>

#include "formats/format_error.hpp"
#include "formats/r1cs_file.hpp"
#include "fuzz_common.hpp"

using namespace zkpipe;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_single_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file("r1cs");
  try {
    const formats::R1csFile r = formats::read_r1cs(file.write(data, size));
    // What R1csFile::lc() indexes with is consistent.
    ZKPIPE_FUZZ_CHECK(r.lc_start.size() == 3 * std::size_t{r.header.n_constraints} + 1);
    ZKPIPE_FUZZ_CHECK(r.lc_start.back() == r.terms.size());
    for (const formats::R1csTerm& t : r.terms) ZKPIPE_FUZZ_CHECK(t.wire < r.header.n_wires);
    ZKPIPE_FUZZ_CHECK(r.wire_to_label.empty() || r.wire_to_label.size() == r.header.n_wires);
  } catch (const formats::FormatError&) {
  }
  return 0;
}
