// A contiguous, read-only array of points that either owns its memory (a vector
// filled by setup or an importer) or views memory owned by something else (a
// memory-mapped parameter file), kept alive by a shared owner handle. Provers only
// see spans, so they do not care which.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace zkpipe::groth16 {

template <class T>
class PointArray {
 public:
  PointArray() = default;

  PointArray(std::vector<T> points)  // NOLINT: implicit, setup returns vectors
      : owner_(std::make_shared<std::vector<T>>(std::move(points))) {
    const auto& v = *static_cast<const std::vector<T>*>(owner_.get());
    view_ = std::span<const T>(v);
  }

  PointArray(std::span<const T> view, std::shared_ptr<const void> owner)
      : owner_(std::move(owner)), view_(view) {}

  operator std::span<const T>() const { return view_; }  // NOLINT: a span is what MSMs take
  std::span<const T> span() const { return view_; }
  std::size_t size() const { return view_.size(); }
  bool empty() const { return view_.empty(); }
  const T* data() const { return view_.data(); }
  const T& operator[](std::size_t i) const { return view_[i]; }
  auto begin() const { return view_.begin(); }
  auto end() const { return view_.end(); }

  bool operator==(const PointArray& o) const {
    return size() == o.size() && std::equal(begin(), end(), o.begin());
  }

 private:
  std::shared_ptr<const void> owner_;
  std::span<const T> view_;
};

}  // namespace zkpipe::groth16
