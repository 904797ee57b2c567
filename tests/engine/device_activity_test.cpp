// DeviceActivity against a clock the test steps: the busy time is the sum of
// serialized start() calls and the union of overlapping ones, a call in progress
// included; exact figures, whatever the machine's load.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>

#include "engine/device_activity.hpp"

namespace zkpipe::engine {
namespace {

using std::chrono::milliseconds;

// A clock that moves only when the test says so.
struct SteppedClock {
  DeviceActivity::Clock::time_point now{};
  void advance(milliseconds by) { now += by; }
};

DeviceActivity activity_on(const SteppedClock& clock) {
  return DeviceActivity([&clock] { return clock.now; });
}

TEST(DeviceActivity, SerializedCallsAddUp) {
  SteppedClock clock;
  DeviceActivity activity = activity_on(clock);
  {
    const DeviceActivity::Scope first(activity);
    clock.advance(milliseconds(10));
  }
  clock.advance(milliseconds(5));  // idle: not counted
  {
    const DeviceActivity::Scope second(activity);
    clock.advance(milliseconds(10));
  }
  EXPECT_DOUBLE_EQ(activity.busy_seconds(), 0.020);
  EXPECT_EQ(activity.peak_concurrency(), 1u);
}

TEST(DeviceActivity, OverlappingCallsCountTheirUnion) {
  SteppedClock clock;
  DeviceActivity activity = activity_on(clock);
  std::optional<DeviceActivity::Scope> first(std::in_place, activity);
  clock.advance(milliseconds(10));
  std::optional<DeviceActivity::Scope> second(std::in_place, activity);
  clock.advance(milliseconds(10));
  first.reset();
  clock.advance(milliseconds(10));
  second.reset();
  // 0-20 and 10-30: 30 ms of union, not 40 of sum.
  EXPECT_DOUBLE_EQ(activity.busy_seconds(), 0.030);
  EXPECT_EQ(activity.peak_concurrency(), 2u);
}

TEST(DeviceActivity, ACallInProgressCountsUpToNow) {
  SteppedClock clock;
  DeviceActivity activity = activity_on(clock);
  {
    const DeviceActivity::Scope done(activity);
    clock.advance(milliseconds(10));
  }
  const DeviceActivity::Scope running(activity);
  clock.advance(milliseconds(7));
  EXPECT_DOUBLE_EQ(activity.busy_seconds(), 0.017);
  clock.advance(milliseconds(3));
  EXPECT_DOUBLE_EQ(activity.busy_seconds(), 0.020);
}

}  // namespace
}  // namespace zkpipe::engine
