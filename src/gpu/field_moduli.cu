// The device fields' moduli are written out in field.cuh (device code cannot read the
// host's std::array constants without relaxed constexpr). This unit checks them, at
// compile time, against the host's ff::FpParams / ff::FrParams: values move between
// host and device as raw Montgomery limbs, so the two must be the same prime.
#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gpu/field.cuh"

namespace zkpipe::gpu {
namespace {

#ifndef __CUDA_ARCH__
template <class Device, class HostParams>
constexpr bool same_modulus() {
  if (static_cast<std::size_t>(Device::kLimbs64) != HostParams::kModulus.size()) return false;
  for (int i = 0; i < Device::kLimbs64; ++i) {
    if (Device::limb64(i) != HostParams::kModulus[static_cast<std::size_t>(i)]) return false;
  }
  return true;
}

static_assert(same_modulus<FrModulus, ff::FrParams>(), "device Fr modulus differs from the host's");
static_assert(same_modulus<FpModulus, ff::FpParams>(), "device Fp modulus differs from the host's");
#endif

}  // namespace
}  // namespace zkpipe::gpu
