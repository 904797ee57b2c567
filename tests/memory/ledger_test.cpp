#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "memory/buffer_ledger.hpp"
#include "memory/process_memory.hpp"
#include "memory/tracked_buffer.hpp"

namespace zkpipe::memory {
namespace {

TEST(BufferLedger, CountsBytesAndPeaksPerStage) {
  BufferLedger ledger;
  {
    auto a = ledger.charge(Stage::synthesizing, 100);
    auto b = ledger.charge(Stage::synthesizing, 50);
    LedgerSnapshot s = ledger.snapshot();
    EXPECT_EQ(s[Stage::synthesizing].count, 2u);
    EXPECT_EQ(s[Stage::synthesizing].bytes, 150u);
    EXPECT_EQ(s.tracked, 150u);

    a.move_to(Stage::queued);
    a.resize(40);
    s = ledger.snapshot();
    EXPECT_EQ(s[Stage::synthesizing].count, 1u);
    EXPECT_EQ(s[Stage::synthesizing].bytes, 50u);
    EXPECT_EQ(s[Stage::queued].count, 1u);
    EXPECT_EQ(s[Stage::queued].bytes, 40u);
    EXPECT_EQ(s.tracked, 90u);
    EXPECT_EQ(s.peak_tracked, 150u);
    EXPECT_EQ(s[Stage::synthesizing].peak_count, 2u);
    EXPECT_EQ(s[Stage::synthesizing].exits, 1u);
  }
  LedgerSnapshot s = ledger.snapshot();
  EXPECT_EQ(s.tracked, 0u);
  EXPECT_EQ(s.count, 0u);
  for (Stage stage : kAllStages) {
    EXPECT_EQ(s[stage].count, 0u);
    EXPECT_EQ(s[stage].bytes, 0u);
  }
  EXPECT_EQ(s[Stage::queued].peak_bytes, 100u);  // moved in at 100, then shrunk
  ledger.reset_peaks();
  EXPECT_EQ(ledger.snapshot().peak_tracked, 0u);
}

// Page-locked memory counts in scratch and apart, through resizes, moves of the
// charge and its release; its peak restarts with the others.
TEST(BufferLedger, PinnedMemoryIsCountedInScratchAndApart) {
  BufferLedger ledger;
  {
    auto plain = ledger.charge(Stage::scratch, 10);
    auto pinned = ledger.charge_pinned(64);
    LedgerSnapshot s = ledger.snapshot();
    EXPECT_EQ(s[Stage::scratch].bytes, 74u);
    EXPECT_EQ(s.pinned, 64u);
    pinned.resize(128);
    EXPECT_EQ(ledger.snapshot().pinned, 128u);
    pinned.resize(32);
    BufferLedger::Charge moved = std::move(pinned);
    s = ledger.snapshot();
    EXPECT_EQ(s.pinned, 32u);
    EXPECT_EQ(s.peak_pinned, 128u);
    plain.release();
    EXPECT_EQ(ledger.snapshot().pinned, 32u);
  }
  const LedgerSnapshot s = ledger.snapshot();
  EXPECT_EQ(s.pinned, 0u);
  EXPECT_EQ(s[Stage::scratch].bytes, 0u);
  EXPECT_EQ(s.peak_pinned, 128u);
  ledger.reset_peaks();
  EXPECT_EQ(ledger.snapshot().peak_pinned, 0u);
}

// Device memory is not in RSS: it has its own stage totals and peaks, and stays out
// of the host totals that untracked and the memory budget are computed from.
TEST(BufferLedger, DeviceMemoryStaysOutOfTheHostTotals) {
  BufferLedger ledger;
  auto host = ledger.charge(Stage::scratch, 50);
  {
    auto dev = ledger.charge(Stage::device, 1000);
    LedgerSnapshot s = ledger.snapshot();
    EXPECT_EQ(s.tracked, 50u);
    EXPECT_EQ(s.count, 1u);
    EXPECT_EQ(s[Stage::device].count, 1u);
    EXPECT_EQ(s[Stage::device].bytes, 1000u);

    dev.resize(3000);
    s = ledger.snapshot();
    EXPECT_EQ(s.tracked, 50u);
    EXPECT_EQ(s[Stage::device].bytes, 3000u);
    EXPECT_EQ(s[Stage::device].peak_bytes, 3000u);

    // A buffer that leaves the host for the device leaves the host totals, and back.
    host.move_to(Stage::device);
    s = ledger.snapshot();
    EXPECT_EQ(s.tracked, 0u);
    EXPECT_EQ(s.count, 0u);
    EXPECT_EQ(s[Stage::device].count, 2u);
    EXPECT_EQ(s[Stage::device].bytes, 3050u);
    host.move_to(Stage::scratch);
    s = ledger.snapshot();
    EXPECT_EQ(s.tracked, 50u);
    EXPECT_EQ(s.count, 1u);
    EXPECT_EQ(s[Stage::device].bytes, 3000u);
  }
  LedgerSnapshot s = ledger.snapshot();
  EXPECT_EQ(s[Stage::device].count, 0u);
  EXPECT_EQ(s[Stage::device].bytes, 0u);
  EXPECT_EQ(s[Stage::device].peak_count, 2u);
  EXPECT_EQ(s[Stage::device].peak_bytes, 3050u);
  EXPECT_EQ(s.tracked, 50u);
  EXPECT_EQ(s.peak_tracked, 50u);  // the device's gigabytes never count as host memory
  ledger.reset_peaks();
  EXPECT_EQ(ledger.snapshot()[Stage::device].peak_bytes, 0u);
}

// Each device's memory is its own share of the device stage: the shares sum to the
// stage's totals at every moment, each has its own peak, and a host buffer moved
// onto a device counts in the share its charge names.
TEST(BufferLedger, DeviceMemoryIsBrokenDownByDevice) {
  BufferLedger ledger;
  EXPECT_THROW(ledger.charge_device(-1, 10), std::invalid_argument);
  auto sum_of_shares = [](const LedgerSnapshot& s) {
    StageTotals sum;
    for (const StageTotals& d : s.devices) {
      sum.count += d.count;
      sum.bytes += d.bytes;
    }
    return sum;
  };
  auto host = ledger.charge(Stage::scratch, 50);
  {
    auto on_0 = ledger.charge_device(0, 100);
    auto on_2 = ledger.charge_device(2, 1000);
    auto also_2 = ledger.charge_device(2, 10);
    LedgerSnapshot s = ledger.snapshot();
    ASSERT_EQ(s.devices.size(), 3u);
    EXPECT_EQ(s.device(0).bytes, 100u);
    EXPECT_EQ(s.device(1).bytes, 0u);
    EXPECT_EQ(s.device(2).count, 2u);
    EXPECT_EQ(s.device(2).bytes, 1010u);
    EXPECT_EQ(s.device(7).bytes, 0u) << "a device never seen";
    EXPECT_EQ(sum_of_shares(s).bytes, s[Stage::device].bytes);
    EXPECT_EQ(s.tracked, 50u);

    on_2.resize(3000);
    host.move_to(Stage::device);  // named no device: device 0's share
    s = ledger.snapshot();
    EXPECT_EQ(s.device(2).bytes, 3010u);
    EXPECT_EQ(s.device(0).bytes, 150u);
    EXPECT_EQ(s.device(0).count, 2u);
    EXPECT_EQ(sum_of_shares(s).bytes, s[Stage::device].bytes);
    EXPECT_EQ(sum_of_shares(s).count, s[Stage::device].count);
    EXPECT_EQ(s.tracked, 0u);
    host.move_to(Stage::scratch);
  }
  LedgerSnapshot s = ledger.snapshot();
  EXPECT_EQ(s.device(0).bytes, 0u);
  EXPECT_EQ(s.device(2).bytes, 0u);
  EXPECT_EQ(s.device(2).count, 0u);
  EXPECT_EQ(s.device(0).peak_bytes, 150u);
  EXPECT_EQ(s.device(2).peak_bytes, 3010u);
  EXPECT_EQ(s.device(2).exits, 2u);
  EXPECT_EQ(s[Stage::device].bytes, 0u);
  EXPECT_EQ(s.tracked, 50u);
  ledger.reset_peaks();
  EXPECT_EQ(ledger.snapshot().device(2).peak_bytes, 0u);
}

// Bounds that hold however loaded the machine: each stage holds the charge for at
// least its sleep, and the two stages' times, being disjoint spans of the test's own,
// add up to no more than the test's wall time (time counted in both would not).
TEST(BufferLedger, DeviceLimitRefusesAChargeOrGrowthPastItAndChangesNothing) {
  BufferLedger ledger;
  ledger.set_device_limit(1, 1000);
  EXPECT_EQ(ledger.device_limit(1), 1000u);
  EXPECT_EQ(ledger.device_limit(0), 0u);  // none on another device
  auto held = ledger.charge_device(1, 600);
  try {
    auto more = ledger.charge_device(1, 500);
    FAIL() << "a charge past the limit was taken";
  } catch (const DeviceLimitExceeded& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("device 1"), std::string::npos) << message;
  }
  EXPECT_THROW(held.resize(1001), DeviceLimitExceeded);
  EXPECT_EQ(held.bytes(), 600u);
  EXPECT_EQ(ledger.device_bytes(1), 600u);
  EXPECT_EQ(ledger.snapshot()[Stage::device].count, 1u);
  held.resize(1000);  // up to the limit is allowed
  auto elsewhere = ledger.charge_device(0, 5000);  // device 0 has no limit
  EXPECT_EQ(ledger.device_bytes(0), 5000u);
  held.resize(100);
  auto fits = ledger.charge_device(1, 900);
  EXPECT_EQ(ledger.device_bytes(1), 1000u);
  ledger.set_device_limit(1, 0);  // no limit again
  auto beyond = ledger.charge_device(1, 1u << 20);
  EXPECT_EQ(ledger.device_bytes(1), 1000u + (1u << 20));
}

TEST(BufferLedger, TimeInStageAccumulates) {
  using std::chrono::milliseconds;
  BufferLedger ledger;
  const auto t0 = std::chrono::steady_clock::now();
  auto c = ledger.charge(Stage::on_device, 1);
  std::this_thread::sleep_for(milliseconds(20));
  c.move_to(Stage::pending_finalize);
  std::this_thread::sleep_for(milliseconds(5));
  c.release();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  LedgerSnapshot s = ledger.snapshot();
  EXPECT_EQ(s[Stage::on_device].exits, 1u);
  EXPECT_EQ(s[Stage::pending_finalize].exits, 1u);
  EXPECT_GE(s[Stage::on_device].mean_seconds(), 0.020);
  EXPECT_GE(s[Stage::pending_finalize].mean_seconds(), 0.005);
  EXPECT_LE(s[Stage::on_device].seconds + s[Stage::pending_finalize].seconds, wall);
}

TEST(BufferLedger, ObserversSeeEveryChange) {
  BufferLedger ledger;
  std::vector<std::size_t> tracked;
  auto id = ledger.add_observer([&](const LedgerEvent& e) { tracked.push_back(e.after.tracked); });
  {
    auto c = ledger.charge(Stage::queued, 10);
    c.resize(30);
    c.move_to(Stage::on_device);
  }
  ledger.remove_observer(id);
  auto unobserved = ledger.charge(Stage::queued, 5);
  EXPECT_EQ(tracked, (std::vector<std::size_t>{10, 30, 30, 0}));
}

TEST(BufferLedger, MovedChargeIsReleasedOnce) {
  BufferLedger ledger;
  auto a = ledger.charge(Stage::scratch, 8);
  BufferLedger::Charge b = std::move(a);
  EXPECT_FALSE(a.active());
  EXPECT_EQ(ledger.snapshot().tracked, 8u);
  b = BufferLedger::Charge{};
  EXPECT_EQ(ledger.snapshot().tracked, 0u);
}

// Residency is read from the buffer's own pages (mincore), not the process's RSS: the
// RSS also moves with whatever else the process maps meanwhile (ASan's shadow and
// quarantine among them), which made a whole-process bound fail at random.
std::size_t resident_pages(const void* data, std::size_t bytes) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core((bytes + page - 1) / page);
  // ENOMEM: the range is no longer mapped, so none of it is resident.
  if (mincore(const_cast<void*>(data), bytes, in_core.data()) != 0) return 0;
  std::size_t resident = 0;
  for (unsigned char c : in_core) resident += c & 1u;
  return resident;
}

