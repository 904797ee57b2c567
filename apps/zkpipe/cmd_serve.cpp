// zkpipe serve: the proving daemon (src/service). Configuration from a TOML file,
// then the flags over it; SIGTERM / SIGINT drain: no new jobs, running ones get
// drain_seconds to finish, the rest stay queued in the journal for the next start
// (in cluster mode, their partitions go back to the shared queue).
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <utility>

#include "backend.hpp"
#include "commands.hpp"
#include "formats/byte_size.hpp"
#include "progress.hpp"
#include "service/api/grpc_server.hpp"
#include "service/config/config.hpp"
#include "service/metrics/http_metrics.hpp"
#include "service/proving_service.hpp"

#ifdef ZKPIPE_WITH_CUDA
#include "gpu/cuda_prover.hpp"
#endif

namespace zkpipe::cli {

namespace {

// Flags given on the command line; each overrides the configuration file's value.
struct ServeOptions {
  std::string config_file;
  std::optional<std::string> listen;
  std::optional<std::string> metrics_listen;
  std::optional<std::string> data_dir;
  std::vector<std::string> parameter_roots;
  std::optional<std::string> token_file;
  std::optional<std::string> filecoin_params;
  std::optional<std::string> key_cache_dir;
  std::optional<std::string> key_cache_budget;
  std::optional<std::string> backend;
  std::optional<int> device;
  std::vector<int> devices;
  std::optional<std::string> device_memory;
  std::optional<bool> pinned_copy;
  std::optional<std::size_t> pw;
  std::optional<std::size_t> gw;
  std::optional<std::string> budget;
  std::optional<double> drain_seconds;
  std::optional<double> param_idle_seconds;
  std::optional<std::string> queue;
  std::optional<std::string> name;
  std::optional<double> lease_seconds;
  std::optional<double> heartbeat_seconds;
  bool allow_remote = false;
  bool cuzk = false;
};

service::config::ServiceConfig effective_config(const ServeOptions& o) {
  service::config::ServiceConfig c;
  if (!o.config_file.empty()) {
    c = service::config::load_config(o.config_file, o.cuzk);
  } else if (o.cuzk) {
    service::config::use_cuzk_defaults(c);
  }
  if (o.listen) c.listen = *o.listen;
  if (o.metrics_listen) c.metrics_listen = *o.metrics_listen;
  if (o.data_dir) c.data_dir = *o.data_dir;
  if (!o.parameter_roots.empty()) c.parameter_roots.assign(o.parameter_roots.begin(), o.parameter_roots.end());
  if (o.token_file) c.token_file = *o.token_file;
  if (o.filecoin_params) c.filecoin_params = *o.filecoin_params;
  if (o.key_cache_dir) c.key_cache_dir = *o.key_cache_dir;
  if (o.key_cache_budget) {
    const auto bytes = formats::parse_byte_size(*o.key_cache_budget);
    if (!bytes) {
      throw service::config::ConfigError("--key-cache-budget: expected a byte size such as 200GiB, not '" +
                                 *o.key_cache_budget + "'");
    }
    c.key_cache_budget_bytes = *bytes;
  }
  if (o.backend) c.backend = *o.backend;
  if (o.device) {
    c.device = *o.device;
    c.devices.clear();
  }
  if (!o.devices.empty()) {
    c.devices = o.devices;
    c.device.reset();
  }
  if (o.device_memory) {
    try {
      c.device_memory = formats::parse_device_memory_budget(*o.device_memory);
    } catch (const std::invalid_argument& e) {
      throw service::config::ConfigError(std::string("--device-memory: ") + e.what());
    }
  }
  if (o.pinned_copy) c.pinned_copy = *o.pinned_copy;
  if (o.pw) c.synthesis_workers = *o.pw;
  if (o.gw) c.workers_per_device = *o.gw;
  if (o.budget) {
    const auto bytes = formats::parse_byte_size(*o.budget);
    if (!bytes) {
      throw service::config::ConfigError("--budget: expected a byte size such as 8GiB, not '" + *o.budget + "'");
    }
    c.budget_bytes = *bytes;
  }
  if (o.drain_seconds) c.drain_seconds = *o.drain_seconds;
  if (o.param_idle_seconds) c.param_idle_seconds = *o.param_idle_seconds;
  if (o.queue) c.queue = *o.queue;
  if (o.name) c.daemon_name = *o.name;
  if (o.lease_seconds) c.lease_seconds = *o.lease_seconds;
  if (o.heartbeat_seconds) c.heartbeat_seconds = *o.heartbeat_seconds;
  if (o.allow_remote) c.allow_remote = true;
  c.validate();
  return c;
}

// Two daemons on one data dir would run every journaled job twice.
class DataDirLock {
 public:
  explicit DataDirLock(const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "lock").string();
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd_ < 0) throw service::config::ConfigError("cannot open " + path);
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      throw service::config::ConfigError("data dir " + dir.string() + " is in use by another zkpipe serve");
    }
  }
  ~DataDirLock() { ::close(fd_); }
  DataDirLock(const DataDirLock&) = delete;
  DataDirLock& operator=(const DataDirLock&) = delete;

 private:
  int fd_ = -1;
};

