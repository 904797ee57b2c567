// Parked waits for jobs, without a thread each: a waiter is a callback registered
// for a job with a deadline. The job's completion (notify), a drain (notify_all) or
// the deadline hands it its answer, on the registry's one thread; so thousands of
// clients may await jobs while the daemon's threads keep serving everything else.
//
// A waiter is answered exactly once, unless it is removed first: remove() returning
// true means its callback will never run.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "service/errors.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service {

// What an await ends with: the job's state, or why there is none (not_found, unavailable).
using AwaitAnswer = std::variant<v1::AwaitProofResponse, ServiceError>;

class AwaitRegistry {
 public:
  using Clock = std::chrono::steady_clock;
  using Ticket = std::uint64_t;
  // The job's answer now, or nullopt while it is worth waiting for; with `expired`
  // (the waiter's deadline passed) always an answer.
  using Check = std::function<std::optional<AwaitAnswer>(std::uint64_t job, bool expired)>;
  using Callback = std::function<void(AwaitAnswer)>;

  // `poll`: also re-check every waited-for job this often (a job that another
  // daemon of a cluster may finish); none: only notifications and deadlines wake.
  AwaitRegistry(Check check, std::optional<Clock::duration> poll);
  // Answers the waiters still registered UNAVAILABLE.
  ~AwaitRegistry();
  AwaitRegistry(const AwaitRegistry&) = delete;
  AwaitRegistry& operator=(const AwaitRegistry&) = delete;

  // Registers a waiter and checks its job once more (it may have finished since the
  // caller looked). Clock::time_point::max(): no deadline.
  Ticket add(std::uint64_t job, Clock::time_point deadline, Callback done);
  // True when the waiter was still registered: its callback will not run.
  bool remove(Ticket ticket);
  // The job's state changed: its waiters are checked.
  void notify(std::uint64_t job);
  // The job finished: its waiters get `answer` (without a check).
  void resolve(std::uint64_t job, AwaitAnswer answer);
  // The daemon's state changed (a drain): every waiter is checked.
  void notify_all();
  std::size_t size() const;

 private:
  struct Waiter {
    std::uint64_t job = 0;
    Clock::time_point deadline;
    Callback done;
  };

  void run();
  // Under mutex_: the waiters of `job` (those past their deadline only, with `expired_only`), taken out.
  std::vector<Callback> take_locked(std::uint64_t job, bool expired_only, Clock::time_point now);
  std::optional<AwaitAnswer> checked(std::uint64_t job, bool expired);

  const Check check_;
  const std::optional<Clock::duration> poll_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<Ticket, Waiter> waiters_;
  std::multimap<std::uint64_t, Ticket> by_job_;
  std::set<std::pair<Clock::time_point, Ticket>> deadlines_;
  std::set<std::uint64_t> notified_;
  std::map<std::uint64_t, AwaitAnswer> resolved_;
  bool notified_all_ = false;
  bool stopping_ = false;
  Ticket next_ = 1;
  std::thread thread_;
};

}  // namespace zkpipe::service
