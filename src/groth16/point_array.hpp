// A contiguous, read-only array of points that owns its memory (a vector filled by
// setup or an importer), views memory owned by something else (a memory-mapped
// parameter file), or lives on a device only (a key set up there and kept there:
// the host holds no copy). The owner handle keeps the memory alive. Host provers
// see spans; asking a device-only array for one is a logic error that names the
// device, so a backend that cannot use such a key fails clearly.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace zkpipe::groth16 {

// A device-resident array's points: the device's ordinal and the points in the
// device layout (gpu/msm.hpp's AffineWords), owned by the array's owner.
struct DevicePoints {
  int device = -1;
  const void* words = nullptr;

  bool operator==(const DevicePoints&) const = default;
};

// Throws the logic_error of a host access to a device-only array.
[[noreturn]] void throw_points_on_device(int device);

template <class T>
class PointArray {
 public:
  using value_type = T;

  PointArray() = default;

  PointArray(std::vector<T> points)  // NOLINT: implicit, setup returns vectors
      : owner_(std::make_shared<std::vector<T>>(std::move(points))) {
    const auto& v = *static_cast<const std::vector<T>*>(owner_.get());
    view_ = std::span<const T>(v);
    size_ = v.size();
  }

  PointArray(std::span<const T> view, std::shared_ptr<const void> owner)
      : owner_(std::move(owner)), view_(view), size_(view.size()) {}

  PointArray(std::size_t size, DevicePoints on_device, std::shared_ptr<const void> owner)
      : owner_(std::move(owner)), device_(on_device), size_(size) {}

  // A view into a read-only file mapping that `owner` keeps: its pages become
  // resident as they are read (and may be reclaimed), which the ledger follows.
  static PointArray file_mapped(std::span<const T> view, std::shared_ptr<const void> owner) {
    PointArray points(view, std::move(owner));
    points.file_mapped_ = true;
    return points;
  }

  bool on_host() const { return !device_.has_value(); }
  bool is_file_mapped() const { return file_mapped_; }
  // Where the points are, on the host or the device: identifies the array.
  const void* address() const { return device_ ? device_->words : view_.data(); }
  const std::optional<DevicePoints>& on_device() const { return device_; }

  operator std::span<const T>() const { return span(); }  // NOLINT: a span is what MSMs take
  std::span<const T> span() const {
    require_host();
    return view_;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* data() const { return span().data(); }
  const T& operator[](std::size_t i) const { return span()[i]; }
  auto begin() const { return span().begin(); }
  auto end() const { return span().end(); }

  bool operator==(const PointArray& o) const {
    if (size() != o.size() || on_host() != o.on_host()) return false;
    if (!on_host()) return device_ == o.device_;
    return std::equal(view_.begin(), view_.end(), o.view_.begin());
  }

 private:
  void require_host() const {
    if (device_) throw_points_on_device(device_->device);
  }

  std::shared_ptr<const void> owner_;
  std::span<const T> view_;
  std::optional<DevicePoints> device_;
  std::size_t size_ = 0;
  bool file_mapped_ = false;
};

}  // namespace zkpipe::groth16
