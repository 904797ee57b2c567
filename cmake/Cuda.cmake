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
  # Machine code for every current NVIDIA architecture storage providers prove on
  # (A100 8.0, RTX 30xx 8.6, RTX 40xx / L40S 8.9, H100 / H200 9.0, B200 10.0, RTX 50xx
  # 12.0) and PTX of the newest for the driver to compile on what comes next. Set
  # before enable_language so CMake keeps it. "native" is resolved here to the
  # capabilities nvidia-smi reports, so that the build knows its own list
  # (gpu/architectures.hpp); CI builds one (scripts/test.sh).
  set(zkpipe_default_cuda_architectures "80-real;86-real;89-real;90-real;100-real;120-real;120-virtual")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES "${zkpipe_default_cuda_architectures}")
  endif()
  if(CMAKE_CUDA_ARCHITECTURES STREQUAL "native")
    find_program(zkpipe_nvidia_smi nvidia-smi)
    if(zkpipe_nvidia_smi)
      execute_process(COMMAND ${zkpipe_nvidia_smi} --query-gpu=compute_cap --format=csv,noheader
                      OUTPUT_VARIABLE zkpipe_caps RESULT_VARIABLE zkpipe_smi_status ERROR_QUIET)
    endif()
    if(zkpipe_nvidia_smi AND zkpipe_smi_status EQUAL 0 AND zkpipe_caps MATCHES "[0-9]")
      string(REPLACE "." "" zkpipe_caps "${zkpipe_caps}")
      string(REGEX MATCHALL "[0-9]+" zkpipe_caps "${zkpipe_caps}")
      list(REMOVE_DUPLICATES zkpipe_caps)
      list(TRANSFORM zkpipe_caps APPEND "-real")
      set(CMAKE_CUDA_ARCHITECTURES "${zkpipe_caps}" CACHE STRING "CUDA architectures (native: this machine's GPUs)" FORCE)
    else()
      message(FATAL_ERROR "zkpipe: CMAKE_CUDA_ARCHITECTURES=native needs nvidia-smi and a GPU; "
                          "name the capabilities instead, e.g. -DCMAKE_CUDA_ARCHITECTURES=86-real")
    endif()
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
  # The list as the binary reports it (`zkpipe devices`), comma-separated so that it
  # stays one definition.
  string(REPLACE ";" "," zkpipe_cuda_architectures "${CMAKE_CUDA_ARCHITECTURES}")
  string(REPLACE ";" "," zkpipe_default_cuda_architectures "${zkpipe_default_cuda_architectures}")
  message(STATUS "zkpipe: CUDA backend ON (${CMAKE_CUDA_COMPILER}, architectures ${zkpipe_cuda_architectures})")
else()
  message(STATUS "zkpipe: CUDA backend OFF")
endif()
