# What keeps a clean build short (CI's: every target on 2 cores, twice with the
# sanitizers) without changing what is built or tested.

# Precompiled headers for the test programs and the command line: GoogleTest, CLI11 and
# the standard headers nearly every one of their files includes were parsed again for
# each of them. (Compiling these files at -O1 instead was tried and undone: the linker
# may keep their copies of the header-defined field arithmetic instead of the
# libraries' -O3 ones, and the proving tests ran slower: cli.filecoin 743 s against
# 498 s, though with other compiles sharing the machine in that run.)
option(ZKPIPE_PCH "Precompile the common headers of the test programs and the command line" ON)

# zkpipe_precompile(TARGET HEADER...): TARGET's C++ files (not its CUDA ones) get the
# system HEADERs precompiled, once for the target.
function(zkpipe_precompile target)
  if(NOT ZKPIPE_PCH)
    return()
  endif()
  set(headers)
  foreach(h IN LISTS ARGN)
    list(APPEND headers "$<$<COMPILE_LANGUAGE:CXX>:<${h}$<ANGLE-R>>")
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

set(zkpipe_common_std_headers
    algorithm array chrono cstdint filesystem fstream functional map memory mutex optional random span
    stdexcept string string_view thread vector)

# Unity builds of the test programs, the command line and the upper layers (circuits,
# formats, proving, service): their files include the same header-defined field and
# curve arithmetic, gRPC stubs and GoogleTest, and each file instantiated and
# optimized them again (four of test_ec's files: 135 s of compiler apart, 52 s as one
# translation unit). The arithmetic, the prover and the engine stay a file per unit:
# what they inline is what the benchmarks measure.
option(ZKPIPE_UNITY "Compile the test programs and the command line a batch of files per translation unit" ON)
set(ZKPIPE_UNITY_BATCH 8 CACHE STRING "Files per translation unit of a unity build")

# zkpipe_unity(TARGET): TARGET's C++ files (not its CUDA ones) a batch at a time.
function(zkpipe_unity target)
  if(ZKPIPE_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${ZKPIPE_UNITY_BATCH})
  endif()
endfunction()
