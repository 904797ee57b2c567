// HostRegistration (host memory registered in place) and the device's gather of
// points from it, against the host's own conversion into the device layout: heap
// memory and a read-only file mapping (how a key file is held), G1 and G2, runs and
// indices, points at infinity.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <span>
#include <vector>

#include "ec/msm/testing.hpp"
#include "gpu/cuda_error.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/host_registration.hpp"
#include "gpu/mapped_points.hpp"
#include "gpu/msm.hpp"
#include "gpu_test_env.hpp"
#include "io/file_mapping.hpp"
#include "io/temp_dir.hpp"

namespace zkpipe::gpu {
namespace {

template <class T>
HostRegistration register_span(std::span<const T> s) {
  const HostRegistration::Range range{s.data(), s.size_bytes()};
  return HostRegistration(std::span(&range, 1));
}

template <class Curve>
std::vector<AffineWords<Curve>> download(const DeviceBuffer<AffineWords<Curve>>& d, std::size_t n) {
  std::vector<AffineWords<Curve>> out(n);
  check(cudaMemcpy(out.data(), d.data(), n * sizeof(AffineWords<Curve>), cudaMemcpyDeviceToHost), "download");
  return out;
}

template <class Curve>
bool same_words(const std::vector<AffineWords<Curve>>& x, const std::vector<AffineWords<Curve>>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(AffineWords<Curve>)) == 0;
}

// A run from `first` and a sorted sparse selection, gathered by the device from the
// registered points, equal the host's conversion of the same points.
template <class Curve>
void expect_gather_equals_host(std::span<const ec::Affine<Curve>> points, const HostRegistration& registered) {
  const ec::Affine<Curve>* mapped = registered.device_pointer(points.data(), points.size());
  ASSERT_NE(mapped, nullptr);
  const std::size_t first = 17;
  const std::size_t run = points.size() - first - 5;
  DeviceBuffer<AffineWords<Curve>> out(points.size());
  gather_mapped_points(mapped, nullptr, first, run, out.data(), nullptr);
  std::vector<AffineWords<Curve>> want(run);
  to_device_words(points.subspan(first, run), want.data());
  EXPECT_TRUE(same_words(download(out, run), want)) << "a run of " << run << " from " << first;

  std::mt19937_64 rng(7);
  std::vector<std::uint32_t> indices;
  for (std::uint32_t i = 0; i < points.size(); ++i) {
    if (rng() % 3 != 0) indices.push_back(i);
  }
  DeviceBuffer<std::uint32_t> d_indices(indices.size());
  check(cudaMemcpy(d_indices.data(), indices.data(), indices.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice),
        "indices");
  gather_mapped_points(mapped, d_indices.data(), 0, indices.size(), out.data(), nullptr);
  std::vector<AffineWords<Curve>> gathered(indices.size());
  gather_device_words(points, std::span<const std::uint32_t>(indices), gathered.data());
  EXPECT_TRUE(same_words(download(out, indices.size()), gathered)) << indices.size() << " indexed points";
}

template <class Curve>
std::vector<ec::Affine<Curve>> points_with_infinities(std::size_t n, std::uint64_t seed) {
  auto points = ec::msm_testing::random_points<Curve>(n, seed);
  for (std::size_t i = 0; i < n; i += 7) points[i] = ec::Affine<Curve>::identity();
  return points;
}

TEST(HostRegistration, DeviceGathersHeapPointsAsTheHostConvertsThem) {
  ZKPIPE_REQUIRE_GPU();
  const auto g1 = points_with_infinities<ec::G1Curve>(3001, 1);
  const auto g2 = points_with_infinities<ec::G2Curve>(1003, 2);
  const HostRegistration r1 = register_span(std::span(g1));
  const HostRegistration r2 = register_span(std::span(g2));
  ASSERT_TRUE(r1.registered()) << r1.failure();
  ASSERT_TRUE(r2.registered()) << r2.failure();
  expect_gather_equals_host<ec::G1Curve>(g1, r1);
  expect_gather_equals_host<ec::G2Curve>(g2, r2);
}

// A key file is mapped read-only: registered read-only, the device reads it in place.
TEST(HostRegistration, DeviceGathersFromAReadOnlyFileMapping) {
  ZKPIPE_REQUIRE_GPU();
  const auto points = points_with_infinities<ec::G1Curve>(5000, 3);
  const io::testing::TempDir dir;
  const auto path = dir.path() / "points.bin";
  // An offset that is not a page's start, as a section inside a key file.
  const std::size_t offset = 40;
  {
    std::ofstream out(path, std::ios::binary);
    const std::vector<char> header(offset, 'h');
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    out.write(reinterpret_cast<const char*>(points.data()),
              static_cast<std::streamsize>(points.size() * sizeof(points[0])));
  }
  const auto mapping = io::FileMapping::open(path);
  const std::span<const ec::Affine<ec::G1Curve>> mapped_points(
      reinterpret_cast<const ec::Affine<ec::G1Curve>*>(mapping->bytes().data() + offset), points.size());
  const HostRegistration registered = register_span(mapped_points);
  ASSERT_TRUE(registered.registered()) << registered.failure();
  expect_gather_equals_host<ec::G1Curve>(mapped_points, registered);
}

// Ranges that share pages are merged into one registration; an address outside
// every range, or a span running past one, has no device address; pages registered
// already are refused with a reason, leaving the first registration whole.
TEST(HostRegistration, MergesRangesAndRefusesPagesRegisteredTwice) {
  ZKPIPE_REQUIRE_GPU();
  std::vector<std::uint64_t> words(1 << 16, 5);
  const HostRegistration::Range halves[] = {{words.data(), 1000 * sizeof(std::uint64_t)},
                                            {words.data() + 1000, (words.size() - 1000) * sizeof(std::uint64_t)}};
  HostRegistration registered(halves);
  ASSERT_TRUE(registered.registered()) << registered.failure();
  EXPECT_GE(registered.bytes(), words.size() * sizeof(std::uint64_t));
  EXPECT_NE(registered.device_pointer(words.data() + 999, 2), nullptr) << "across the two ranges";
  EXPECT_EQ(registered.device_pointer(words.data() + words.size() - 1, 1 << 20), nullptr) << "past the end";
  const std::uint64_t elsewhere = 0;
  EXPECT_EQ(registered.device_pointer(&elsewhere, 1), nullptr);

  const HostRegistration again = register_span(std::span<const std::uint64_t>(words).subspan(100, 10));
  EXPECT_FALSE(again.registered());
  EXPECT_NE(again.failure().find("cudaHostRegister"), std::string::npos) << again.failure();

  // Moved, it stays registered once: the moved-from one unregisters nothing.
  HostRegistration moved = std::move(registered);
  EXPECT_TRUE(moved.registered());
  EXPECT_FALSE(registered.registered());
  const std::uint64_t* device = moved.device_pointer(words.data(), words.size());
  ASSERT_NE(device, nullptr);
  std::uint64_t read = 0;
  check(cudaMemcpy(&read, device + 123, sizeof(read), cudaMemcpyDefault), "read through the device address");
  EXPECT_EQ(read, 5u);
}

}  // namespace
}  // namespace zkpipe::gpu
