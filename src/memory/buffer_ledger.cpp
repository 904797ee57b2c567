#include "memory/buffer_ledger.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace zkpipe::memory {

BufferLedger& BufferLedger::process() {
  static BufferLedger ledger;
  return ledger;
}

BufferLedger::Charge BufferLedger::charge(Stage stage, std::size_t bytes) {
  add(stage, 0, bytes);
  return Charge(this, stage, 0, bytes);
}

BufferLedger::Charge BufferLedger::charge_device(int ordinal, std::size_t bytes) {
  if (ordinal < 0) throw std::invalid_argument("device ordinal " + std::to_string(ordinal) + " is negative");
  const auto device = static_cast<std::size_t>(ordinal);
  add(Stage::device, device, bytes);
  return Charge(this, Stage::device, device, bytes);
}

BufferLedger::Charge BufferLedger::charge_pinned(std::size_t bytes) {
  Charge c = charge(Stage::scratch, bytes);
  c.pinned_ = true;
  repin(0, bytes);
  return c;
}

void BufferLedger::repin(std::size_t from, std::size_t to) {
  std::lock_guard lock(mutex_);
  state_.pinned = state_.pinned - from + to;
  state_.peak_pinned = std::max(state_.peak_pinned, state_.pinned);
}

void BufferLedger::set_device_limit(int ordinal, std::size_t bytes) {
  if (ordinal < 0) throw std::invalid_argument("device ordinal " + std::to_string(ordinal) + " is negative");
  std::lock_guard lock(mutex_);
  const auto device = static_cast<std::size_t>(ordinal);
  if (device >= device_limits_.size()) device_limits_.resize(device + 1, 0);
  device_limits_[device] = bytes;
}

std::size_t BufferLedger::device_limit(int ordinal) const {
  std::lock_guard lock(mutex_);
  const auto device = static_cast<std::size_t>(ordinal);
  return ordinal >= 0 && device < device_limits_.size() ? device_limits_[device] : 0;
}

std::size_t BufferLedger::device_bytes(int ordinal) const {
  std::lock_guard lock(mutex_);
  return ordinal < 0 ? 0 : state_.device(static_cast<std::size_t>(ordinal)).bytes;
}

void BufferLedger::admit_device(std::size_t device, std::size_t more) {
  const std::size_t limit = device < device_limits_.size() ? device_limits_[device] : 0;
  if (limit == 0) return;
  const std::size_t held = state_.device(device).bytes;
  if (held + more <= limit) return;
  auto mib = [](std::size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; };
  throw DeviceLimitExceeded("device " + std::to_string(device) + "'s memory budget of " + mib(limit) + " is " +
                            mib(held) + " used, and " + mib(more) + " more were asked for");
}

LedgerSnapshot BufferLedger::snapshot() const {
  std::lock_guard lock(mutex_);
  return state_;
}

void BufferLedger::reset_peaks() {
  std::lock_guard lock(mutex_);
  auto restart = [](StageTotals& s) {
    s.peak_count = s.count;
    s.peak_bytes = s.bytes;
    s.seconds = 0;
    s.exits = 0;
  };
  for (StageTotals& s : state_.stages) restart(s);
  for (StageTotals& s : state_.devices) restart(s);
  state_.peak_tracked = state_.tracked;
  state_.peak_pinned = state_.pinned;
}

std::size_t BufferLedger::add_observer(Observer observer) {
  std::lock_guard lock(mutex_);
  observers_.emplace_back(next_observer_, std::move(observer));
  return next_observer_++;
}

void BufferLedger::remove_observer(std::size_t id) {
  std::lock_guard lock(mutex_);
  std::erase_if(observers_, [id](const auto& entry) { return entry.first == id; });
}

StageTotals& BufferLedger::device_share(std::size_t device) {
  if (device >= state_.devices.size()) state_.devices.resize(device + 1);
  return state_.devices[device];
}

void BufferLedger::raise_peaks(Stage stage, std::size_t device) {
  auto raise = [](StageTotals& s) {
    s.peak_count = std::max(s.peak_count, s.count);
    s.peak_bytes = std::max(s.peak_bytes, s.bytes);
  };
  raise(state_[stage]);
  if (stage == Stage::device) raise(device_share(device));
  state_.peak_tracked = std::max(state_.peak_tracked, state_.tracked);
}

