#include "service/api/call_threads.hpp"

#include <system_error>

namespace zkpipe::service::api {

CallThreads::~CallThreads() {
  {
    std::unique_lock lock(mutex_);
    ended_.wait(lock, [&] { return running_.empty(); });
  }
  join_ended();
}

bool CallThreads::try_run(std::function<void()> call) {
  join_ended();
  std::lock_guard lock(mutex_);
  return counted_ < limit_ && spawn_locked(std::move(call), true);
}

bool CallThreads::run(std::function<void()> call) {
  join_ended();
  std::lock_guard lock(mutex_);
  return spawn_locked(std::move(call), false);
}

bool CallThreads::spawn_locked(std::function<void()> call, bool counted) {
  const std::uint64_t id = next_++;
  try {
    // The thread's epilogue takes the lock, so it finds itself in running_.
    running_.emplace(id, std::thread([this, id, counted, call = std::move(call)] {
      call();
      std::lock_guard lock(mutex_);
      if (counted) --counted_;
      finished_.push_back(std::move(running_.at(id)));
      running_.erase(id);
      ended_.notify_all();
    }));
  } catch (const std::system_error&) {
    return false;
  }
  if (counted) ++counted_;
  return true;
}

void CallThreads::join_ended() {
  std::vector<std::thread> done;
  {
    std::lock_guard lock(mutex_);
    done.swap(finished_);
  }
  for (auto& t : done) t.join();
}

}  // namespace zkpipe::service::api