// The config's backend, auto resolved (a device or devices key naming a GPU that is
// not there is an error), over the config's engine devices.
BackendOptions backend_options(const service::config::ServiceConfig& c) {
  BackendOptions asked;
  asked.backend = c.backend;
  asked.device = c.device;
  asked.devices = c.devices;
  asked.device_memory = c.device_memory;
  asked.pinned_copy = c.pinned_copy;
  BackendOptions options = resolve_backend(asked);
  // Whichever was chosen, the engine devices are the config's: the cpu backend makes
  // one CPU backend per entry (device 0 alone when none is set).
  options.device.reset();
  options.devices = c.engine_devices();
  return options;
}

service::BackendSetup backend_setup(const BackendOptions& options) {
  service::BackendSetup setup;
  // The service's engine counts in the process ledger (EngineConfig::ledger unset);
  // the backends' own buffers must charge the same one.
  setup.backends = make_backends(options, memory::BufferLedger::process());
#ifdef ZKPIPE_WITH_CUDA
  std::vector<std::shared_ptr<gpu::CudaProver>> cuda;
  for (const auto& backend : setup.backends) {
    if (auto device = std::dynamic_pointer_cast<gpu::CudaProver>(backend)) cuda.push_back(std::move(device));
  }
  if (!cuda.empty()) {
    // Each engine device places the key when it is loaded (or at its first proof with it).
    setup.tiers.tier_of = [cuda](const groth16::ProvingKey& key) -> std::string {
      std::size_t resident = 0;
      std::size_t partly = 0;
      std::size_t streamed = 0;
      for (const auto& device : cuda) {
        switch (device->base_placement(key)) {
          case gpu::BasePlacement::kResident: ++resident; break;
          case gpu::BasePlacement::kPartlyResident: ++partly; break;
          case gpu::BasePlacement::kStreamed: ++streamed; break;
          case gpu::BasePlacement::kNotLoaded: break;
        }
      }
      if (resident == cuda.size()) return "device";
      if (resident > 0) return "device (" + std::to_string(resident) + " of " + std::to_string(cuda.size()) + ")";
      if (partly > 0) return "host and device (some queries resident, the others streamed)";
      if (streamed > 0) return "host (streamed to the device)";
      return "host";
    };
    setup.tiers.release = [cuda](const groth16::ProvingKey& key) {
      for (const auto& device : cuda) device->release(key);
    };
  }
#endif
  return setup;
}

void run_serve(const ServeOptions& o) {
  const service::config::ServiceConfig config = effective_config(o);
  // Before any thread exists, so that every thread inherits the mask and the
  // signals reach only the sigwait below.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  DataDirLock lock(config.data_dir);
  const std::string token = config.token_file.empty() ? "" : service::api::read_token_file(config.token_file);
  // Before any journaled job is resumed: a second daemon on a live socket starts nothing.
  service::api::claim_unix_socket(config.listen);
  const BackendOptions backend = backend_options(config);
  service::BackendSetup backends = backend_setup(backend);  // a missing device fails here, named
  std::cerr << "zkpipe serve: proving on the " << describe_backend(backend) << "\n";
  service::ProvingService proving(config, std::move(backends));
  service::api::GrpcServer server(proving, config, token);
  std::optional<service::metrics::MetricsHttpServer> metrics;
  if (!config.metrics_listen.empty()) metrics.emplace(proving, config.metrics_listen, token);

  std::cerr << "zkpipe serve: listening on " << config.listen;
  if (server.port() != 0) std::cerr << " (port " << server.port() << ")";
  if (config.cuzk_defaults) std::cerr << " with Curio's defaults (requests up to " << config.max_request_bytes / (1 << 20) << " MiB)";
  if (metrics) std::cerr << ", metrics on http://" << config.metrics_listen << "/metrics (port " << metrics->port() << ")";
  if (const auto s = proving.status(); s.has_cluster()) {
    std::cerr << "; cluster queue as " << s.cluster().daemon() << " (" << s.cluster().daemons_size() << " daemons)";
  }
  std::cerr << "; data dir " << config.data_dir.string() << ", budget "
            << format_bytes(static_cast<double>(proving.status().budget_bytes())) << "\n";

  int received = 0;
  sigwait(&signals, &received);
  std::cerr << "zkpipe serve: " << (received == SIGTERM ? "SIGTERM" : "SIGINT") << ", draining (up to "
            << format_seconds(config.drain_seconds) << ")\n";
  const std::size_t cut = server.drain(std::chrono::duration<double>(config.drain_seconds));
  // Awaiters of cut-short jobs have been answered UNAVAILABLE; end the other calls.
  server.shutdown(std::chrono::seconds(1));
  if (config.queue.empty()) {
    std::cerr << "zkpipe serve: stopped; " << cut << " running job(s) cut short stay queued for the next start\n";
  } else {
    std::cerr << "zkpipe serve: stopped; " << cut
              << " claimed batch(es) cut short, their partitions given back to the queue\n";
  }
}

}  // namespace

