#include "service/api/peer_limit.hpp"

namespace zkpipe::service::api {

void PeerLimit::Slot::reset() {
  if (limit_ != nullptr) std::exchange(limit_, nullptr)->release(client_);
}

std::string PeerLimit::client_of(std::string_view peer) {
  // "ipv4:HOST:PORT" and "ipv6:[HOST]:PORT" end with the port; "unix:PATH" has none.
  if (peer.starts_with("ipv4:") || peer.starts_with("ipv6:")) {
    const auto colon = peer.rfind(':');
    if (colon > 5) peer = peer.substr(0, colon);
  }
  return std::string(peer);
}

std::optional<PeerLimit::Slot> PeerLimit::acquire(std::string_view peer) {
  std::string client = client_of(peer);
  std::lock_guard lock(mutex_);
  std::size_t& parked = parked_[client];
  if (parked >= per_client_) return std::nullopt;
  ++parked;
  return Slot(*this, std::move(client));
}

void PeerLimit::release(const std::string& client) {
  std::lock_guard lock(mutex_);
  const auto it = parked_.find(client);
  if (--it->second == 0) parked_.erase(it);
}

}  // namespace zkpipe::service::api
