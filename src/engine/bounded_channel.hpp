// The channel from the synthesis workers to the device workers: a queue whose first
// `capacity` items are "in the channel" and the rest are senders waiting for room.
// send() returns once its item is in the channel (the after-send / budget
// policies); send_detached() joins the waiting senders and returns at once (the
// early policy: the synthesized partition waits, holding its memory, while its
// worker moves on — the seed's pile-up). Capacity 0 makes send() a rendezvous with
// receive().
//
// A receiver takes the oldest item, or the one its chooser picks among all that
// wait (the device assignment: engine/device_assignment.hpp); the others keep their
// order. A sender's item is "in the channel" once fewer than `capacity` items wait
// ahead of it, or it has been taken.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace zkpipe::engine {

template <class T>
class BoundedChannel {
  struct Entry {
    std::uint64_t ticket;  // send order
    T item;
  };

 public:
  // What a chooser sees: the waiting items, oldest first.
  class View {
   public:
    explicit View(const std::deque<Entry>& entries) : entries_(entries) {}
    std::size_t size() const { return entries_.size(); }
    const T& operator[](std::size_t i) const { return entries_[i].item; }

   private:
    const std::deque<Entry>& entries_;
  };

  explicit BoundedChannel(std::size_t capacity) : capacity_(capacity) {}

  void send(T item) {
    std::unique_lock lock(mutex_);
    const std::uint64_t ticket = enqueue(std::move(item));
    space_.wait(lock, [&] { return closed_ || in_channel(ticket); });
  }

  void send_detached(T item) {
    std::lock_guard lock(mutex_);
    enqueue(std::move(item));
  }

  // Blocks for the oldest item; nullopt once closed and empty.
  std::optional<T> receive() {
    return receive([](const View&) { return std::optional<std::size_t>(0); });
  }

  // Blocks until `choose(View)` (called under the channel's lock, with at least one
  // item waiting) returns the index of an item, and takes that item; nullopt once
  // closed with nothing chosen. A chooser that declines (nullopt) is asked again
  // when items arrive or wake() is called.
  template <class Choose>
  std::optional<T> receive(Choose choose) {
    std::unique_lock lock(mutex_);
    std::optional<std::size_t> chosen;
    items_ready_.wait(lock, [&] {
      chosen = entries_.empty() ? std::nullopt : choose(View(entries_));
      return closed_ || chosen.has_value();
    });
    if (!chosen) return std::nullopt;
    const auto at = entries_.begin() + static_cast<std::ptrdiff_t>(*chosen);
    T item = std::move(at->item);
    entries_.erase(at);
    lock.unlock();
    space_.notify_all();
    return item;
  }

  // Takes every waiting item `matches` accepts, whether in the channel or held by a
  // waiting sender (whose send() then returns): what a cancelled request has queued
  // goes back at once instead of waiting for a receiver.
  template <class Matches>
  std::vector<T> take_if(Matches matches) {
    std::vector<T> taken;
    {
      std::lock_guard lock(mutex_);
      for (auto at = entries_.begin(); at != entries_.end();) {
        if (matches(std::as_const(at->item))) {
          taken.push_back(std::move(at->item));
          at = entries_.erase(at);
        } else {
          ++at;
        }
      }
    }
    if (!taken.empty()) space_.notify_all();
    return taken;
  }

  // Asks the waiting receivers' choosers again (what they choose by has changed).
  void wake() {
    { std::lock_guard lock(mutex_); }
    items_ready_.notify_all();
  }

  void close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    items_ready_.notify_all();
    space_.notify_all();
  }

  // Items in the channel plus waiting senders.
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
  }

 private:
  std::uint64_t enqueue(T item) {
    entries_.push_back({next_ticket_, std::move(item)});
    // Every receiver: a chooser may decline the new item and another take it.
    items_ready_.notify_all();
    return next_ticket_++;
  }

  // Taken, or fewer than capacity items wait ahead of it.
  bool in_channel(std::uint64_t ticket) const {
    const auto at = std::ranges::lower_bound(entries_, ticket, {}, &Entry::ticket);
    if (at == entries_.end() || at->ticket != ticket) return true;
    return static_cast<std::size_t>(at - entries_.begin()) < capacity_;
  }

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable items_ready_;
  std::condition_variable space_;
  std::deque<Entry> entries_;  // in ticket order
  std::uint64_t next_ticket_ = 0;
  bool closed_ = false;
};

}  // namespace zkpipe::engine
