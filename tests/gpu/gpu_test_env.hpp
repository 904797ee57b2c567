// GPU tests skip, rather than fail, on machines without a CUDA device (CI).
#pragma once

#include <gtest/gtest.h>

#include "gpu/cuda_error.hpp"

#define ZKPIPE_REQUIRE_GPU()                                             \
  do {                                                                   \
    if (::zkpipe::gpu::device_count() == 0) GTEST_SKIP() << "no CUDA device"; \
  } while (0)
