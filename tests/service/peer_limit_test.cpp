// Parked calls per client: a client is its address less the port, the limit holds
// per client, and a slot's place comes back when it ends.
#include <gtest/gtest.h>

#include <vector>

#include "service/api/peer_limit.hpp"

namespace zkpipe::service {
namespace {

TEST(PeerLimit, CountsPerClientAndGivesPlacesBack) {
  EXPECT_EQ(api::PeerLimit::client_of("ipv4:10.0.0.7:51234"), "ipv4:10.0.0.7");
  EXPECT_EQ(api::PeerLimit::client_of("ipv6:[::1]:4000"), "ipv6:[::1]");
  EXPECT_EQ(api::PeerLimit::client_of("unix:/run/zkpipe.sock"), "unix:/run/zkpipe.sock");

  api::PeerLimit limit(2);
  std::vector<api::PeerLimit::Slot> held;
  for (int i = 0; i < 2; ++i) {
    auto slot = limit.acquire("ipv4:10.0.0.7:" + std::to_string(5000 + i));
    ASSERT_TRUE(slot.has_value());
    held.push_back(std::move(*slot));
  }
  // Another connection from the same host is the same client.
  EXPECT_FALSE(limit.acquire("ipv4:10.0.0.7:6000").has_value());
  EXPECT_TRUE(limit.acquire("ipv4:10.0.0.8:6000").has_value());
  held.pop_back();
  EXPECT_TRUE(limit.acquire("ipv4:10.0.0.7:6000").has_value());
}

}  // namespace
}  // namespace zkpipe::service
