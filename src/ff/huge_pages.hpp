// Transparent huge pages for large, freshly allocated arrays.
//
// A prover touches its big arrays (key points, witness vectors, MSM scratch) once,
// right after allocating them. With 4 KiB pages every first touch of a page is a page
// fault — tens of thousands for a 2^16 circuit, a measurable share of a short proof on
// a virtual machine. Asking for transparent huge pages (honoured in the kernel's
// common "madvise" THP mode) cuts that by up to 512×. Purely advisory: where THP is
// off, nothing changes.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace zkpipe::ff {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// Advises the 2 MiB-aligned part of [data, data + bytes).
inline void advise_huge_pages(const void* data, std::size_t bytes) {
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  const std::uintptr_t last = (begin + bytes) & ~(kHugePageBytes - 1);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

// Gives an empty vector untouched storage for n elements, advised, when that is large
// enough to matter (only an empty vector's new storage is certainly untouched).
template <class T>
void reserve_on_huge_pages(std::vector<T>& v, std::size_t n) {
  if (!v.empty() || n * sizeof(T) < kHugePageBytes) return;
  v.reserve(n);
  advise_huge_pages(v.data(), n * sizeof(T));
}

// v.resize(n) and v.assign(n, value) with the new storage advised first.
template <class T>
void resize_on_huge_pages(std::vector<T>& v, std::size_t n) {
  reserve_on_huge_pages(v, n);
  v.resize(n);
}

template <class T>
void assign_on_huge_pages(std::vector<T>& v, std::size_t n, const T& value) {
  reserve_on_huge_pages(v, n);
  v.assign(n, value);
}

}  // namespace zkpipe::ff
