// The host memory one partition needs while it is proved, from the circuit's real
// dimensions. The engine reserves these bytes from its budget before synthesis
// starts and releases them in the same parts as the buffers are freed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "groth16/keys.hpp"
#include "groth16/prover.hpp"
#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/recording_system.hpp"
#include "r1cs/shape_system.hpp"

namespace zkpipe::groth16 {

struct CircuitShape {
  std::size_t constraints = 0;  // including the input constraints
  std::size_t inputs = 0;       // including ONE
  std::size_t aux = 0;
  std::size_t domain_size = 0;  // N
  std::size_t a_aux_density = 0;
  std::size_t b_input_density = 0;
  std::size_t b_aux_density = 0;
  std::size_t nonzeros = 0;  // of A, B, C (0 when built from a key, which does not know it)

  // A compiled evaluator of this shape in memory (r1cs::CompiledR1cs's matrices: three
  // CSR matrices of `constraints` rows with 8-byte row offsets, 8 bytes an entry; its
  // few-KiB coefficient table not counted); 0 when the entries are not known.
  std::size_t evaluator_bytes() const;

  static CircuitShape of(const ProvingKey& key);
  static CircuitShape of(const r1cs::R1csMatrices& m);
  // From counts alone (no matrices held): what `circuit info` answers with.
  static CircuitShape of(const r1cs::ShapeSystem& counted);
  static CircuitShape of(const r1cs::CompiledR1cs& compiled);
};

// Why a key of shape `key` (CircuitShape::of(key)) cannot prove a circuit of this
// shape — the first of its public inputs, aux variables, domain or A/B densities that
// differs — or nullopt when they agree: what a witness would fail at in start(),
// found before any proving.
std::optional<std::string> key_shape_mismatch(const CircuitShape& circuit, const CircuitShape& key);

struct PartitionFootprint {
  std::size_t abc = 0;         // a, b, c grown to N elements each: freed after start()
  std::size_t assignment = 0;  // inputs and aux: kept until finish()
  std::size_t density = 0;     // three bitmaps
  std::size_t scratch = 0;     // gathered A/B MSM scalars, at most one set at a time
  // What synthesis builds before start(), when it is less than the rest: a deferred
  // (pce) witness — compact aux and densities — until the backend materializes it.
  // 0: the whole witness (a, b, c and the full assignment).
  std::size_t deferred = 0;
  // A deferred witness's wide values (neither 0 nor 1), stored in full and kept
  // until finish(), as many as the circuit expects at most (expect_wide_values).
  std::size_t wide = 0;

  std::size_t total() const { return abc + assignment + density + scratch + wide; }
  // The ledger's estimate for a partition in synthesis (the real size replaces it after).
  std::size_t synthesized() const { return deferred != 0 ? deferred + wide : total(); }
  // Counts `count` wide values in a deferred witness (the full assignment of one that
  // is not deferred already counts every value).
  void expect_wide_values(std::size_t count);
  // On the CPU backend: its scratch is host vectors per partition.
  static PartitionFootprint of(const CircuitShape& shape);
  // On `backend`: no scratch for one that allocates its own (charged by itself).
  static PartitionFootprint of(const CircuitShape& shape, const ProverBackend& backend);
  // The same for a deferred witness proved on `backend`: while queued, 0/1 values at
  // two bits each plus a rank word per 64 values (wide values are counted once
  // synthesized); in start(), what the backend materializes on the host.
  static PartitionFootprint of_deferred(const CircuitShape& shape, const ProverBackend& backend);
};

}  // namespace zkpipe::groth16
