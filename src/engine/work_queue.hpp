// An unbounded blocking FIFO between pipeline stages (finalizer, dealloc and
// completion queues). close() wakes every waiter; pop() then drains what is left
// and returns nullopt once the queue is empty.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>

namespace zkpipe::engine {

template <class T>
class WorkQueue {
 public:
  void push(T item) {
    {
      std::lock_guard lock(mutex_);
      items_.push_back(std::move(item));
    }
    ready_.notify_one();
  }

  std::optional<T> pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    return item;
  }

  void close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    ready_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<T> items_;
  bool closed_ = false;
};

}  // namespace zkpipe::engine
