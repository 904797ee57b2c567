// Calls parked per client (AwaitProof, Prove, WatchBuffers), bounded so that one
// client cannot fill the daemon with waits (ServiceConfig::max_waits_per_peer). A
// client is its address without the port: every connection from one host counts
// together, and so does every client of a unix socket.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace zkpipe::service::api {

class PeerLimit {
 public:
  // One parked call; its place is given back when the slot is destroyed or reset.
  class Slot {
   public:
    Slot(PeerLimit& limit, std::string client) : limit_(&limit), client_(std::move(client)) {}
    Slot(Slot&& other) noexcept : limit_(std::exchange(other.limit_, nullptr)), client_(std::move(other.client_)) {}
    Slot& operator=(Slot&&) = delete;
    Slot(const Slot&) = delete;
    ~Slot() { reset(); }
    void reset();

   private:
    PeerLimit* limit_;
    std::string client_;
  };

  explicit PeerLimit(std::size_t per_client) : per_client_(per_client) {}

  // A slot for a call from `peer` (gRPC's peer string, e.g. "ipv4:10.0.0.7:51234"),
  // or nullopt when its client holds per_client() already.
  std::optional<Slot> acquire(std::string_view peer);
  std::size_t per_client() const { return per_client_; }
  // The client a peer string names: the address less its port.
  static std::string client_of(std::string_view peer);

 private:
  void release(const std::string& client);

  const std::size_t per_client_;
  std::mutex mutex_;
  std::map<std::string, std::size_t, std::less<>> parked_;
};

}  // namespace zkpipe::service::api
