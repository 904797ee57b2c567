// The channel from the synthesis workers to the device workers: a FIFO whose first
// `capacity` items are "in the channel" and the rest are senders waiting for room.
// send() returns once its item is in the channel (the after-send / budget
// policies); send_detached() joins the waiting senders and returns at once (the
// early policy: the synthesized partition waits, holding its memory, while its
// worker moves on — the seed's pile-up). Items leave in the order they were sent,
// whichever way they were sent. Capacity 0 makes send() a rendezvous with receive().
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>

namespace zkpipe::engine {

template <class T>
class BoundedChannel {
 public:
  explicit BoundedChannel(std::size_t capacity) : capacity_(capacity) {}

  void send(T item) {
    std::unique_lock lock(mutex_);
    const std::uint64_t ticket = enqueue(std::move(item));
    space_.wait(lock, [&] { return closed_ || ticket < received_ + capacity_; });
  }

  void send_detached(T item) {
    std::lock_guard lock(mutex_);
    enqueue(std::move(item));
  }

  // Blocks for the oldest item; nullopt once closed and empty.
  std::optional<T> receive() {
    std::unique_lock lock(mutex_);
    items_ready_.wait(lock, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    ++received_;
    lock.unlock();
    space_.notify_all();
    return item;
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
    return items_.size();
  }

 private:
  std::uint64_t enqueue(T item) {
    items_.push_back(std::move(item));
    items_ready_.notify_one();
    return sent_++;
  }

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable items_ready_;
  std::condition_variable space_;
  std::deque<T> items_;
  std::uint64_t sent_ = 0;      // tickets handed out, in order
  std::uint64_t received_ = 0;  // items taken by receivers
  bool closed_ = false;
};

}  // namespace zkpipe::engine
