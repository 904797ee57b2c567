// What DeviceMsm::schedule (msm_schedule.cu) leaves for the point kernels of one
// curve (msm_points.cuh): the terms cut into digits, sorted into buckets, the
// buckets ordered largest first and cut into chunks. None of it depends on the
// curve, so it is compiled once and not once per curve.
#pragma once

#include "gpu/msm.hpp"
#include "gpu/msm_shape.hpp"

namespace zkpipe::gpu {

// The chunks of the buckets, as chunk_accumulate_kernel reads them.
struct ChunkPlan {
  const std::uint32_t* order;      // buckets, largest first
  const std::uint32_t* chunk_end;  // per position in that order
  std::uint32_t buckets;
  std::uint32_t chunk_len;
  std::uint32_t split_chunks;  // chunks of the buckets cut into more than one
};

struct MsmSchedule {
  // Terms through the buckets (scalars other than 0 and 1); the rest of the fields
  // hold only when there are some.
  std::uint32_t general_terms = 0;
  std::uint32_t ones = 0;  // terms of scalar 1
  msm_shape::ScratchCounts counts{};
  // The entries' values (point index and sign) in bucket order, in one of the sort's
  // two buffers.
  const std::uint32_t* sorted_values = nullptr;
  ChunkPlan plan{};
  std::uint32_t chunks = 0;  // of all buckets
};

}  // namespace zkpipe::gpu
