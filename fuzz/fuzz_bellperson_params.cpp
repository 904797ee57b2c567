// formats::read_bellperson_params on any bytes: a bellperson .params file either
// reads or is refused with FormatError (counts against the size, trailing bytes,
// points, points at infinity, degenerate verifying keys). A file that reads has
// exactly the size its counts give, and no query point at infinity.
#include <cstddef>
#include <cstdint>

#include "formats/bellperson_params.hpp"
#include "formats/format_error.hpp"
#include "fuzz_common.hpp"

using namespace zkpipe;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_single_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file("bellperson-params");
  const auto& path = file.write(data, size);
  try {
    const formats::BellpersonParams p = formats::read_bellperson_params(path);
    constexpr std::size_t g1 = 96, g2 = 192;
    const std::size_t expected = 3 * g1 + 3 * g2 + 6 * 4 +
                                 g1 * (p.vk.ic.size() + p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) +
                                 g2 * p.b_g2.size();
    ZKPIPE_FUZZ_CHECK(expected == size);
    for (const auto* query : {&p.h, &p.l, &p.a, &p.b_g1}) {
      for (const auto& point : *query) ZKPIPE_FUZZ_CHECK(!point.is_identity());
    }
    for (const auto& point : p.b_g2) ZKPIPE_FUZZ_CHECK(!point.is_identity());
  } catch (const formats::FormatError&) {
  }
  return 0;
}
