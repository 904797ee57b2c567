#include "memory/buffer_ledger.hpp"

#include <algorithm>

namespace zkpipe::memory {

BufferLedger& BufferLedger::process() {
  static BufferLedger ledger;
  return ledger;
}

BufferLedger::Charge BufferLedger::charge(Stage stage, std::size_t bytes) {
  add(stage, bytes);
  return Charge(this, stage, bytes);
}

LedgerSnapshot BufferLedger::snapshot() const {
  std::lock_guard lock(mutex_);
  return state_;
}

void BufferLedger::reset_peaks() {
  std::lock_guard lock(mutex_);
  for (StageTotals& s : state_.stages) {
    s.peak_count = s.count;
    s.peak_bytes = s.bytes;
    s.seconds = 0;
    s.exits = 0;
  }
  state_.peak_tracked = state_.tracked;
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

void BufferLedger::raise_peaks(Stage stage) {
  StageTotals& s = state_[stage];
  s.peak_count = std::max(s.peak_count, s.count);
  s.peak_bytes = std::max(s.peak_bytes, s.bytes);
  state_.peak_tracked = std::max(state_.peak_tracked, state_.tracked);
}

void BufferLedger::notify(LedgerChange change, Stage stage, std::size_t bytes) {
  const LedgerEvent event{change, stage, bytes, state_};
  for (const auto& [id, observer] : observers_) observer(event);
}

void BufferLedger::enter_host_totals(Stage stage, std::size_t bytes) {
  if (!is_host(stage)) return;
  ++state_.count;
  state_.tracked += bytes;
}

void BufferLedger::leave_host_totals(Stage stage, std::size_t bytes) {
  if (!is_host(stage)) return;
  --state_.count;
  state_.tracked -= bytes;
}

void BufferLedger::add(Stage stage, std::size_t bytes) {
  std::lock_guard lock(mutex_);
  StageTotals& s = state_[stage];
  ++s.count;
  s.bytes += bytes;
  enter_host_totals(stage, bytes);
  raise_peaks(stage);
  notify(LedgerChange::add, stage, bytes);
}

void BufferLedger::move(Stage from, Stage to, std::size_t bytes, double seconds_in_from) {
  std::lock_guard lock(mutex_);
  StageTotals& f = state_[from];
  --f.count;
  f.bytes -= bytes;
  f.seconds += seconds_in_from;
  ++f.exits;
  leave_host_totals(from, bytes);
  StageTotals& t = state_[to];
  ++t.count;
  t.bytes += bytes;
  enter_host_totals(to, bytes);
  raise_peaks(to);
  notify(LedgerChange::move, to, bytes);
}

void BufferLedger::resize(Stage stage, std::size_t old_bytes, std::size_t new_bytes) {
  std::lock_guard lock(mutex_);
  StageTotals& s = state_[stage];
  s.bytes = s.bytes - old_bytes + new_bytes;
  if (is_host(stage)) state_.tracked = state_.tracked - old_bytes + new_bytes;
  raise_peaks(stage);
  notify(LedgerChange::resize, stage, new_bytes);
}

void BufferLedger::remove(Stage stage, std::size_t bytes, double seconds_in_stage) {
  std::lock_guard lock(mutex_);
  StageTotals& s = state_[stage];
  --s.count;
  s.bytes -= bytes;
  s.seconds += seconds_in_stage;
  ++s.exits;
  leave_host_totals(stage, bytes);
  notify(LedgerChange::remove, stage, bytes);
}

BufferLedger::Charge& BufferLedger::Charge::operator=(Charge&& other) noexcept {
  if (this != &other) {
    release();
    ledger_ = std::exchange(other.ledger_, nullptr);
    stage_ = other.stage_;
    bytes_ = std::exchange(other.bytes_, 0);
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
  ledger_->move(stage_, stage, bytes_, lap());
  stage_ = stage;
}

void BufferLedger::Charge::resize(std::size_t bytes) {
  if (ledger_ == nullptr || bytes == bytes_) return;
  ledger_->resize(stage_, bytes_, bytes);
  bytes_ = bytes;
}

void BufferLedger::Charge::release() {
  if (ledger_ == nullptr) return;
  std::exchange(ledger_, nullptr)->remove(stage_, bytes_, lap());
  bytes_ = 0;
}

}  // namespace zkpipe::memory
