#include "groth16/prover.hpp"

#include <sys/random.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace zkpipe::groth16 {

namespace {

// Draws 64-bit words from the kernel CSPRNG (getrandom), for Fr::random.
struct SystemRandom {
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() {
    result_type v = 0;
    auto* p = reinterpret_cast<unsigned char*>(&v);
    std::size_t got = 0;
    while (got < sizeof v) {
      ssize_t n = getrandom(p + got, sizeof v - got, 0);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw std::system_error(errno, std::generic_category(), "getrandom");
      }
      got += static_cast<std::size_t>(n);
    }
    return v;
  }
};

std::string mismatch(const char* what, std::size_t got, std::size_t want) {
  return std::string("witness does not match the proving key: ") + what + " is " + std::to_string(got) +
         ", the key expects " + std::to_string(want);
}

std::size_t count(const std::vector<bool>& bits) {
  std::size_t n = 0;
  for (bool b : bits) n += b;
  return n;
}

}  // namespace

Blinding Blinding::random() {
  SystemRandom rng;
  ff::Fr r = ff::Fr::random(rng);
  return {r, ff::Fr::random(rng)};
}

void check_witness_matches_key(const PartitionWitness& w, const ProvingKey& key) {
  check_witness_sizes(w, key);
  check_witness_densities(w.assignment, key);
}

void check_witness_sizes(const PartitionWitness& w, const ProvingKey& key) {
  const Assignment& z = w.assignment;
  if (z.inputs.size() != key.num_inputs()) {
    throw std::invalid_argument(mismatch("the number of public inputs (ONE included)", z.inputs.size(),
                                         key.num_inputs()));
  }
  if (z.aux.size() != key.num_aux()) {
    throw std::invalid_argument(mismatch("the number of aux variables", z.aux.size(), key.num_aux()));
  }
  if (w.a.size() > key.domain_size() || w.b.size() != w.a.size() || w.c.size() != w.a.size()) {
    throw std::invalid_argument(mismatch("the number of constraints", w.a.size(), key.domain_size()));
  }
}

void check_witness_densities(const Assignment& w, const ProvingKey& key) {
  if (w.a_aux_density.count() != count(key.density.a_aux) ||
      w.b_input_density.count() != count(key.density.b_input) ||
      w.b_aux_density.count() != count(key.density.b_aux)) {
    throw std::invalid_argument(
        "witness does not match the proving key: the A/B variable densities differ (another circuit?)");
  }
}

UnsatisfiedConstraint::UnsatisfiedConstraint(std::size_t index)
    : std::runtime_error("witness does not satisfy constraint " + std::to_string(index) +
                         " (a·b ≠ c); re-synthesize with r1cs::TestSystem to get its name"),
      index_(index) {}

void check_satisfied(const PartitionWitness& w) {
  std::atomic<std::size_t> first_bad{w.a.size()};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, w.a.size(), 1 << 14), [&](const auto& range) {
    for (std::size_t i = range.begin(); i < range.end(); ++i) {
      if (!(w.a[i] * w.b[i] == w.c[i])) {
        std::size_t seen = first_bad.load();
        while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
        }
        return;
      }
    }
  });
  if (first_bad.load() < w.a.size()) throw UnsatisfiedConstraint(first_bad.load());
}

Proof prove(ProverBackend& backend, PartitionWitness witness, const ProvingKey& key, const Blinding& blinding) {
  return backend.finish(backend.start(std::move(witness), key, blinding));
}

std::optional<std::size_t> device_memory_used(std::span<const std::shared_ptr<ProverBackend>> backends) {
  std::optional<std::size_t> total;
  std::set<int> counted;
  for (const auto& backend : backends) {
    const std::optional<int> ordinal = backend->device_ordinal();
    if (ordinal && !counted.insert(*ordinal).second) continue;
    if (const std::optional<std::size_t> used = backend->device_memory_used()) total = total.value_or(0) + *used;
  }
  return total;
}

}  // namespace zkpipe::groth16
