#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/buffer_ledger.hpp"
#include "engine/buffer_log.hpp"
#include "engine/process_memory.hpp"
#include "engine/tracked_buffer.hpp"

namespace zkpipe::engine {
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

TEST(BufferLedger, TimeInStageAccumulates) {
  BufferLedger ledger;
  auto c = ledger.charge(Stage::on_device, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  c.move_to(Stage::pending_finalize);
  c.release();
  LedgerSnapshot s = ledger.snapshot();
  EXPECT_GE(s[Stage::on_device].mean_seconds(), 0.019);
  EXPECT_LT(s[Stage::pending_finalize].mean_seconds(), s[Stage::on_device].mean_seconds());
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

TEST(TrackedBuffer, IsPageBackedChargedAndReturnedToTheOs) {
  BufferLedger ledger;
  constexpr std::size_t kBytes = 64u << 20;
  const std::size_t before = resident_bytes();
  {
    TrackedBuffer buffer(ledger, Stage::scratch, kBytes);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buffer.data()) % 4096, 0u);
    EXPECT_EQ(buffer.size(), kBytes);
    EXPECT_EQ(ledger.snapshot()[Stage::scratch].bytes, kBytes);
    buffer.touch();
    EXPECT_GE(resident_bytes(), before + kBytes * 9 / 10);
    buffer.move_to(Stage::pending_finalize);
    EXPECT_EQ(ledger.snapshot()[Stage::pending_finalize].bytes, kBytes);
  }
  EXPECT_EQ(ledger.snapshot().tracked, 0u);
  EXPECT_LT(resident_bytes(), before + kBytes / 10);
}

TEST(ProcessMemory, ReadsRssAndPeak) {
  EXPECT_GT(resident_bytes(), 0u);
  EXPECT_GE(peak_resident_bytes(), resident_bytes() / 2);
  EXPECT_GT(available_memory_bytes(), 0u);
}

TEST(BufferLog, LineFollowsTheDesignFormat) {
  LedgerSnapshot s;
  s[Stage::synthesizing] = {4, std::size_t{13} << 30, 0, 0, 0, 0};
  s[Stage::queued] = {2, std::size_t{6} << 30, 0, 0, 0, 0};
  s[Stage::on_device] = {1, std::size_t{3} << 29, 0, 0, 0, 0};
  s.tracked = (std::size_t{13} << 30) + (std::size_t{6} << 30) + (std::size_t{3} << 29);
  const std::size_t rss = s.tracked + (std::size_t{2} << 30);
  HookEvent e{Hook::synth_done, 7, 2, 10, 1.0, rss, s};
  EXPECT_EQ(format_buffer_line(e, std::size_t{1} << 30),
            "buffers ev=synth_done proof=7 part=3/10 synth=4/13.0GiB queued=2/6.0GiB gpu=1/1.5GiB finalize=0 "
            "dealloc=0 params=0 scratch=0 dev=0 rss=22.5GiB untracked=1.0GiB");
}

// Device bytes are shown (dev=, and the driver's dev_used= when known) but do not
// enter untracked = RSS - baseline - tracked.
TEST(BufferLog, DeviceBytesAreShownButNotInUntracked) {
  BufferLedger ledger;
  auto host = ledger.charge(Stage::scratch, std::size_t{1} << 27);
  std::vector<BufferLedger::Charge> device;
  for (int i = 0; i < 3; ++i) device.push_back(ledger.charge(Stage::device, std::size_t{4} << 30));
  const LedgerSnapshot s = ledger.snapshot();
  const std::size_t rss = (std::size_t{1} << 30) + (std::size_t{1} << 27) + (std::size_t{1} << 29);
  HookEvent e{Hook::gpu_start, 1, 0, 1, 1.0, rss, s};
  const std::string tail = "params=0 scratch=1/128.0MiB dev=3/12.0GiB rss=1.6GiB untracked=512.0MiB";
  const std::string line = format_buffer_line(e, std::size_t{1} << 30);
  EXPECT_EQ(line.substr(line.size() - tail.size()), tail) << line;
  const std::string with_used = format_buffer_line(e, std::size_t{1} << 30, std::size_t{25} << 29);
  EXPECT_NE(with_used.find(" dev=3/12.0GiB dev_used=12.5GiB rss=1.6GiB "), std::string::npos) << with_used;

  std::ostringstream out;
  BufferLogger logger(out, {LogLevel::info, LogLevel::info, 0, std::size_t{1} << 30},
                      [] { return std::optional<std::size_t>(std::size_t{13} << 30); });
  logger.on_hook(e);
  EXPECT_NE(out.str().find(" dev_used=13.0GiB "), std::string::npos) << out.str();
}

TEST(BufferLog, RateLimitAndLevel) {
  LedgerSnapshot s;
  std::ostringstream out;
  BufferLogger logger(out, {LogLevel::info, LogLevel::info, 1.0, 0});
  for (int i = 0; i < 5; ++i) logger.on_hook({Hook::gpu_start, 1, 0, 1, 0.1 * i, 0, s});
  logger.on_hook({Hook::dealloc_done, 1, 0, 1, 1.5, 0, s});
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
  EXPECT_NE(text.find("(+4 events not logged)"), std::string::npos);

  std::ostringstream quiet;
  BufferLogger debug_lines(quiet, {LogLevel::debug, LogLevel::info, 0, 0});
  debug_lines.on_hook({Hook::gpu_start, 1, 0, 1, 0, 0, s});
  EXPECT_TRUE(quiet.str().empty());
}

}  // namespace
}  // namespace zkpipe::engine
