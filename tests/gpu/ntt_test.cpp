// Device NTTs and the h step against poly/ntt.hpp and compute_h_in_place, bit for bit.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/h_query.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/ntt.hpp"
#include "gpu_test_env.hpp"
#include "poly/ntt.hpp"

namespace zkpipe::gpu {
namespace {

using ff::Fr;
using poly::NttOrder;

std::vector<Fr> random_vector(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(rng);
  return v;
}

class DeviceVector {
 public:
  explicit DeviceVector(const std::vector<Fr>& v) : size_(v.size()), buffer_(v.size()) {
    check(cudaMemcpy(buffer_.data(), v.data(), v.size() * sizeof(Fr), cudaMemcpyHostToDevice), "upload");
  }
  Fr* data() { return buffer_.data(); }
  std::vector<Fr> read() const {
    check(cudaDeviceSynchronize(), "sync");
    std::vector<Fr> v(size_);
    check(cudaMemcpy(v.data(), buffer_.data(), size_ * sizeof(Fr), cudaMemcpyDeviceToHost), "download");
    return v;
  }

 private:
  std::size_t size_;
  DeviceBuffer<Fr> buffer_;
};

using HostTransform = void (*)(const poly::EvaluationDomain&, std::span<Fr>, NttOrder);
using DeviceTransform = void (DeviceNtt::*)(Fr*, NttOrder, cudaStream_t) const;

struct Transform {
  const char* name;
  HostTransform host;
  DeviceTransform device;
};

const Transform kTransforms[] = {
    {"forward", poly::forward_ntt, &DeviceNtt::forward},
    {"inverse", poly::inverse_ntt, &DeviceNtt::inverse},
    {"coset_forward", poly::coset_forward_ntt, &DeviceNtt::coset_forward},
    {"coset_inverse", poly::coset_inverse_ntt, &DeviceNtt::coset_inverse},
};

const NttOrder kOrders[] = {NttOrder::natural_to_natural, NttOrder::natural_to_bit_reversed,
                            NttOrder::bit_reversed_to_natural};

// Every transform in every order on the device equals the host's on the same input.
void expect_every_transform_matches_host(const DeviceNtt& ntt, const poly::EvaluationDomain& domain,
                                         const std::vector<Fr>& input, const std::string& label) {
  for (const Transform& t : kTransforms) {
    for (NttOrder order : kOrders) {
      std::vector<Fr> expected = input;
      t.host(domain, expected, order);
      DeviceVector v(input);
      (ntt.*t.device)(v.data(), order, nullptr);
      EXPECT_EQ(v.read(), expected) << t.name << " order " << static_cast<int>(order) << " " << label;
    }
  }
}

class GpuNtt : public ::testing::TestWithParam<unsigned> {};

TEST_P(GpuNtt, EveryTransformAndOrderMatchesHost) {
  ZKPIPE_REQUIRE_GPU();
  const unsigned lg = GetParam();
  const poly::EvaluationDomain domain(std::size_t{1} << lg);
  const DeviceNtt ntt(domain);
  const std::vector<Fr> input = random_vector(domain.size(), lg);
  expect_every_transform_matches_host(ntt, domain, input, "lg " + std::to_string(lg));
}

// Tile-sized, one pass; two passes; three passes with columns.
INSTANTIATE_TEST_SUITE_P(Sizes, GpuNtt, ::testing::Values(0u, 1u, 2u, 5u, 11u, 12u, 16u, 19u, 21u));

// Every pass tile: the reversing last pass changes shape with the tile.
TEST(GpuNtt, EveryTileMatchesHost) {
  ZKPIPE_REQUIRE_GPU();
  for (unsigned lg : {3u, 9u, 14u}) {
    const poly::EvaluationDomain domain(std::size_t{1} << lg);
    const std::vector<Fr> input = random_vector(domain.size(), 100 + lg);
    for (unsigned tile = 4; tile <= DeviceNtt::kMaxTileLog; ++tile) {
      const DeviceNtt ntt(domain, tile);
      expect_every_transform_matches_host(ntt, domain, input,
                                          "lg " + std::to_string(lg) + " tile " + std::to_string(tile));
    }
  }
}

// Past the tables' stages the passes compute their twiddles from powers of ω: with
// few table stages (none, one, some) every pass, the reversing one included, does.
TEST(GpuNtt, ComputedTwiddlesMatchHost) {
  ZKPIPE_REQUIRE_GPU();
  for (unsigned lg : {4u, 13u, 17u}) {
    const poly::EvaluationDomain domain(std::size_t{1} << lg);
    const std::vector<Fr> input = random_vector(domain.size(), 200 + lg);
    for (unsigned stages : {0u, 1u, 5u, 11u}) {
      const DeviceNtt ntt(domain, 6, stages);
      expect_every_transform_matches_host(ntt, domain, input,
                                          "lg " + std::to_string(lg) + " table stages " + std::to_string(stages));
    }
  }
}

TEST(GpuNtt, TableBytesShrinkPastTheTableStages) {
  EXPECT_LT(DeviceNtt::table_bytes(27), std::size_t{300} << 20);
  // Every stage from tables: the two directions' N entries dominate.
  EXPECT_GT(DeviceNtt::table_bytes(27, 27), std::size_t{8} << 30);
}

void check_h(groth16::HQuery query, unsigned lg, std::size_t used) {
  const std::size_t n = std::size_t{1} << lg;
  std::vector<Fr> a = random_vector(used, 10 + lg);
  std::vector<Fr> b = random_vector(used, 20 + lg);
  std::vector<Fr> c = random_vector(used, 30 + lg);
  std::vector<Fr> padded_a = a, padded_b = b, padded_c = c;
  padded_a.resize(n);
  padded_b.resize(n);
  padded_c.resize(n);
  DeviceVector da(padded_a), db(padded_b), dc(padded_c);
  const DeviceNtt ntt(groth16::h_query_domain(query, n));
  ntt.h_scalars(da.data(), db.data(), dc.data(), query == groth16::HQuery::kMonomial, nullptr);
  groth16::compute_h_in_place(a, b, c, n, query);
  EXPECT_EQ(da.read(), a) << "lg " << lg;
}

TEST(GpuH, MonomialMatchesComputeHInPlace) {
  ZKPIPE_REQUIRE_GPU();
  check_h(groth16::HQuery::kMonomial, 3, 5);
  check_h(groth16::HQuery::kMonomial, 12, 3000);
  check_h(groth16::HQuery::kMonomial, 20, (1 << 20) - 7);
}

TEST(GpuH, SnarkjsOddCosetMatchesComputeHInPlace) {
  ZKPIPE_REQUIRE_GPU();
  check_h(groth16::HQuery::kSnarkjsOddCoset, 10, 1000);
  check_h(groth16::HQuery::kSnarkjsOddCoset, 17, 1 << 17);
}

}  // namespace
}  // namespace zkpipe::gpu
