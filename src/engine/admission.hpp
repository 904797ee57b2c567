// Admission of partition tasks into synthesis, by priority and by memory budget.
//
// Tasks wait in one queue ordered by (priority, arrival of their request,
// partition index). Policy: strict head-of-line. Only the task at the head may be
// admitted; when its bytes do not fit in the budget, nothing behind it is admitted
// either, even a task that would fit. So a large task can never be starved by a
// stream of small ones (the budget drains until the large one fits), and a CRITICAL
// task that arrives becomes the head at once. The price is that a LOW task waits as
// long as more urgent ones keep arriving — strict priority, by design.
//
// Every state change happens under one mutex and is followed by notify_all on the
// same condition variable the takers wait on with a predicate, so no wake-up can be
// lost: a release between a taker's check and its wait is impossible.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

#include "engine/priority.hpp"

namespace zkpipe::engine {

struct AdmissionTask {
  Priority priority = Priority::normal;
  std::uint64_t request = 0;  // also the arrival order: ids increase with submission
  std::size_t partition = 0;
  std::size_t bytes = 0;      // the working set to reserve; 0 under the early / after-send policies

  friend bool operator<(const AdmissionTask& x, const AdmissionTask& y) {
    if (x.priority != y.priority) return x.priority < y.priority;
    if (x.request != y.request) return x.request < y.request;
    return x.partition < y.partition;
  }
};

class Admission : public std::enable_shared_from_this<Admission> {
 public:
  // Bytes taken from the budget; given back in parts as buffers are freed, the
  // rest on destruction.
  class Reservation {
   public:
    Reservation() = default;
    Reservation(Reservation&& other) noexcept;
    Reservation& operator=(Reservation&& other) noexcept;
    Reservation(const Reservation&) = delete;
    Reservation& operator=(const Reservation&) = delete;
    ~Reservation() { release_all(); }

    std::size_t bytes() const { return bytes_; }
    void release(std::size_t bytes);
    void release_all();

   private:
    friend class Admission;
    Reservation(std::shared_ptr<Admission> owner, std::size_t bytes, bool pinned)
        : owner_(std::move(owner)), bytes_(bytes), pinned_(pinned) {}

    std::shared_ptr<Admission> owner_;
    std::size_t bytes_ = 0;
    bool pinned_ = false;
  };

  struct Admitted {
    AdmissionTask task;
    Reservation reservation;
  };

  static std::shared_ptr<Admission> create(std::size_t budget_bytes);

  void push(const AdmissionTask& task);
  // Blocks until the head task is admitted (nullopt once stopped).
  std::optional<Admitted> take();
  // Takes the request's waiting tasks out of the queue.
  std::vector<AdmissionTask> remove_request(std::uint64_t request);
  // Reserves long-lived bytes (parameters) now; throws std::runtime_error when
  // they do not fit.
  Reservation reserve_pinned(std::size_t bytes);

  void pause();
  void resume();
  void stop();

  std::size_t capacity() const { return capacity_; }
  std::size_t reserved() const;
  // The most a single task may reserve: the budget less what is pinned.
  std::size_t largest_admissible() const;

 private:
  explicit Admission(std::size_t budget_bytes) : capacity_(budget_bytes) {}
  void give_back(std::size_t bytes, bool pinned);

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::set<AdmissionTask> waiting_;
  std::size_t reserved_ = 0;
  std::size_t pinned_ = 0;
  bool paused_ = false;
  bool stopped_ = false;
};

}  // namespace zkpipe::engine
