// How much device memory a key's points take and a partition needs, from the key's
// query sizes alone: what CudaProver places keys by, and what `zkpipe circuit info
// --device-memory` tells before any key exists.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "groth16/footprint.hpp"
#include "groth16/keys.hpp"

namespace zkpipe::gpu {

struct KeyQuerySizes {
  std::size_t domain = 0;  // N
  std::size_t inputs = 0;  // ONE included
  std::size_t a = 0;
  std::size_t b_g1 = 0;
  std::size_t b_g2 = 0;
  std::size_t l = 0;
  std::size_t h = 0;

  static KeyQuerySizes of(const groth16::ProvingKey& key);
  // A key set up for this shape: A over the inputs and the dense aux, B over its dense
  // inputs and aux (G1 and G2), L over the aux, H of N − 1 points.
  static KeyQuerySizes of(const groth16::CircuitShape& shape);
};

// The key's points on the device: G1 A, B, L, H, and G2 B when the G2 MSM runs there.
std::size_t resident_point_bytes(const KeyQuerySizes& k, bool g2_on_device);

// The working vectors of a partition, lean (CudaProver keeps aux and the query
// scalars in b's and c's buffers after the h step): a, b, c, each grown to what it
// holds, and the NTT's tables.
std::size_t working_bytes(const KeyQuerySizes& k);

// The least a partition needs: its working vectors and the smallest streamed MSM
// (two chunk buffers each for the G1 and the G2 sums, one sum's scratch).
std::size_t least_device_bytes(const KeyQuerySizes& k);

// Whether a deferred witness's evaluator (evaluator_bytes on the device) stays
// resident: when it fits beside the least a partition needs, and the margin
// device_memory_margin(available), in `available`; otherwise its matrices are
// streamed at every partition. It is placed before the key's points: resident, it
// saves a byte of transfer per byte, the points only their non-zero terms'.
bool evaluator_fits(const KeyQuerySizes& k, std::size_t evaluator_bytes, std::size_t available);

// What keeping the points resident needs of `available` bytes: the points, the
// scratch of the largest MSM pass (at most msm_pass_terms terms), the working
// vectors and the margin device_memory_margin(available).
std::size_t resident_need(const KeyQuerySizes& k, std::size_t msm_pass_terms, bool g2_on_device,
                          std::size_t available);

// Below this many terms per pass, halving the passes frees too little scratch to
// be worth the extra passes.
inline constexpr std::size_t kMinMsmPassTerms = std::size_t{1} << 22;

// The most terms per MSM pass, halving from max_pass_terms down to
// kMinMsmPassTerms, with which the points stay resident in `available` bytes
// (resident_need); nothing when even the smallest passes leave them no room. On an
// 80 GB card a 32 GiB PoRep's points fit with passes of 2^23 terms, not 2^26.
std::optional<std::size_t> resident_pass_terms(const KeyQuerySizes& k, std::size_t max_pass_terms, bool g2_on_device,
                                               std::size_t available);

// Which of a key's queries stay on the device.
struct QueryResidency {
  bool a = false;
  bool b_g1 = false;
  bool b_g2 = false;
  bool l = false;
  bool h = false;
  // Terms per MSM pass over the resident queries.
  std::size_t msm_pass_terms = 0;

  bool any() const { return a || b_g1 || b_g2 || l || h; }
  // Every query the device sums (G2 B only when the G2 MSM runs there).
  bool all(bool g2_on_device) const { return a && b_g1 && l && h && (b_g2 || !g2_on_device); }
  // Bytes of the resident queries' points.
  std::size_t bytes(const KeyQuerySizes& k) const;
  // "L, A", or "none".
  std::string names() const;
};

// Device memory kept for a partly streamed key's chunks beyond the smallest: a
// streamed sum in chunks of 2^16 points pays its per-chunk work (window sums read
// back, Horner on the host) thousands of times at 2^27. An eighth of the points, at
// most 2 GiB.
std::size_t streamed_chunk_reserve(const KeyQuerySizes& k, bool g2_on_device);

// What stays resident in `available` bytes. Every query, with passes as long as
// fit (resident_pass_terms); otherwise, beside the least a partition needs, the
// margin, streamed_chunk_reserve and the scratch of passes of kMinMsmPassTerms, the
// queries that save the most transfer time per byte first, each that fits: L, A,
// B (G1), B (G2). Their MSMs are cheap (a witness's scalars are mostly 0 and 1), so a
// streamed one costs about its transfer; H's scalars are full-width and its MSM
// takes several times its transfer, which it hides, so H stays only with the rest.
QueryResidency plan_query_residency(const KeyQuerySizes& k, std::size_t max_pass_terms, bool g2_on_device,
                                    std::size_t available);

}  // namespace zkpipe::gpu
