#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "engine/admission.hpp"
#include "engine/bounded_channel.hpp"

namespace zkpipe::engine {
namespace {

TEST(Admission, OrdersByPriorityThenArrivalThenPartition) {
  auto admission = Admission::create(1000);
  admission->push({Priority::normal, 1, 1, 0});
  admission->push({Priority::normal, 1, 0, 0});
  admission->push({Priority::low, 0, 0, 0});
  admission->push({Priority::critical, 5, 0, 0});
  admission->push({Priority::normal, 2, 0, 0});
  std::vector<std::pair<std::uint64_t, std::size_t>> order;
  for (int i = 0; i < 5; ++i) {
    auto a = admission->take();
    order.emplace_back(a->task.request, a->task.partition);
  }
  EXPECT_EQ(order, (std::vector<std::pair<std::uint64_t, std::size_t>>{{5, 0}, {1, 0}, {1, 1}, {2, 0}, {0, 0}}));
}

TEST(Admission, ReservesAndReleasesInParts) {
  auto admission = Admission::create(100);
  admission->push({Priority::normal, 1, 0, 60});
  auto a = admission->take();
  EXPECT_EQ(admission->reserved(), 60u);
  a->reservation.release(45);
  EXPECT_EQ(admission->reserved(), 15u);
  a->reservation.release_all();
  EXPECT_EQ(admission->reserved(), 0u);
}

// Head-of-line: a large task at the head blocks smaller ones behind it, so a
// stream of small tasks cannot starve it.
TEST(Admission, LargeTaskIsNotStarvedBySmallOnes) {
  auto admission = Admission::create(100);
  admission->push({Priority::normal, 1, 0, 60});
  auto first = admission->take();
  admission->push({Priority::normal, 2, 0, 80});  // does not fit while 60 are held
  admission->push({Priority::normal, 3, 0, 10});  // would fit, but is behind the large one
  std::atomic<std::uint64_t> admitted{0};
  std::thread taker([&] {
    auto a = admission->take();
    admitted = a->task.request;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(admitted.load(), 0u);
  first->reservation.release_all();
  taker.join();
  EXPECT_EQ(admitted.load(), 2u);
}

TEST(Admission, PinnedBytesAndOverflow) {
  auto admission = Admission::create(100);
  auto pinned = admission->reserve_pinned(30);
  EXPECT_EQ(admission->largest_admissible(), 70u);
  EXPECT_THROW(admission->reserve_pinned(80), std::runtime_error);
  pinned.release_all();
  EXPECT_EQ(admission->largest_admissible(), 100u);
}

TEST(Admission, RemoveRequestAndStop) {
  auto admission = Admission::create(100);
  admission->push({Priority::normal, 1, 0, 0});
  admission->push({Priority::normal, 1, 1, 0});
  admission->push({Priority::normal, 2, 0, 0});
  EXPECT_EQ(admission->remove_request(1).size(), 2u);
  EXPECT_EQ(admission->take()->task.request, 2u);
  std::thread waiter([&] { EXPECT_FALSE(admission->take().has_value()); });
  admission->stop();
  waiter.join();
}

// Many takers and releasers racing: every task is admitted exactly once and the
// budget is never overdrawn (a lost wake-up would hang this test).
TEST(Admission, NoLostWakeUpsUnderContention) {
  constexpr std::size_t kTasks = 2000;
  auto admission = Admission::create(10);
  for (std::size_t i = 0; i < kTasks; ++i) admission->push({Priority::normal, i, 0, 1 + i % 7});
  std::atomic<std::size_t> taken{0};
  std::atomic<bool> overdrawn{false};
  std::vector<std::thread> takers;
  for (int t = 0; t < 4; ++t) {
    takers.emplace_back([&] {
      while (taken.fetch_add(1) < kTasks) {
        auto a = admission->take();
        if (admission->reserved() > admission->capacity()) overdrawn = true;
        std::this_thread::yield();
        a->reservation.release_all();
      }
    });
  }
  for (auto& t : takers) t.join();
  EXPECT_FALSE(overdrawn);
  EXPECT_EQ(admission->reserved(), 0u);
}

TEST(BoundedChannel, SendWaitsForRoomAndDetachedSendsDoNot) {
  BoundedChannel<int> channel(1);
  channel.send(1);  // fits
  channel.send_detached(2);
  channel.send_detached(3);
  EXPECT_EQ(channel.size(), 3u);
  std::atomic<bool> sent{false};
  std::thread sender([&] {
    channel.send(4);
    sent = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(sent);
  EXPECT_EQ(channel.receive(), 1);
  EXPECT_EQ(channel.receive(), 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(sent);  // 3 is in the channel, 4 still waits
  EXPECT_EQ(channel.receive(), 3);
  sender.join();
  EXPECT_TRUE(sent);
  EXPECT_EQ(channel.receive(), 4);
  channel.close();
  EXPECT_FALSE(channel.receive().has_value());
}

// take_if removes matching items wherever they wait, and a sender whose item it
// took returns.
TEST(BoundedChannel, TakeIfRemovesWaitingItemsAndReleasesTheirSenders) {
  BoundedChannel<int> channel(1);
  channel.send(1);
  std::atomic<bool> sent{false};
  std::thread sender([&] {
    channel.send(2);
    sent = true;
  });
  while (channel.size() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_FALSE(sent);
  const std::vector<int> taken = channel.take_if([](int v) { return v == 2; });
  sender.join();
  EXPECT_TRUE(sent);
  EXPECT_EQ(taken, std::vector<int>{2});
  EXPECT_EQ(channel.size(), 1u);
  EXPECT_TRUE(channel.take_if([](int v) { return v == 7; }).empty());
  EXPECT_EQ(channel.receive(), 1);
}

// A receiver's chooser takes an item out of order; the others keep theirs, and a
// sender whose item was taken early returns, while one still behind a full channel
// waits.
TEST(BoundedChannel, ChooserTakesOutOfOrderAndSendersFollowTheirItems) {
  BoundedChannel<int> channel(1);
  channel.send(1);
  std::atomic<bool> sent_2{false};
  std::atomic<bool> sent_3{false};
  std::thread sender_2([&] {
    channel.send(2);
    sent_2 = true;
  });
  while (channel.size() < 2) std::this_thread::yield();
  std::thread sender_3([&] {
    channel.send(3);
    sent_3 = true;
  });
  while (channel.size() < 3) std::this_thread::yield();
  auto pick = [](int wanted) {
    return [wanted](const BoundedChannel<int>::View& v) -> std::optional<std::size_t> {
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] == wanted) return i;
      }
      return std::nullopt;
    };
  };
  EXPECT_EQ(channel.receive(pick(3)), 3);
  sender_3.join();
  EXPECT_TRUE(sent_3) << "its item was taken";
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(sent_2) << "1 still fills the channel";
  EXPECT_EQ(channel.receive(), 1);
  sender_2.join();
  EXPECT_EQ(channel.receive(), 2);
}

// A chooser that declines every item waits; wake() asks it again.
TEST(BoundedChannel, DecliningChooserWaitsUntilWoken) {
  BoundedChannel<int> channel(4);
  channel.send(7);
  std::atomic<bool> accept{false};
  std::atomic<bool> received{false};
  std::thread receiver([&] {
    auto got = channel.receive([&](const BoundedChannel<int>::View&) {
      return accept ? std::optional<std::size_t>(0) : std::nullopt;
    });
    EXPECT_EQ(got, 7);
    received = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(received);
  accept = true;
  channel.wake();
  receiver.join();
  EXPECT_TRUE(received);
}

}  // namespace
}  // namespace zkpipe::engine
