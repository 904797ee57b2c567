// Host memory registered with the CUDA driver: page-locked where it is and mapped into
// the devices' address space. A streamed key's points and a streamed evaluator's
// matrices are read from it at every partition; registered, the copy engines move
// them without a staging copy on the host's cores and kernels gather from them over
// the link (zero-copy), so streaming runs at the link's speed instead of the speed
// at which host threads can convert and copy.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace zkpipe::gpu {

// How a device backend reads host memory it streams at every partition: registered
// in place where the driver allows (page-locked: the pages stay in RAM while
// registered), or through pinned staging chunks that host threads fill.
enum class HostStreaming { registered, staged };

class HostRegistration {
 public:
  struct Range {
    const void* data = nullptr;
    std::size_t bytes = 0;
  };

  HostRegistration() = default;
  // Registers the pages under `ranges` (rounded out to whole pages, merged where they
  // meet), read-only, so that a read-only file mapping (a key or evaluator file)
  // qualifies, for every device. When the driver refuses one (no support, a page
  // already registered by someone else, out of resources) none stays registered and
  // failure() says why: the caller goes on through staging.
  explicit HostRegistration(std::span<const Range> ranges);
  ~HostRegistration();
  HostRegistration(HostRegistration&& other) noexcept;
  HostRegistration& operator=(HostRegistration&& other) noexcept;
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;

  bool registered() const { return !regions_.empty(); }
  const std::string& failure() const { return failure_; }
  // Page-locked bytes (whole pages).
  std::size_t bytes() const;

  // The device address of [p, p + count) when the whole of it is registered, else null.
  template <class T>
  const T* device_pointer(const T* p, std::size_t count) const {
    return static_cast<const T*>(device_address(p, count * sizeof(T)));
  }

 private:
  struct Region {
    std::byte* host_begin;
    std::byte* host_end;
    std::byte* device_begin;
  };
  const void* device_address(const void* p, std::size_t bytes) const;
  void unregister_all() noexcept;

  std::vector<Region> regions_;
  std::string failure_;
};

}  // namespace zkpipe::gpu
