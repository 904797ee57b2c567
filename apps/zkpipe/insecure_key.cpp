#include "insecure_key.hpp"

#include <iostream>

namespace zkpipe::cli {

void add_insecure_key_flag(CLI::App& cmd, groth16::InsecureKey& insecure) {
  cmd.add_flag_callback(
      "--allow-insecure-key",
      [&insecure] {
        insecure = groth16::InsecureKey::kAllow;
        std::cerr << "zkpipe: WARNING: --allow-insecure-key: a verifying key that lets proofs be forged "
                     "(gamma = +-delta, gamma or delta = +-beta, an IC point at infinity) is accepted; "
                     "a proof checked with it proves nothing. For tests only.\n";
      },
      "accept a verifying key whose points let proofs be forged (gamma = delta: a .zkey without a phase-2 "
      "contribution); for tests only");
}

}  // namespace zkpipe::cli
