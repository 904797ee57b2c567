#include "groth16/footprint.hpp"

#include <algorithm>
#include <cstdint>

#include "ff/fr.hpp"
#include "groth16/qap.hpp"
#include "poly/evaluation_domain.hpp"

namespace zkpipe::groth16 {

namespace {

std::size_t popcount(const std::vector<bool>& bits) {
  return static_cast<std::size_t>(std::count(bits.begin(), bits.end(), true));
}

}  // namespace

std::size_t CircuitShape::evaluator_bytes() const {
  if (nonzeros == 0) return 0;
  return 3 * (constraints + 1) * sizeof(std::uint64_t) + nonzeros * (sizeof(std::uint32_t) + sizeof(std::uint32_t));
}

CircuitShape CircuitShape::of(const ProvingKey& key) {
  CircuitShape s;
  s.inputs = key.num_inputs();
  s.aux = key.num_aux();
  s.domain_size = key.domain_size();
  s.a_aux_density = popcount(key.density.a_aux);
  s.b_input_density = popcount(key.density.b_input);
  s.b_aux_density = popcount(key.density.b_aux);
  return s;
}

CircuitShape CircuitShape::of(const r1cs::R1csMatrices& m) {
  QueryDensity d = query_density(m);
  CircuitShape s;
  s.constraints = m.num_constraints();
  s.inputs = m.num_inputs;
  s.aux = m.num_aux;
  s.domain_size = poly::EvaluationDomain(m.num_constraints()).size();
  s.a_aux_density = popcount(d.a_aux);
  s.b_input_density = popcount(d.b_input);
  s.b_aux_density = popcount(d.b_aux);
  return s;
}

CircuitShape CircuitShape::of(const r1cs::ShapeSystem& counted) {
  CircuitShape s;
  s.constraints = counted.num_constraints();
  s.inputs = counted.num_inputs();
  s.aux = counted.num_aux();
  s.domain_size = poly::EvaluationDomain(counted.num_constraints()).size();
  s.a_aux_density = counted.a_aux_density().count();
  s.b_input_density = counted.b_input_density().count();
  s.b_aux_density = counted.b_aux_density().count();
  s.nonzeros = counted.nonzeros();
  return s;
}

CircuitShape CircuitShape::of(const r1cs::CompiledR1cs& compiled) {
  CircuitShape s;
  s.constraints = compiled.num_constraints;
  s.inputs = compiled.num_inputs;
  s.aux = compiled.num_aux;
  s.domain_size = poly::EvaluationDomain(compiled.num_constraints).size();
  s.a_aux_density = compiled.a_aux_density.count();
  s.b_input_density = compiled.b_input_density.count();
  s.b_aux_density = compiled.b_aux_density.count();
  s.nonzeros = compiled.nonzeros();
  return s;
}

std::optional<std::string> key_shape_mismatch(const CircuitShape& circuit, const CircuitShape& k) {
  auto differs = [](const char* what, std::size_t in_circuit, std::size_t in_key) {
    return std::string(what) + ": the circuit has " + std::to_string(in_circuit) + ", the key " +
           std::to_string(in_key);
  };
  if (circuit.inputs != k.inputs) return differs("public inputs (ONE included)", circuit.inputs, k.inputs);
  if (circuit.aux != k.aux) return differs("aux variables", circuit.aux, k.aux);
  if (circuit.domain_size != k.domain_size) return differs("domain size", circuit.domain_size, k.domain_size);
  if (circuit.a_aux_density != k.a_aux_density) {
    return differs("aux variables in A", circuit.a_aux_density, k.a_aux_density);
  }
  if (circuit.b_input_density != k.b_input_density || circuit.b_aux_density != k.b_aux_density) {
    return differs("variables in B", circuit.b_input_density + circuit.b_aux_density,
                   k.b_input_density + k.b_aux_density);
  }
  return std::nullopt;
}

PartitionFootprint PartitionFootprint::of(const CircuitShape& s) {
  constexpr std::size_t kFr = sizeof(ff::Fr);
  PartitionFootprint f;
  f.abc = 3 * kFr * s.domain_size;
  f.assignment = kFr * (s.inputs + s.aux);
  f.density = 3 * ((s.aux + s.inputs + 63) / 64) * 8;
  std::size_t a_scalars = s.inputs + s.a_aux_density;
  std::size_t b_scalars = s.b_input_density + s.b_aux_density;
  f.scratch = kFr * std::max(a_scalars, b_scalars);
  return f;
}

PartitionFootprint PartitionFootprint::of(const CircuitShape& s, const ProverBackend& backend) {
  PartitionFootprint f = of(s);
  if (backend.allocates_own_scratch()) f.scratch = 0;
  return f;
}

void PartitionFootprint::expect_wide_values(std::size_t count) {
  if (deferred != 0) wide = sizeof(ff::Fr) * count;
}

PartitionFootprint PartitionFootprint::of_deferred(const CircuitShape& s, const ProverBackend& backend) {
  PartitionFootprint f = of(s, backend);
  const ProverBackend::MaterializedBytes m = backend.host_bytes_to_materialize(s.domain_size, s.aux);
  f.abc = m.abc;
  f.assignment = m.aux + sizeof(ff::Fr) * s.inputs;
  const std::size_t words = (s.aux + 63) / 64;
  f.deferred = words * (2 * sizeof(std::uint64_t) + sizeof(std::uint32_t)) + f.density + sizeof(ff::Fr) * s.inputs;
  return f;
}

}  // namespace zkpipe::groth16
