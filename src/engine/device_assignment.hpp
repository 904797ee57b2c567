// Which queued partition a device worker takes next (its device's affinity under the
// priorities). The partitions waiting in the channel, oldest first:
//
//   1. Only those of the most urgent priority present are candidates: a partition is
//      never passed over for a less urgent one, whatever the keys.
//   2. Among them the oldest is taken, unless its key is not on this device but is on
//      another healthy device (that device will take it without an upload) while
//      some candidate's key is on this device: then the oldest such candidate.
//
// So a device prefers the partitions whose key it already holds (no upload of the
// points), a partition whose key no device holds is never passed over, and a device
// with work queued never idles: when nothing queued suits it better it takes the
// oldest, which is how one proof's partitions spread over every device (the first
// partition a device takes pays the upload; the key is resident there after it).
// Every partition is taken in the end: the ones whose key some device holds are
// taken by it, oldest first, and the others are taken when they are the oldest.
// Affinity is a preference among what is queued at the moment, never a wait.
#pragma once

#include <concepts>
#include <cstddef>

#include "engine/priority.hpp"

namespace zkpipe::engine {

// The queue as a device worker sees it, oldest first.
template <class Q>
concept AssignmentQueue = requires(const Q& q, std::size_t i) {
  { q.size() } -> std::convertible_to<std::size_t>;
  { q.priority(i) } -> std::convertible_to<Priority>;
  // The partition's key is on this device.
  { q.held_here(i) } -> std::convertible_to<bool>;
  // The partition's key is on another healthy device.
  { q.held_elsewhere(i) } -> std::convertible_to<bool>;
};

// The index of the partition to take; the queue must not be empty.
template <AssignmentQueue Q>
std::size_t choose_partition(const Q& queue) {
  const std::size_t n = queue.size();
  Priority most_urgent = queue.priority(0);
  for (std::size_t i = 1; i < n; ++i) {
    if (queue.priority(i) < most_urgent) most_urgent = queue.priority(i);
  }
  std::size_t oldest = 0;
  while (queue.priority(oldest) != most_urgent) ++oldest;
  if (queue.held_here(oldest) || !queue.held_elsewhere(oldest)) return oldest;
  for (std::size_t i = oldest + 1; i < n; ++i) {
    if (queue.priority(i) == most_urgent && queue.held_here(i)) return i;
  }
  return oldest;
}

}  // namespace zkpipe::engine
