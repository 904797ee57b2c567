#include "memory/mapped_charge.hpp"

#include <algorithm>
#include <numeric>

namespace zkpipe::memory {

namespace {

std::size_t total_bytes(const std::vector<AddressRange>& ranges) {
  return std::accumulate(ranges.begin(), ranges.end(), std::size_t{0},
                         [](std::size_t sum, const AddressRange& r) { return sum + r.bytes; });
}

}  // namespace

MappedCharge::MappedCharge(BufferLedger& ledger, Stage stage, std::vector<AddressRange> ranges)
    : ranges_(std::move(ranges)),
      mapped_bytes_(total_bytes(ranges_)),
      charge_(ledger.charge(stage, present_now())) {}

std::size_t MappedCharge::present_now() const {
  // A range's partly covered first and last pages count in full in present_bytes;
  // the charge never says more than the ranges hold.
  return std::min(present_bytes(ranges_).value_or(mapped_bytes_), mapped_bytes_);
}

void MappedCharge::refresh() {
  const std::size_t present = present_now();
  std::lock_guard lock(mutex_);
  charge_.resize(present);
}

std::size_t MappedCharge::bytes() const {
  std::lock_guard lock(mutex_);
  return charge_.bytes();
}

}  // namespace zkpipe::memory
