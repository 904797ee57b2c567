#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/buffer_log.hpp"
#include "memory/buffer_ledger.hpp"

namespace zkpipe::engine {
namespace {

// A baseline of 1 GiB RSS, 128 MiB of it runtime (code pages and malloc's heap).
memory::MemoryBaseline gib_baseline() {
  memory::MemoryBaseline b;
  b.rss = std::size_t{1} << 30;
  b.runtime = {std::size_t{64} << 20, std::size_t{64} << 20};
  return b;
}

// A backend that proves nothing; its device reports 13 GiB in use.
class DeviceReporting final : public groth16::ProverBackend {
 public:
  std::string name() const override { return "device"; }
  std::unique_ptr<groth16::PendingProof> start(groth16::PartitionWitness, const groth16::ProvingKey&,
                                               const groth16::Blinding&) override {
    throw std::logic_error("not a prover");
  }
  groth16::Proof finish(std::unique_ptr<groth16::PendingProof>) override { throw std::logic_error("not a prover"); }
  void abort(std::unique_ptr<groth16::PendingProof>) override {}
  std::optional<std::size_t> device_memory_used() const override { return std::size_t{13} << 30; }
};

TEST(BufferLog, LineFollowsTheDesignFormat) {
  LedgerSnapshot s;
  s[Stage::synthesizing] = {4, std::size_t{13} << 30, 0, 0, 0, 0};
  s[Stage::queued] = {2, std::size_t{6} << 30, 0, 0, 0, 0};
  s[Stage::on_device] = {1, std::size_t{3} << 29, 0, 0, 0, 0};
  s.tracked = (std::size_t{13} << 30) + (std::size_t{6} << 30) + (std::size_t{3} << 29);
  const std::size_t rss = s.tracked + (std::size_t{2} << 30);
  // The runtime grew by 256 MiB since the baseline: untracked = 2 GiB − 1 GiB − 256 MiB.
  HookEvent e{Hook::synth_done, 7, 2, 10, 1.0, rss, std::size_t{384} << 20, s};
  EXPECT_EQ(format_buffer_line(e, gib_baseline()),
            "buffers ev=synth_done proof=7 part=3/10 synth=4/13.0GiB queued=2/6.0GiB gpu=1/1.5GiB finalize=0 "
            "dealloc=0 params=0 scratch=0 dev=0 rss=22.5GiB runtime=384.0MiB untracked=768.0MiB");
}

// Device bytes are shown (dev=, and the driver's dev_used= when known) but do not
// enter untracked = RSS - baseline - tracked - runtime growth.
TEST(BufferLog, DeviceBytesAreShownButNotInUntracked) {
  BufferLedger ledger;
  auto host = ledger.charge(Stage::scratch, std::size_t{1} << 27);
  std::vector<BufferLedger::Charge> device;
  for (int i = 0; i < 3; ++i) device.push_back(ledger.charge(Stage::device, std::size_t{4} << 30));
  const LedgerSnapshot s = ledger.snapshot();
  const std::size_t rss = (std::size_t{1} << 30) + (std::size_t{1} << 27) + (std::size_t{1} << 29);
  HookEvent e{Hook::gpu_start, 1, 0, 1, 1.0, rss, std::size_t{128} << 20, s};
  const std::string tail = "params=0 scratch=1/128.0MiB dev=3/12.0GiB rss=1.6GiB runtime=128.0MiB untracked=512.0MiB";
  const std::string line = format_buffer_line(e, gib_baseline());
  EXPECT_EQ(line.substr(line.size() - tail.size()), tail) << line;
  const std::string with_used = format_buffer_line(e, gib_baseline(), std::size_t{25} << 29);
  EXPECT_NE(with_used.find(" dev=3/12.0GiB dev_used=12.5GiB rss=1.6GiB "), std::string::npos) << with_used;

  std::ostringstream out;
  BufferLogger logger(out, {LogLevel::info, LogLevel::info, 0, gib_baseline()}, std::vector<std::shared_ptr<groth16::ProverBackend>>{std::make_shared<DeviceReporting>()});
  logger.on_hook(e);
  EXPECT_NE(out.str().find(" dev_used=13.0GiB "), std::string::npos) << out.str();
}

TEST(BufferLog, RateLimitAndLevel) {
  LedgerSnapshot s;
  std::ostringstream out;
  BufferLogger logger(out, {LogLevel::info, LogLevel::info, 1.0, {}});
  for (int i = 0; i < 5; ++i) logger.on_hook({Hook::gpu_start, 1, 0, 1, 0.1 * i, 0, 0, s});
  logger.on_hook({Hook::dealloc_done, 1, 0, 1, 1.5, 0, 0, s});
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
  EXPECT_NE(text.find("(+4 events not logged)"), std::string::npos);

  std::ostringstream quiet;
  BufferLogger debug_lines(quiet, {LogLevel::debug, LogLevel::info, 0, {}});
  debug_lines.on_hook({Hook::gpu_start, 1, 0, 1, 0, 0, 0, s});
  EXPECT_TRUE(quiet.str().empty());
}

}  // namespace
}  // namespace zkpipe::engine
