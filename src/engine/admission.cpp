#include "engine/admission.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace zkpipe::engine {

Admission::Reservation::Reservation(Reservation&& other) noexcept { *this = std::move(other); }

Admission::Reservation& Admission::Reservation::operator=(Reservation&& other) noexcept {
  if (this != &other) {
    release_all();
    owner_ = std::move(other.owner_);
    bytes_ = std::exchange(other.bytes_, 0);
    pinned_ = other.pinned_;
  }
  return *this;
}

void Admission::Reservation::release(std::size_t bytes) {
  bytes = std::min(bytes, bytes_);
  if (owner_ == nullptr || bytes == 0) return;
  bytes_ -= bytes;
  owner_->give_back(bytes, pinned_);
}

void Admission::Reservation::release_all() {
  release(bytes_);
  owner_.reset();
}

std::shared_ptr<Admission> Admission::create(std::size_t budget_bytes) {
  return std::shared_ptr<Admission>(new Admission(budget_bytes));
}

void Admission::push(const AdmissionTask& task) {
  {
    std::lock_guard lock(mutex_);
    waiting_.insert(task);
  }
  changed_.notify_all();
}

std::optional<Admission::Admitted> Admission::take() {
  std::unique_lock lock(mutex_);
  auto head_fits = [&] {
    return !paused_ && !waiting_.empty() && waiting_.begin()->bytes <= capacity_ - reserved_;
  };
  changed_.wait(lock, [&] { return stopped_ || head_fits(); });
  if (stopped_) return std::nullopt;
  AdmissionTask task = *waiting_.begin();
  waiting_.erase(waiting_.begin());
  reserved_ += task.bytes;
  lock.unlock();
  // Whoever is next in line re-checks against the new head.
  changed_.notify_all();
  return Admitted{task, Reservation(shared_from_this(), task.bytes, false)};
}

std::vector<AdmissionTask> Admission::remove_request(std::uint64_t request) {
  std::vector<AdmissionTask> removed;
  {
    std::lock_guard lock(mutex_);
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      if (it->request == request) {
        removed.push_back(*it);
        it = waiting_.erase(it);
      } else {
        ++it;
      }
    }
  }
  // The head may have changed to a task that fits.
  changed_.notify_all();
  return removed;
}

Admission::Reservation Admission::reserve_pinned(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  if (bytes > capacity_ - reserved_) {
    throw std::runtime_error("memory budget exhausted: " + std::to_string(bytes) + " bytes requested, " +
                             std::to_string(capacity_ - reserved_) + " of " + std::to_string(capacity_) +
                             " free");
  }
  reserved_ += bytes;
  pinned_ += bytes;
  return Reservation(shared_from_this(), bytes, true);
}

void Admission::give_back(std::size_t bytes, bool pinned) {
  {
    std::lock_guard lock(mutex_);
    reserved_ -= bytes;
    if (pinned) pinned_ -= bytes;
  }
  changed_.notify_all();
}

void Admission::pause() {
  std::lock_guard lock(mutex_);
  paused_ = true;
}

void Admission::resume() {
  {
    std::lock_guard lock(mutex_);
    paused_ = false;
  }
  changed_.notify_all();
}

void Admission::stop() {
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
  }
  changed_.notify_all();
}

std::size_t Admission::reserved() const {
  std::lock_guard lock(mutex_);
  return reserved_;
}

std::size_t Admission::largest_admissible() const {
  std::lock_guard lock(mutex_);
  return capacity_ - pinned_;
}

}  // namespace zkpipe::engine
