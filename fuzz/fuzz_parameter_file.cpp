// groth16::load_parameter_file on any bytes: a native parameter file either loads or
// is refused with ParameterFileError. Checksums are verified by default, so a mutated
// file would mostly stop there: the bytes are loaded without them first (what a
// caller that just wrote the file does), which takes them on to the count, density
// and point checks, then with them. A key that loads is fingerprinted (reads every
// count, density bit and verifying-key point).
#include <cstddef>
#include <cstdint>

#include "fuzz_common.hpp"
#include "groth16/evaluator_file.hpp"
#include "groth16/parameter_file.hpp"

using namespace zkpipe;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_single_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file("params");
  const auto& path = file.write(data, size);
  // Checksums add a check and change no other: a file refused without them is refused
  // with them, so the second load runs only after the first succeeds.
  for (const bool verify : {false, true}) {
    try {
      const groth16::ProvingKey key = groth16::load_parameter_file(path, {.verify_checksums = verify, .check_points = true});
      ZKPIPE_FUZZ_CHECK(key.num_inputs() > 0 && key.a.size() >= key.num_inputs());
      ZKPIPE_FUZZ_CHECK(key.density.a_aux.size() == key.num_aux() && key.density.b_aux.size() == key.num_aux());
      ZKPIPE_FUZZ_CHECK(key.density.b_input.size() == key.num_inputs() && key.b_g1.size() == key.b_g2.size());
      (void)groth16::key_fingerprint(key);
    } catch (const groth16::ParameterFileError&) {
      break;
    }
  }
  return 0;
}
