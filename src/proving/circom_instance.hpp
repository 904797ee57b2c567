// A circom job's circuit and witness: what turns the values of a .wtns (every wire)
// into the prover's a, b, c for one key.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "formats/r1cs_file.hpp"
#include "formats/zkey_file.hpp"
#include "io/read_only_file.hpp"

namespace zkpipe::proving {

// A .zkey's header and its A and B coefficient lists: with them a witness gives a and
// b as snarkjs computes them (the key itself is held apart, as resident parameters).
struct ZkeyCircuit {
  formats::ZkeyHeader header;
  std::vector<formats::ZkeyCoefficient> a_coefficients;
  std::vector<formats::ZkeyCoefficient> b_coefficients;

  std::size_t bytes() const {
    return (a_coefficients.capacity() + b_coefficients.capacity()) * sizeof(formats::ZkeyCoefficient);
  }
};

struct CircomInstance {
  // The .wtns, opened now and read when synthesis runs, so that its values count
  // while the engine holds the partition.
  std::shared_ptr<const io::ReadOnlyFile> witness;
  // The key's coefficient lists; null for a key without them (a native parameter
  // file imported from a .zkey), whose a, b, c come from the .r1cs instead.
  std::shared_ptr<const ZkeyCircuit> zkey;
  // The circuit (required without zkey). With zkey, the witness is checked against
  // it before proving, so that a wrong witness names the constraint it breaks.
  std::shared_ptr<const formats::R1csFile> r1cs;
  std::string r1cs_name;  // for messages
};

}  // namespace zkpipe::proving
