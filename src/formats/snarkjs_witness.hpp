// The prover's input for a circom/snarkjs job, in the layout of the native split
// prover (groth16::PartitionWitness), so that any backend proves zkey + wtns jobs.
//
// snarkjs evaluates a and b from the zkey's coefficient lists, which add one row per
// public signal (A[nConstraints + k][k] = 1, k = 0..nPublic), and takes c = a∘b.
#pragma once

#include <span>

#include "ff/fr.hpp"
#include "formats/r1cs_file.hpp"
#include "formats/zkey_file.hpp"
#include "groth16/witness.hpp"

namespace zkpipe::formats {

// Throws FormatError unless the three files describe the same circuit: wire and
// public-signal counts, and the domain size snarkjs derives from the constraints.
void check_same_circuit(const R1csFile& r1cs, const std::string& r1cs_name, const ZkeyHeader& zkey,
                        const std::string& zkey_name);

// Throws std::invalid_argument unless the witness has the key's n_vars values.
groth16::PartitionWitness zkey_witness(const Zkey& zkey, std::span<const ff::Fr> witness);
// The same, with the key held apart from the header and coefficient lists (the
// service shares the key with the engine as resident parameters).
groth16::PartitionWitness zkey_witness(const ZkeyHeader& header, const std::vector<ZkeyCoefficient>& a_coefficients,
                                       const std::vector<ZkeyCoefficient>& b_coefficients,
                                       const groth16::ProvingKey& key, std::span<const ff::Fr> witness);

// The same a and b from the circuit itself, for a key without coefficient lists (a
// native parameter file imported from a zkey); c comes from the C matrix, so the
// prover's satisfiability check names the first constraint a wrong witness breaks.
groth16::PartitionWitness r1cs_witness(const R1csFile& r1cs, const groth16::ProvingKey& key,
                                       std::span<const ff::Fr> witness);

}  // namespace zkpipe::formats