void BufferLedger::notify(LedgerChange change, Stage stage, std::size_t bytes) {
  const LedgerEvent event{change, stage, bytes, state_};
  for (const auto& [id, observer] : observers_) observer(event);
}

void BufferLedger::enter_totals(Stage stage, std::size_t device, std::size_t bytes) {
  StageTotals& s = state_[stage];
  ++s.count;
  s.bytes += bytes;
  if (stage == Stage::device) {
    StageTotals& share = device_share(device);
    ++share.count;
    share.bytes += bytes;
  }
  if (is_host(stage)) {
    ++state_.count;
    state_.tracked += bytes;
  }
}

void BufferLedger::leave_totals(Stage stage, std::size_t device, std::size_t bytes, double seconds_in_stage) {
  auto leave = [&](StageTotals& s) {
    --s.count;
    s.bytes -= bytes;
    s.seconds += seconds_in_stage;
    ++s.exits;
  };
  leave(state_[stage]);
  if (stage == Stage::device) leave(device_share(device));
  if (is_host(stage)) {
    --state_.count;
    state_.tracked -= bytes;
  }
}

void BufferLedger::add(Stage stage, std::size_t device, std::size_t bytes) {
  std::lock_guard lock(mutex_);
  if (stage == Stage::device) admit_device(device, bytes);
  enter_totals(stage, device, bytes);
  raise_peaks(stage, device);
  notify(LedgerChange::add, stage, bytes);
}

void BufferLedger::move(Stage from, Stage to, std::size_t device, std::size_t bytes, double seconds_in_from) {
  std::lock_guard lock(mutex_);
  leave_totals(from, device, bytes, seconds_in_from);
  enter_totals(to, device, bytes);
  raise_peaks(to, device);
  notify(LedgerChange::move, to, bytes);
}

void BufferLedger::resize(Stage stage, std::size_t device, std::size_t old_bytes, std::size_t new_bytes) {
  std::lock_guard lock(mutex_);
  if (stage == Stage::device && new_bytes > old_bytes) admit_device(device, new_bytes - old_bytes);
  StageTotals& s = state_[stage];
  s.bytes = s.bytes - old_bytes + new_bytes;
  if (stage == Stage::device) {
    StageTotals& share = device_share(device);
    share.bytes = share.bytes - old_bytes + new_bytes;
  }
  if (is_host(stage)) state_.tracked = state_.tracked - old_bytes + new_bytes;
  raise_peaks(stage, device);
  notify(LedgerChange::resize, stage, new_bytes);
}

void BufferLedger::remove(Stage stage, std::size_t device, std::size_t bytes, double seconds_in_stage) {
  std::lock_guard lock(mutex_);
  leave_totals(stage, device, bytes, seconds_in_stage);
  notify(LedgerChange::remove, stage, bytes);
}

BufferLedger::Charge& BufferLedger::Charge::operator=(Charge&& other) noexcept {
  if (this != &other) {
    release();
    ledger_ = std::exchange(other.ledger_, nullptr);
    stage_ = other.stage_;
    device_ = other.device_;
    bytes_ = std::exchange(other.bytes_, 0);
    pinned_ = std::exchange(other.pinned_, false);
    since_ = other.since_;
  }
  return *this;
}

double BufferLedger::Charge::lap() {
  auto now = Clock::now();
  double s = std::chrono::duration<double>(now - since_).count();
  since_ = now;
  return s;
}

void BufferLedger::Charge::move_to(Stage stage) {
  if (ledger_ == nullptr || stage == stage_) return;
  ledger_->move(stage_, stage, device_, bytes_, lap());
  stage_ = stage;
}

void BufferLedger::Charge::resize(std::size_t bytes) {
  if (ledger_ == nullptr || bytes == bytes_) return;
  ledger_->resize(stage_, device_, bytes_, bytes);
  if (pinned_) ledger_->repin(bytes_, bytes);
  bytes_ = bytes;
}

void BufferLedger::Charge::release() {
  if (ledger_ == nullptr) return;
  BufferLedger* ledger = std::exchange(ledger_, nullptr);
  ledger->remove(stage_, device_, bytes_, lap());
  if (pinned_) ledger->repin(bytes_, 0);
  pinned_ = false;
  bytes_ = 0;
}

}  // namespace zkpipe::memory
