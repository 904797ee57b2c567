#include "service/await_registry.hpp"

namespace zkpipe::service {

AwaitRegistry::AwaitRegistry(Check check, std::optional<Clock::duration> poll)
    : check_(std::move(check)), poll_(poll), thread_([this] { run(); }) {}

AwaitRegistry::~AwaitRegistry() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  const ServiceError gone(ErrorKind::unavailable, "the daemon is shutting down");
  for (auto& [ticket, waiter] : waiters_) waiter.done(gone);
}

AwaitRegistry::Ticket AwaitRegistry::add(std::uint64_t job, Clock::time_point deadline, Callback done) {
  std::lock_guard lock(mutex_);
  const Ticket ticket = next_++;
  waiters_.emplace(ticket, Waiter{job, deadline, std::move(done)});
  by_job_.emplace(job, ticket);
  if (deadline != Clock::time_point::max()) deadlines_.emplace(deadline, ticket);
  notified_.insert(job);
  wake_.notify_all();
  return ticket;
}

bool AwaitRegistry::remove(Ticket ticket) {
  std::lock_guard lock(mutex_);
  const auto it = waiters_.find(ticket);
  if (it == waiters_.end()) return false;
  const auto [first, last] = by_job_.equal_range(it->second.job);
  for (auto j = first; j != last; ++j) {
    if (j->second == ticket) {
      by_job_.erase(j);
      break;
    }
  }
  deadlines_.erase({it->second.deadline, ticket});
  waiters_.erase(it);
  return true;
}

void AwaitRegistry::notify(std::uint64_t job) {
  {
    std::lock_guard lock(mutex_);
    if (!by_job_.contains(job)) return;
    notified_.insert(job);
  }
  wake_.notify_all();
}

void AwaitRegistry::resolve(std::uint64_t job, AwaitAnswer answer) {
  {
    std::lock_guard lock(mutex_);
    if (!by_job_.contains(job)) return;
    resolved_.insert_or_assign(job, std::move(answer));
  }
  wake_.notify_all();
}

void AwaitRegistry::notify_all() {
  {
    std::lock_guard lock(mutex_);
    notified_all_ = true;
  }
  wake_.notify_all();
}

std::size_t AwaitRegistry::size() const {
  std::lock_guard lock(mutex_);
  return waiters_.size();
}

std::vector<AwaitRegistry::Callback> AwaitRegistry::take_locked(std::uint64_t job, bool expired_only,
                                                                Clock::time_point now) {
  std::vector<Callback> out;
  auto [it, last] = by_job_.equal_range(job);
  while (it != last) {
    const auto w = waiters_.find(it->second);
    if (expired_only && w->second.deadline > now) {
      ++it;
      continue;
    }
    out.push_back(std::move(w->second.done));
    deadlines_.erase({w->second.deadline, w->first});
    waiters_.erase(w);
    it = by_job_.erase(it);
  }
  return out;
}

std::optional<AwaitAnswer> AwaitRegistry::checked(std::uint64_t job, bool expired) {
  try {
    return check_(job, expired);
  } catch (const ServiceError& e) {
    return e;
  } catch (const std::exception& e) {
    return ServiceError(ErrorKind::unavailable, e.what());
  }
}

void AwaitRegistry::run() {
  std::unique_lock lock(mutex_);
  Clock::time_point next_poll = poll_ ? Clock::now() + *poll_ : Clock::time_point::max();
  while (!stopping_) {
    const Clock::time_point now = Clock::now();
    std::set<std::uint64_t> jobs;
    if (notified_all_ || now >= next_poll) {
      for (const auto& [job, ticket] : by_job_) jobs.insert(job);
      notified_all_ = false;
      if (now >= next_poll) next_poll = now + *poll_;
    }
    jobs.merge(notified_);
    notified_.clear();
    std::map<std::uint64_t, AwaitAnswer> resolved = std::exchange(resolved_, {});
    std::set<std::uint64_t> expired;
    for (auto it = deadlines_.begin(); it != deadlines_.end() && it->first <= now; ++it) {
      expired.insert(waiters_.at(it->second).job);
    }
    if (jobs.empty() && expired.empty() && resolved.empty()) {
      const Clock::time_point until =
          std::min(next_poll, deadlines_.empty() ? Clock::time_point::max() : deadlines_.begin()->first);
      if (until == Clock::time_point::max()) {
        wake_.wait(lock);
      } else {
        wake_.wait_until(lock, until);
      }
      continue;
    }
    // Checks and callbacks run without the lock: a check takes the service's lock,
    // under which the service notifies.
    lock.unlock();
    auto answer_each = [&](std::uint64_t job, const AwaitAnswer& answer, bool expired_only) {
      std::vector<Callback> done;
      {
        std::lock_guard guard(mutex_);
        done = take_locked(job, expired_only, now);
      }
      for (auto& callback : done) callback(answer);
    };
    for (const auto& [job, answer] : resolved) {
      answer_each(job, answer, false);
      jobs.erase(job);
      expired.erase(job);
    }
    for (const std::uint64_t job : expired) {
      if (const auto answer = checked(job, true)) answer_each(job, *answer, true);
    }
    for (const std::uint64_t job : jobs) {
      if (const auto answer = checked(job, false)) answer_each(job, *answer, false);
    }
    lock.lock();
  }
}

}  // namespace zkpipe::service
