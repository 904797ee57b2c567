#include "gpu/device_query.hpp"

#include <cuda_runtime.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <string>

#include "gpu/cuda_error.hpp"
#include "gpu/scoped_device.hpp"

namespace zkpipe::gpu {

namespace {

// An empty kernel whose attributes tell which of the build's code the driver loads
// for a device, or that there is none it can run.
__global__ void code_probe_kernel() {}

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// "16.0 GT/s PCIe" → 4: the generation of a lane rate.
int pcie_generation(const std::string& speed) {
  const double gts = std::atof(speed.c_str());
  if (gts >= 60) return 6;
  if (gts >= 30) return 5;
  if (gts >= 15) return 4;
  if (gts >= 7) return 3;
  if (gts >= 4) return 2;
  return gts > 0 ? 1 : 0;
}

void read_pcie_link(int ordinal, DeviceProfile& profile) {
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  std::string id = bus_id;
  for (char& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // The driver writes an 8-digit domain ("00000000:3b:00.0"); sysfs names use 4.
  if (const auto colon = id.find(':'); colon != std::string::npos && colon > 4) id = id.substr(colon - 4);
  const std::string dir = "/sys/bus/pci/devices/" + id + "/";
  profile.pcie_generation = pcie_generation(read_line(dir + "current_link_speed"));
  profile.pcie_width = std::atoi(read_line(dir + "current_link_width").c_str());
}

}  // namespace

DeviceCount count_devices() {
  DeviceCount out;
  const cudaError_t code = cudaGetDeviceCount(&out.count);
  if (code != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error
    out.count = 0;
    out.error = cudaGetErrorString(code);
  }
  return out;
}

DeviceProfile query_profile(int ordinal) {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, ordinal), "cudaGetDeviceProperties");
  DeviceProfile p;
  p.name = prop.name;
  p.major = prop.major;
  p.minor = prop.minor;
  p.multiprocessors = prop.multiProcessorCount;
  p.memory_bytes = prop.totalGlobalMem;
  p.shared_per_block_optin = prop.sharedMemPerBlockOptin;
  p.max_threads_per_block = prop.maxThreadsPerBlock;
  p.max_threads_per_multiprocessor = prop.maxThreadsPerMultiProcessor;
  p.registers_per_multiprocessor = prop.regsPerMultiprocessor;
  p.registers_per_block = prop.regsPerBlock;
  read_pcie_link(ordinal, p);
  return p;
}

std::size_t device_free_bytes(int ordinal) {
  ScopedDevice scope(ordinal);
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  return free_bytes;
}

std::optional<CodeTarget> code_for_device(int ordinal) {
  cudaFuncAttributes attributes{};
  cudaError_t code = cudaSuccess;
  {
    ScopedDevice scope(ordinal);
    code = cudaFuncGetAttributes(&attributes, code_probe_kernel);
  }
  if (code == cudaErrorNoKernelImageForDevice || code == cudaErrorInvalidDeviceFunction ||
      code == cudaErrorUnsupportedPtxVersion) {
    cudaGetLastError();
    return std::nullopt;
  }
  check(code, "cudaFuncGetAttributes");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, ordinal), "cudaGetDeviceProperties");
  if (auto target = target_for(built_architectures(), prop.major, prop.minor)) return target;
  // A list the rules do not cover (a native build): what the driver loaded.
  CodeTarget loaded;
  loaded.major = attributes.binaryVersion / 10;
  loaded.minor = attributes.binaryVersion % 10;
  loaded.machine_code = true;
  return loaded;
}

}  // namespace zkpipe::gpu
