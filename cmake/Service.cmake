# The proving service (src/service, `zkpipe serve` / `zkpipe client`): gRPC and
# protobuf (code generated from proto/zkpipe/v1/zkpipe.proto), SQLite, libpqxx (the
# cluster's PostgreSQL queue), toml++ and cpp-httplib, all from Debian
# (scripts/install-deps.sh). Built when every one is
# found; otherwise skipped with a message naming what is missing, so that the core
# still builds where they are not installed (the GPU host has no package registry).
option(ZKPIPE_SERVICE "Build the proving service (zkpipe serve / client) when its dependencies are found" ON)
set(ZKPIPE_WITH_SERVICE OFF)
if(NOT ZKPIPE_SERVICE)
  return()
endif()

find_package(PkgConfig)
find_program(ZKPIPE_PROTOC protoc)
find_program(ZKPIPE_GRPC_CPP_PLUGIN grpc_cpp_plugin)
set(zkpipe_service_missing "")
if(PKG_CONFIG_FOUND)
  foreach(module grpc++ protobuf sqlite3 libpqxx tomlplusplus cpp-httplib)
    string(MAKE_C_IDENTIFIER ${module} var)
    pkg_check_modules(ZKPIPE_PC_${var} QUIET IMPORTED_TARGET ${module})
    if(NOT ZKPIPE_PC_${var}_FOUND)
      list(APPEND zkpipe_service_missing ${module})
    endif()
  endforeach()
else()
  list(APPEND zkpipe_service_missing pkg-config)
endif()
if(NOT ZKPIPE_PROTOC)
  list(APPEND zkpipe_service_missing protoc)
endif()
if(NOT ZKPIPE_GRPC_CPP_PLUGIN)
  list(APPEND zkpipe_service_missing grpc_cpp_plugin)
endif()
# Server reflection (libgrpc++-dev ships the library without a pkg-config file).
find_library(ZKPIPE_GRPCPP_REFLECTION grpc++_reflection)
if(NOT ZKPIPE_GRPCPP_REFLECTION)
  list(APPEND zkpipe_service_missing grpc++_reflection)
endif()
if(zkpipe_service_missing)
  message(WARNING "zkpipe: the proving service is not built; missing: ${zkpipe_service_missing} "
                  "(scripts/install-deps.sh installs them)")
  return()
endif()
set(ZKPIPE_WITH_SERVICE ON)
message(STATUS "zkpipe: proving service ON")

# Generated code: zkpipe/v1/zkpipe.{pb,grpc.pb}.{h,cc} and cuzk/v1/proving.{pb,grpc.pb}.{h,cc}
# (the cuzk API, served beside zkpipe's) under the build tree.
set(zkpipe_proto_dir ${CMAKE_SOURCE_DIR}/proto)
set(zkpipe_gen ${CMAKE_BINARY_DIR}/generated)
set(zkpipe_gen_srcs)
foreach(zkpipe_proto_name zkpipe/v1/zkpipe cuzk/v1/proving grpc/reflection/v1/reflection)
  set(zkpipe_proto ${zkpipe_proto_dir}/${zkpipe_proto_name}.proto)
  set(zkpipe_proto_out ${zkpipe_gen}/${zkpipe_proto_name}.pb.cc ${zkpipe_gen}/${zkpipe_proto_name}.grpc.pb.cc
                       ${zkpipe_gen}/${zkpipe_proto_name}.pb.h ${zkpipe_gen}/${zkpipe_proto_name}.grpc.pb.h)
  add_custom_command(
    OUTPUT ${zkpipe_proto_out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${zkpipe_gen}
    COMMAND ${ZKPIPE_PROTOC} --proto_path=${zkpipe_proto_dir} --cpp_out=${zkpipe_gen} --grpc_out=${zkpipe_gen}
            --plugin=protoc-gen-grpc=${ZKPIPE_GRPC_CPP_PLUGIN} ${zkpipe_proto}
    DEPENDS ${zkpipe_proto}
    COMMENT "protoc: ${zkpipe_proto_name}.proto"
    VERBATIM)
  list(APPEND zkpipe_gen_srcs ${zkpipe_gen}/${zkpipe_proto_name}.pb.cc ${zkpipe_gen}/${zkpipe_proto_name}.grpc.pb.cc)
endforeach()
add_library(zkpipe_proto STATIC ${zkpipe_gen_srcs})
target_include_directories(zkpipe_proto SYSTEM PUBLIC ${zkpipe_gen})
target_link_libraries(zkpipe_proto PUBLIC PkgConfig::ZKPIPE_PC_grpc__ PkgConfig::ZKPIPE_PC_protobuf)

file(GLOB_RECURSE zkpipe_service_srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/service/*.cpp)
add_library(zkpipe_service STATIC ${zkpipe_service_srcs})
target_include_directories(zkpipe_service PUBLIC ${CMAKE_SOURCE_DIR}/src)
target_compile_options(zkpipe_service PRIVATE -Wall -Wextra)
zkpipe_unity(zkpipe_service)
target_link_libraries(zkpipe_service PUBLIC zkpipe_core zkpipe_proto PkgConfig::ZKPIPE_PC_sqlite3 PkgConfig::ZKPIPE_PC_libpqxx
                      PkgConfig::ZKPIPE_PC_tomlplusplus PkgConfig::ZKPIPE_PC_cpp_httplib ${ZKPIPE_GRPCPP_REFLECTION})
