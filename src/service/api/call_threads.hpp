// The daemon's blocking calls (submit, cancel, status, preload, ...) each on a thread
// of its own, off gRPC's callback threads, which must never block. At most `limit`
// client calls run at once; parked waits take none (they are in the await registry).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace zkpipe::service::api {

class CallThreads {
 public:
  explicit CallThreads(std::size_t limit) : limit_(limit) {}
  // Waits for the calls still running.
  ~CallThreads();
  CallThreads(const CallThreads&) = delete;
  CallThreads& operator=(const CallThreads&) = delete;

  // A client's call: false, running nothing, when `limit` client calls are running
  // (or no thread can be created). `call` must not throw.
  bool try_run(std::function<void()> call);
  // The daemon's own follow-up (cancelling the job of a client that left), not
  // counted: false only when no thread can be created.
  bool run(std::function<void()> call);
  std::size_t limit() const { return limit_; }

 private:
  bool spawn_locked(std::function<void()> call, bool counted);
  void join_ended();

  const std::size_t limit_;
  std::mutex mutex_;
  std::condition_variable ended_;
  std::size_t counted_ = 0;  // client calls running
  std::uint64_t next_ = 0;
  std::map<std::uint64_t, std::thread> running_;
  std::vector<std::thread> finished_;  // to join
};

}  // namespace zkpipe::service::api
