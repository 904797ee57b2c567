#include "gpu/device_setup.hpp"

#include <memory>
#include <string>

#include "ec/generators.hpp"
#include "gpu/cuda_error.hpp"
#include "gpu/fixed_base.hpp"
#include "gpu/staging.hpp"

namespace zkpipe::gpu {

namespace {

template <class Curve>
groth16::PointArray<ec::Affine<Curve>> query(const DeviceFixedBase<Curve>& base, std::span<const ff::Fr> scalars,
                                             std::string_view name, int device, KeyPlacement placement,
                                             PinnedStaging& staging, cudaStream_t stream,
                                             const groth16::SetupProgress& progress) {
  auto on_chunk = [&](std::size_t done) {
    if (progress) progress(name, done, scalars.size());
  };
  DeviceBases<Curve> points = base.mul(scalars, staging, stream, on_chunk);
  if (placement == KeyPlacement::host) return points.download(stream);
  auto owner = std::make_shared<const DeviceBases<Curve>>(std::move(points));
  return {owner->size(), groth16::DevicePoints{device, owner->data()}, owner};
}

}  // namespace

groth16::ProvingKey setup_on_device(const groth16::SetupScalars& s, const groth16::ToxicWaste& t, int device,
                                    KeyPlacement placement, const groth16::SetupProgress& progress) {
  check(cudaSetDevice(device), "cudaSetDevice");
  CudaStream stream;
  PinnedStaging staging;
  const ec::FixedBaseTable<ec::G1Curve> g1_table(ec::kG1Generator);
  const ec::FixedBaseTable<ec::G2Curve> g2_table(ec::kG2Generator);
  const DeviceFixedBase<ec::G1Curve> g1(g1_table, stream.get());
  const DeviceFixedBase<ec::G2Curve> g2(g2_table, stream.get());

  groth16::ProvingKey pk;
  pk.vk = groth16::verifying_key(t, s.ic, g1_table, g2_table);
  pk.density = s.density;
  auto g1_query = [&](const std::vector<ff::Fr>& scalars, std::string_view name) {
    return query(g1, std::span<const ff::Fr>(scalars), name, device, placement, staging, stream.get(), progress);
  };
  pk.a = g1_query(s.a, "a");
  pk.b_g1 = g1_query(s.b, "b_g1");
  pk.b_g2 = query(g2, std::span<const ff::Fr>(s.b), "b_g2", device, placement, staging, stream.get(), progress);
  pk.l = g1_query(s.l, "l");
  pk.h = g1_query(s.h, "h");
  return pk;
}

}  // namespace zkpipe::gpu