TEST(TrackedBuffer, IsPageBackedChargedAndReturnedToTheOs) {
  BufferLedger ledger;
  constexpr std::size_t kBytes = 64u << 20;
  const std::size_t pages = kBytes / static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const void* data = nullptr;
  {
    TrackedBuffer buffer(ledger, Stage::scratch, kBytes);
    data = buffer.data();
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buffer.data()) % 4096, 0u);
    EXPECT_EQ(buffer.size(), kBytes);
    EXPECT_EQ(ledger.snapshot()[Stage::scratch].bytes, kBytes);
    EXPECT_EQ(resident_pages(data, kBytes), 0u);
    buffer.touch();
    EXPECT_GE(resident_pages(data, kBytes), pages * 9 / 10);
    buffer.move_to(Stage::pending_finalize);
    EXPECT_EQ(ledger.snapshot()[Stage::pending_finalize].bytes, kBytes);
  }
  EXPECT_EQ(ledger.snapshot().tracked, 0u);
  EXPECT_LT(resident_pages(data, kBytes), pages / 10);
}

TEST(ProcessMemory, ReadsRssAndPeak) {
  EXPECT_GT(resident_bytes(), 0u);
  EXPECT_GE(peak_resident_bytes(), resident_bytes() / 2);
  EXPECT_GT(available_memory_bytes(), 0u);
}

}  // namespace
}  // namespace zkpipe::memory
