// --allow-insecure-key: the one way to use a verifying key whose points make the
// pairing equation trivial (γ = ±δ, …: groth16/key_validation.hpp), for tests that
// need such a key on purpose. Every command that reads a key refuses one without it.
#pragma once

#include <CLI/CLI.hpp>

#include "groth16/keys.hpp"

namespace zkpipe::cli {

// Adds the flag to `cmd`; when given, sets `insecure` to kAllow and says on stderr
// that proofs checked with such a key prove nothing.
void add_insecure_key_flag(CLI::App& cmd, groth16::InsecureKey& insecure);

}  // namespace zkpipe::cli