void register_serve(CLI::App& app) {
  auto o = std::make_shared<ServeOptions>();
  CLI::App* cmd = app.add_subcommand("serve", "Run the proving daemon (gRPC; see README, \"The proving service\")");
  cmd->add_option("--config", o->config_file, "TOML configuration file (docs/deploy/zkpipe.example.toml lists every key)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--listen", o->listen, "gRPC address: unix:PATH or HOST:PORT (default 127.0.0.1:50051)");
  cmd->add_option("--metrics-listen", o->metrics_listen, "Serve HTTP GET /metrics on HOST:PORT (default: off)");
  cmd->add_option("--data-dir", o->data_dir, "Job journal directory (default ./zkpipe-data)");
  cmd->add_option("--param-root", o->parameter_roots,
                  "Directory requests may name parameter files under (repeatable; default: the data dir)");
  cmd->add_option("--token-file", o->token_file, "Require this bearer token (first line of the file)");
  cmd->add_option("--filecoin-params", o->filecoin_params,
                  "Filecoin's parameter directory: a cuzk circuit id not listed in [cuzk_params] is proved with its "
                  "published v28-….params there (default $FIL_PROOFS_PARAMETER_CACHE, else "
                  "/var/tmp/filecoin-proof-parameters; empty: none)");
  cmd->add_option("--key-cache-dir", o->key_cache_dir,
                  "Where Filecoin .params are converted into zkpipe's key caches, never beside the .params "
                  "(default <data dir>/key-cache)");
  cmd->add_option("--key-cache-budget", o->key_cache_budget,
                  "The most disk the key cache directory takes, e.g. 200GiB: before a conversion the oldest caches "
                  "not in use are removed (default: no limit)");
  cmd->add_option("--backend", o->backend,
                  "Prover backend: auto | cpu | cuda (default auto: cuda when this build has it and a GPU is "
                  "present, else cpu)");
  CLI::Option* device = cmd->add_option("--device", o->device, "CUDA device ordinal (default 0)");
  add_device_list_option(*cmd, o->devices)
      ->excludes(device);
  cmd->add_option("--device-memory", o->device_memory,
                  "The most GPU memory the daemon takes on each of its devices, e.g. 16GiB, or by ordinal, e.g. "
                  "0=16GiB,1=24GiB (default, and for a device not named: what is free, less a margin)");
  cmd->add_flag("--pinned-copy,!--no-pinned-copy", o->pinned_copy,
                "Stream what does not fit on a GPU from a page-locked copy of the key made once (default; config "
                "pinned_copy), or with --no-pinned-copy from the key's own memory, staged by host threads at every "
                "MSM (less memory page-locked, slower)");
  cmd->add_option("--pw", o->pw, "Partitions in synthesis at once (default: the core count)");
  cmd->add_option("--gw", o->gw, "Device workers per device (default 1)");
  cmd->add_option("--budget", o->budget, "Memory budget for parameters and working sets, e.g. 8GiB (default: MemAvailable)");
  cmd->add_option("--drain-seconds", o->drain_seconds, "On SIGTERM, how long running jobs may finish (default 30)");
  cmd->add_option("--param-idle-seconds", o->param_idle_seconds,
                  "Evict parameters unused this long (default 600; 0: never by time)");
  cmd->add_option("--queue", o->queue,
                  "Cluster mode: the shared job queue, postgresql://USER@HOST:PORT/DB "
                  "(default: the data dir's SQLite)");
  cmd->add_option("--name", o->name, "This daemon's name in the cluster (default HOSTNAME:PID)");
  cmd->add_option("--lease-seconds", o->lease_seconds,
                  "Cluster mode: a dead daemon's partitions are taken over after this long (default 10)");
  cmd->add_option("--heartbeat-seconds", o->heartbeat_seconds, "Cluster mode: lease renewal period (default 2)");
  cmd->add_flag("--allow-remote", o->allow_remote, "Allow a non-loopback listen address");
  cmd->add_flag("--cuzk", o->cuzk,
                "Stand in for cuzk with Curio's defaults (docs/CUZK.md): listen on unix:///run/curio/cuzk.sock and "
                "take requests up to 256 MiB (a 32 GiB C1 output); --listen and the config's keys still win");
  cmd->callback([o] { run_serve(*o); });
}

}  // namespace zkpipe::cli
