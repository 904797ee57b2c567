// The test-only Groth16 setup (groth16/setup.hpp) with its bulk multiplications on a
// device: the same scalars, the same key point for point. The verifying key's few
// points are made on the host.
//
// KeyPlacement::device keeps the five queries on the device, where the CUDA
// prover reads them in place, and the host holds none of their bytes: the way a
// 2^27-constraint key (~47 GiB of points) is proved with on a host whose disk and
// memory could not also hold a file and a host copy of it. KeyPlacement::host
// downloads them (what `zkpipe setup --backend cuda` writes to a file).
#pragma once

#include "groth16/keys.hpp"
#include "groth16/setup.hpp"

namespace zkpipe::gpu {

enum class KeyPlacement { host, device };

groth16::ProvingKey setup_on_device(const groth16::SetupScalars& scalars, const groth16::ToxicWaste& secrets,
                                    int device, KeyPlacement placement,
                                    const groth16::SetupProgress& progress = {});

}  // namespace zkpipe::gpu
