#include "engine/device_assignment.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace zkpipe::engine {
namespace {

struct Queued {
  Priority priority = Priority::normal;
  bool here = false;
  bool elsewhere = false;
};

struct Queue {
  std::vector<Queued> items;
  std::size_t size() const { return items.size(); }
  Priority priority(std::size_t i) const { return items[i].priority; }
  bool held_here(std::size_t i) const { return items[i].here; }
  bool held_elsewhere(std::size_t i) const { return items[i].elsewhere; }
};

constexpr Priority kNormal = Priority::normal;
constexpr Priority kCritical = Priority::critical;

TEST(DeviceAssignment, TakesTheOldestWhenNoKeyIsHeldAnywhere) {
  EXPECT_EQ(choose_partition(Queue{{{}, {}, {}}}), 0u);
}

TEST(DeviceAssignment, PrefersAPartitionWhoseKeyItHoldsOverOneAnotherDeviceWillTake) {
  EXPECT_EQ(choose_partition(Queue{{{kNormal, false, true}, {kNormal, false, true}, {kNormal, true, false}}}), 2u);
}

TEST(DeviceAssignment, NeverPassesOverAPartitionWhoseKeyNoOtherDeviceHolds) {
  // The oldest's key is nowhere: skipping it could starve it.
  EXPECT_EQ(choose_partition(Queue{{{kNormal, false, false}, {kNormal, true, false}}}), 0u);
}

TEST(DeviceAssignment, TakesTheOldestWhenItHoldsItsKeyToo) {
  EXPECT_EQ(choose_partition(Queue{{{kNormal, true, true}, {kNormal, true, false}}}), 0u);
}

TEST(DeviceAssignment, TakesTheOldestRatherThanIdleWhenNothingSuitsItBetter) {
  EXPECT_EQ(choose_partition(Queue{{{kNormal, false, true}, {kNormal, false, true}}}), 0u);
}

TEST(DeviceAssignment, AMoreUrgentPartitionIsNeverPassedOverForAffinity) {
  // The critical partition's key is on another device, the normal ones' on this one.
  EXPECT_EQ(choose_partition(Queue{{{kNormal, true, false}, {kCritical, false, true}, {kNormal, true, false}}}), 1u);
  // Among the critical ones, affinity applies.
  EXPECT_EQ(choose_partition(Queue{{{kNormal, true, false},
                                    {kCritical, false, true},
                                    {kNormal, true, false},
                                    {kCritical, true, false}}}),
            3u);
  EXPECT_EQ(choose_partition(Queue{{{Priority::low, false, false}, {Priority::high, false, false}}}), 1u);
}

}  // namespace
}  // namespace zkpipe::engine
