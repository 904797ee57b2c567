// The daemon's configuration: a TOML file (every key optional, defaults below and in
// docs/deploy/zkpipe.example.toml), then the command line's flags over it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/device_memory_budget.hpp"

namespace zkpipe::service::config {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// $FIL_PROOFS_PARAMETER_CACHE, as rust-fil-proofs reads it, else its default
// /var/tmp/filecoin-proof-parameters.
std::filesystem::path default_filecoin_params();

struct ServiceConfig {
  // gRPC address: "unix:PATH" or "HOST:PORT".
  std::string listen = "127.0.0.1:50051";
  // HTTP GET /metrics (Prometheus); empty: not served.
  std::string metrics_listen;
  // A non-loopback TCP address is refused unless this is set.
  bool allow_remote = false;
  // Where the job journal (jobs.sqlite) lives; created if missing.
  std::filesystem::path data_dir = "zkpipe-data";
  // Files a request names (parameter files, .zkey, .wtns) must lie under one of these (after resolving
  // symbolic links and ".."). Empty: the data dir only.
  std::vector<std::filesystem::path> parameter_roots;
  // A file holding the bearer token clients must send; empty: no authentication.
  std::filesystem::path token_file;
  // Largest request accepted, in bytes.
  std::size_t max_request_bytes = std::size_t{1} << 20;
  // Jobs queued or running at once; a submit beyond it gets RESOURCE_EXHAUSTED.
  std::size_t max_jobs = 4096;
  // Calls one client may have parked at once (AwaitProof, Prove, WatchBuffers); one
  // more gets RESOURCE_EXHAUSTED. A client is its address less the port; every
  // client of a unix socket is one.
  std::size_t max_waits_per_peer = 256;

  // cuzk.v1.ProvingEngine (docs/CUZK.md): the .params file each cuzk circuit id is
  // proved with ("porep-32g" = ".../v28-stacked-proof-of-replication-...params"); a
  // request for an id not listed gets NOT_FOUND. The files lie under parameter_roots.
  std::map<std::string, std::filesystem::path, std::less<>> cuzk_params;
  // Where Filecoin .params are converted into zkpipe's key caches (tens of GiB for a
  // 32 GiB sector) and their evaluators cached; empty: <data_dir>/key-cache.
  std::filesystem::path key_cache_dir;
  // The most bytes that directory may hold: before a conversion the oldest caches not
  // in use are removed to make room (key_cache_budget); 0: no limit.
  std::size_t key_cache_budget_bytes = 0;
  // Filecoin's parameter directory (where paramfetch puts the published v28-….params
  // and .vk files): a cuzk circuit id not in cuzk_params is proved with its published
  // file there (service/api/cuzk_params.hpp); the directory counts as a parameter root.
  // Empty: none. Default default_filecoin_params().
  std::filesystem::path filecoin_params = default_filecoin_params();
  // Set by use_cuzk_defaults (zkpipe serve --cuzk, a [cuzk] section): the daemon
  // stands in for cuzk where Curio looks for it.
  bool cuzk_defaults = false;

  // Engine.
  // auto | cpu | cuda. auto: cuda when the build has it and the driver reports a
  // device, else cpu (the program resolves it: zkpipe serve's backend_setup).
  std::string backend = "auto";
  // CUDA device ordinal; unset: 0. Set (or devices set), it names a GPU: with auto
  // and no usable device the daemon refuses to start rather than prove on the CPU.
  std::optional<int> device;
  // Engine devices, one backend each with its own resident keys, pools and
  // workers_per_device workers: CUDA ordinals (one listed twice is two engine
  // devices on that GPU), or with the cpu backend one CPU backend per entry. Empty:
  // the one `device` names. A config file sets device or devices, not both.
  std::vector<int> devices;
  // The most device memory the daemon takes on each of its GPUs (device_memory,
  // --device-memory): one size, or sizes by ordinal; a GPU without one: what the
  // driver says is free, less a margin.
  formats::DeviceMemoryBudget device_memory;
  // What does not fit on a GPU is streamed from a page-locked copy of the key made once
  // (pinned_copy, --pinned-copy; the copy engine sends it at the link's speed), or with
  // false from the key's own memory, staged by host threads at every MSM: less memory
  // page-locked, for a host whose memory is shared with sealing.
  bool pinned_copy = true;
  std::size_t synthesis_workers = 0;  // pw; 0: the core count
  std::size_t workers_per_device = 1; // gw
  std::size_t finalizers = 1;
  // Memory budget shared by resident parameters and working sets; 0: MemAvailable.
  std::size_t budget_bytes = 0;

  // Parameter residency: unused parameters are evicted after this many idle seconds
  // (0: only when the budget needs their bytes, or on EvictParams).
  double param_idle_seconds = 600;

  // SIGTERM: running jobs get this long to finish, then are cancelled (they stay
  // in the journal and run again at the next start).
  double drain_seconds = 30;
  // Finished jobs' results (proofs) are kept in the journal this long.
  double keep_results_seconds = 24 * 3600;

  // Cluster mode: the job queue in PostgreSQL (postgresql://USER@HOST:PORT/DB)
  // shared by several daemons instead of the data dir's SQLite journal; empty:
  // SQLite. See docs/CLUSTER.md.
  std::string queue;
  // This daemon's name in the cluster (unique); empty: HOSTNAME:PID.
  std::string daemon_name;
  // A partition lease not renewed for this long is taken over by another daemon.
  double lease_seconds = 10;
  // How often leases are renewed (and cancelled jobs noticed); below lease_seconds.
  double heartbeat_seconds = 2;
  // How often an idle daemon asks the queue for work.
  double poll_seconds = 0.2;
  // How long a daemon keeps reconnecting to an unreachable database before a call fails.
  double reconnect_seconds = 120;

  // The effective parameter roots (parameter_roots, or the data dir), and
  // filecoin_params when that directory exists.
  std::vector<std::filesystem::path> effective_parameter_roots() const;
  // key_cache_dir, or <data_dir>/key-cache.
  std::filesystem::path effective_key_cache_dir() const;
  // Throws ConfigError naming the first bad value.
  void validate() const;
  // devices, or [device] (device 0 when unset).
  std::vector<int> engine_devices() const;
};

// Where Curio's cuzk client connects by default, and the request limit a 32 GiB C1
// output (tens of MB) and a Window PoSt partition (~59 MB) need.
inline constexpr const char* kCuzkListen = "unix:///run/curio/cuzk.sock";
inline constexpr std::size_t kCuzkMaxRequestBytes = std::size_t{256} << 20;

// Curio's defaults in one switch: listen on kCuzkListen, take requests up to
// kCuzkMaxRequestBytes. Keys and flags given explicitly still win (applied after).
void use_cuzk_defaults(ServiceConfig& config);

// Reads a TOML file over the defaults (over Curio's, use_cuzk_defaults, when `cuzk`
// or the file has a [cuzk] section); throws ConfigError naming the file, the key and
// the problem (unknown keys included: a typo must not be silently ignored).
ServiceConfig load_config(const std::filesystem::path& path, bool cuzk = false);

// A gRPC listen address, split: unix sockets, or host and port.
struct ListenAddress {
  bool unix_socket = false;
  std::string path;  // unix
  std::string host;  // tcp
  std::uint16_t port = 0;

  bool loopback() const;
  std::string grpc_target() const;
};
// Throws ConfigError for a malformed address.
ListenAddress parse_listen_address(const std::string& text);

}  // namespace zkpipe::service::config
