# CUDA switch: ON when an nvcc is found, unless the user says otherwise.
include(CheckLanguage)
check_language(CUDA)
if(CMAKE_CUDA_COMPILER)
  set(zkpipe_cuda_default ON)
else()
  set(zkpipe_cuda_default OFF)
endif()
option(ZKPIPE_CUDA "Build the CUDA backend" ${zkpipe_cuda_default})
if(ZKPIPE_CUDA)
  # Hopper (H100 / H200) by default; set before enable_language so CMake keeps it.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90a)
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  # CMake 3.25 does not know how nvcc 13 spells the C++20 dialect.
  if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)

  # Flags of every CUDA target (src/gpu, bench/gpu).
  set(zkpipe_cuda_flags
      $<$<COMPILE_LANGUAGE:CUDA>:-diag-suppress=1675>  # the host headers' "#pragma GCC unroll"
      $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
      $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
  message(STATUS "zkpipe: CUDA backend ON (${CMAKE_CUDA_COMPILER}, sm_${CMAKE_CUDA_ARCHITECTURES})")
else()
  message(STATUS "zkpipe: CUDA backend OFF")
endif()
