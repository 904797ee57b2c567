#include "formats/snarkjs_witness.hpp"

#include <bit>
#include <stdexcept>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "ff/huge_pages.hpp"
#include "formats/format_error.hpp"

namespace zkpipe::formats {

using ff::Fr;

namespace {

std::size_t snarkjs_domain_size(std::size_t rows) { return std::bit_ceil(rows); }

r1cs::DensityBitmap to_bitmap(const std::vector<bool>& bits) {
  r1cs::DensityBitmap bitmap(bits.size());
  for (std::size_t i = 0; i < bits.size(); ++i) {
    if (bits[i]) bitmap.set(i);
  }
  return bitmap;
}

void check_witness_size(std::size_t got, std::size_t want) {
  if (got != want) {
    throw std::invalid_argument("the witness has " + std::to_string(got) + " values, the circuit has " +
                                std::to_string(want) + " wires (a witness of another circuit?)");
  }
}

// Splits the assignment and copies the key's densities.
groth16::PartitionWitness assignment_part(const groth16::ProvingKey& key, std::span<const Fr> witness) {
  groth16::PartitionWitness w;
  groth16::Assignment& z = w.assignment;
  const std::size_t num_inputs = key.num_inputs();
  z.inputs.assign(witness.begin(), witness.begin() + static_cast<std::ptrdiff_t>(num_inputs));
  z.aux.assign(witness.begin() + static_cast<std::ptrdiff_t>(num_inputs), witness.end());
  z.a_aux_density = to_bitmap(key.density.a_aux);
  z.b_input_density = to_bitmap(key.density.b_input);
  z.b_aux_density = to_bitmap(key.density.b_aux);
  return w;
}

void accumulate(const std::vector<ZkeyCoefficient>& coefficients, std::span<const Fr> witness, std::vector<Fr>& out) {
  for (const ZkeyCoefficient& c : coefficients) out[c.row] += c.value * witness[c.wire];
}

}  // namespace

void check_same_circuit(const R1csFile& r1cs, const std::string& r1cs_name, const ZkeyHeader& zkey,
                        const std::string& zkey_name) {
  const R1csHeader& h = r1cs.header;
  const std::size_t domain = snarkjs_domain_size(std::size_t{h.n_constraints} + h.n_public() + 1);
  if (h.n_wires != zkey.n_vars || h.n_public() != zkey.n_public || domain != zkey.domain_size) {
    throw FormatError(zkey_name, "made for another circuit than " + r1cs_name + ": the key has " +
                                     std::to_string(zkey.n_vars) + " wires, " + std::to_string(zkey.n_public) +
                                     " public signals and a domain of " + std::to_string(zkey.domain_size) +
                                     "; the circuit " + std::to_string(h.n_wires) + ", " +
                                     std::to_string(h.n_public()) + " and " + std::to_string(domain));
  }
}

groth16::PartitionWitness zkey_witness(const Zkey& zkey, std::span<const Fr> witness) {
  return zkey_witness(zkey.header, zkey.a_coefficients, zkey.b_coefficients, zkey.key, witness);
}

groth16::PartitionWitness zkey_witness(const ZkeyHeader& header, const std::vector<ZkeyCoefficient>& a_coefficients,
                                       const std::vector<ZkeyCoefficient>& b_coefficients,
                                       const groth16::ProvingKey& key, std::span<const Fr> witness) {
  check_witness_size(witness.size(), header.n_vars);
  groth16::PartitionWitness w = assignment_part(key, witness);
  const std::size_t n = header.domain_size;
  ff::assign_on_huge_pages(w.a, n, Fr::zero());
  ff::assign_on_huge_pages(w.b, n, Fr::zero());
  ff::resize_on_huge_pages(w.c, n);
  accumulate(a_coefficients, witness, w.a);
  accumulate(b_coefficients, witness, w.b);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 14), [&](const auto& range) {
    for (std::size_t i = range.begin(); i < range.end(); ++i) w.c[i] = w.a[i] * w.b[i];
  });
  return w;
}

groth16::PartitionWitness r1cs_witness(const R1csFile& r1cs, const groth16::ProvingKey& key,
                                       std::span<const Fr> witness) {
  const R1csHeader& h = r1cs.header;
  check_witness_size(witness.size(), h.n_wires);
  if (key.num_inputs() != std::size_t{h.n_public()} + 1 || key.num_inputs() + key.num_aux() != h.n_wires) {
    throw std::invalid_argument("the proving key was made for another circuit (its input/aux counts differ)");
  }
  groth16::PartitionWitness w = assignment_part(key, witness);
  const std::size_t rows = std::size_t{h.n_constraints} + h.n_public() + 1;
  w.a.assign(rows, Fr::zero());
  w.b.assign(rows, Fr::zero());
  w.c.assign(rows, Fr::zero());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, h.n_constraints, 1 << 12), [&](const auto& range) {
    for (std::size_t i = range.begin(); i < range.end(); ++i) {
      for (const R1csTerm& t : r1cs.lc(i, 0)) w.a[i] += t.coefficient * witness[t.wire];
      for (const R1csTerm& t : r1cs.lc(i, 1)) w.b[i] += t.coefficient * witness[t.wire];
      for (const R1csTerm& t : r1cs.lc(i, 2)) w.c[i] += t.coefficient * witness[t.wire];
    }
  });
  for (std::size_t k = 0; k <= h.n_public(); ++k) w.a[h.n_constraints + k] = witness[k];
  return w;
}

}  // namespace zkpipe::formats
