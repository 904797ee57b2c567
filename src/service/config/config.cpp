#include "service/config/config.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <toml++/toml.h>

#include "engine/engine.hpp"
#include "formats/byte_size.hpp"

namespace zkpipe::service::config {

namespace {

std::string key_error(const std::filesystem::path& file, std::string_view key, const std::string& what) {
  return file.string() + ": " + std::string(key) + ": " + what;
}

// Typed readers: a key of the wrong type is an error naming the key and the type wanted.
template <typename T>
void read(const toml::table& t, const std::filesystem::path& file, std::string_view key, T& out) {
  const toml::node* node = t.get(key);
  if (node == nullptr) return;
  if constexpr (std::is_same_v<T, bool>) {
    if (!node->is_boolean()) throw ConfigError(key_error(file, key, "expected true or false"));
    out = node->as_boolean()->get();
  } else if constexpr (std::is_same_v<T, double>) {
    if (const auto v = node->value<double>()) {
      out = *v;
    } else {
      throw ConfigError(key_error(file, key, "expected a number"));
    }
  } else if constexpr (std::is_integral_v<T>) {
    if (!node->is_integer()) throw ConfigError(key_error(file, key, "expected an integer"));
    const std::int64_t v = node->as_integer()->get();
    if (v < 0) throw ConfigError(key_error(file, key, "must not be negative"));
    if (static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
      throw ConfigError(key_error(file, key, "at most " + std::to_string(std::numeric_limits<T>::max())));
    }
    out = static_cast<T>(v);
  } else {
    if (!node->is_string()) throw ConfigError(key_error(file, key, "expected a string"));
    out = T(node->as_string()->get());
  }
}

void read_bytes(const toml::table& t, const std::filesystem::path& file, std::string_view key, std::size_t& out) {
  const toml::node* node = t.get(key);
  if (node == nullptr) return;
  if (node->is_integer()) {
    if (node->as_integer()->get() < 0) throw ConfigError(key_error(file, key, "must not be negative"));
    out = static_cast<std::size_t>(node->as_integer()->get());
    return;
  }
  if (node->is_string()) {
    if (const auto v = formats::parse_byte_size(node->as_string()->get())) {
      out = *v;
      return;
    }
  }
  throw ConfigError(key_error(file, key, "expected a byte size such as 8GiB or 1048576"));
}

// device_memory: bytes, or text as --device-memory takes it ("16GiB", "0=16GiB,1=24GiB").
void read_device_memory(const toml::table& t, const std::filesystem::path& file, formats::DeviceMemoryBudget& out) {
  const toml::node* node = t.get("device_memory");
  if (node == nullptr) return;
  try {
    if (node->is_integer()) {
      out = formats::parse_device_memory_budget(std::to_string(node->as_integer()->get()));
    } else if (node->is_string()) {
      out = formats::parse_device_memory_budget(node->as_string()->get());
    } else {
      throw std::invalid_argument("expected a byte size such as 16GiB, or sizes by device such as \"0=16GiB,1=24GiB\"");
    }
  } catch (const std::invalid_argument& e) {
    throw ConfigError(key_error(file, "device_memory", e.what()));
  }
}

}  // namespace

std::filesystem::path default_filecoin_params() {
  const char* set = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
  return set != nullptr && *set != '\0' ? std::filesystem::path(set) : "/var/tmp/filecoin-proof-parameters";
}

std::vector<std::filesystem::path> ServiceConfig::effective_parameter_roots() const {
  std::vector<std::filesystem::path> roots = parameter_roots;
  if (roots.empty()) roots.push_back(data_dir);
  std::error_code error;
  if (!filecoin_params.empty() && std::filesystem::is_directory(filecoin_params, error)) {
    roots.push_back(filecoin_params);
  }
  return roots;
}

std::filesystem::path ServiceConfig::effective_key_cache_dir() const {
  return key_cache_dir.empty() ? data_dir / "key-cache" : key_cache_dir;
}

std::vector<int> ServiceConfig::engine_devices() const {
  return devices.empty() ? std::vector<int>{device.value_or(0)} : devices;
}

void ServiceConfig::validate() const {
  const ListenAddress addr = parse_listen_address(listen);
  if (!addr.loopback() && !allow_remote) {
    throw ConfigError("listen address " + listen +
                      " is not a loopback address; set allow_remote = true (or --allow-remote) to serve other hosts");
  }
  if (!metrics_listen.empty()) {
    const ListenAddress m = parse_listen_address(metrics_listen);
    if (m.unix_socket) throw ConfigError("metrics_listen must be HOST:PORT, not " + metrics_listen);
    if (!m.loopback() && !allow_remote) {
      throw ConfigError("metrics_listen " + metrics_listen + " is not a loopback address; set allow_remote = true");
    }
  }
  if (backend != "auto" && backend != "cpu" && backend != "cuda") {
    throw ConfigError("backend must be auto, cpu or cuda, not '" + backend + "'");
  }
  if (devices.size() > engine::kMaxDevices) {
    throw ConfigError("devices: " + std::to_string(devices.size()) + " devices, at most " +
                      std::to_string(engine::kMaxDevices));
  }
  if (device.value_or(0) < 0 || std::ranges::any_of(devices, [](int d) { return d < 0; })) {
    throw ConfigError("device ordinals must not be negative");
  }
  if (synthesis_workers > 1024 || workers_per_device == 0 || workers_per_device > 1024 || finalizers == 0 ||
      finalizers > 1024) {
    throw ConfigError("synthesis_workers, workers_per_device and finalizers must be in 1..1024 (synthesis_workers 0: the core count)");
  }
  if (max_request_bytes < 1024 || max_request_bytes > (std::size_t{256} << 20)) {
    throw ConfigError("max_request_bytes must be between 1 KiB and 256 MiB");
  }
  if (max_jobs == 0) throw ConfigError("max_jobs must be at least 1");
  if (max_waits_per_peer == 0 || max_waits_per_peer > 1000000) {
    throw ConfigError("max_waits_per_peer must be between 1 and 1000000, not " + std::to_string(max_waits_per_peer));
  }
  if (!queue.empty() && !queue.starts_with("postgresql://") && !queue.starts_with("postgres://")) {
    throw ConfigError("queue must be a postgresql://USER@HOST:PORT/DATABASE address, not '" + queue +
                      "' (leave it empty for the data dir's SQLite journal)");
  }
  for (const double s : {lease_seconds, heartbeat_seconds, poll_seconds, reconnect_seconds}) {
    if (!std::isfinite(s) || s <= 0 || s > 86400) {
      throw ConfigError("lease_seconds, heartbeat_seconds, poll_seconds and reconnect_seconds must be in (0, 86400]");
    }
  }
  if (heartbeat_seconds >= lease_seconds) {
    throw ConfigError("heartbeat_seconds (" + std::to_string(heartbeat_seconds) + ") must be below lease_seconds (" +
                      std::to_string(lease_seconds) + "): leases would expire between renewals");
  }
  for (const double s : {param_idle_seconds, drain_seconds, keep_results_seconds}) {
    if (!std::isfinite(s) || s < 0) {
      throw ConfigError("param_idle_seconds, drain_seconds and keep_results_seconds must be finite and >= 0");
    }
  }
}

void use_cuzk_defaults(ServiceConfig& config) {
  config.listen = kCuzkListen;
  config.max_request_bytes = kCuzkMaxRequestBytes;
  config.cuzk_defaults = true;
}

ServiceConfig load_config(const std::filesystem::path& path, bool cuzk) {
  toml::table t;
  try {
    t = toml::parse_file(path.string());
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw ConfigError(path.string() + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": " +
                      std::string(e.description()));
  }
  static const std::set<std::string, std::less<>> known = {
      "listen",           "metrics_listen",  "allow_remote",       "data_dir",       "parameter_roots",
      "token_file",       "max_request_bytes", "max_jobs",         "max_waits_per_peer", "backend",        "device",         "devices",       "device_memory", "pinned_copy",
      "synthesis_workers", "workers_per_device", "finalizers",     "budget",         "param_idle_seconds",
      "drain_seconds",    "keep_results_seconds", "queue",        "daemon_name",    "lease_seconds",
      "heartbeat_seconds", "poll_seconds",     "reconnect_seconds", "cuzk_params",     "cuzk",
      "filecoin_params",  "key_cache_dir",    "key_cache_budget"};
  for (const auto& [key, value] : t) {
    if (!known.contains(key.str())) throw ConfigError(key_error(path, key.str(), "unknown key"));
  }
  ServiceConfig c;
  if (const toml::node* section = t.get("cuzk")) {
    const toml::table* table = section->as_table();
    if (table == nullptr) throw ConfigError(key_error(path, "cuzk", "expected a table ([cuzk]), empty or not"));
    if (!table->empty()) {
      throw ConfigError(key_error(path, "cuzk." + std::string(table->begin()->first.str()),
                                  "unknown key ([cuzk] takes none: it turns Curio's defaults on; set listen and "
                                  "max_request_bytes at the top level to change them)"));
    }
    cuzk = true;
  }
  if (cuzk) use_cuzk_defaults(c);
  read(t, path, "listen", c.listen);
  read(t, path, "metrics_listen", c.metrics_listen);
  read(t, path, "allow_remote", c.allow_remote);
  std::string dir = c.data_dir.string();
  read(t, path, "data_dir", dir);
  c.data_dir = dir;
  if (const toml::node* roots = t.get("parameter_roots")) {
    const toml::array* array = roots->as_array();
    if (array == nullptr) throw ConfigError(key_error(path, "parameter_roots", "expected an array of directories"));
    for (const toml::node& root : *array) {
      if (!root.is_string()) throw ConfigError(key_error(path, "parameter_roots", "expected an array of strings"));
      c.parameter_roots.emplace_back(root.as_string()->get());
    }
  }
  if (const toml::node* params = t.get("cuzk_params")) {
    const toml::table* table = params->as_table();
    if (table == nullptr) {
      throw ConfigError(key_error(path, "cuzk_params", "expected a table of circuit ids and .params files"));
    }
    for (const auto& [id, file] : *table) {
      if (!file.is_string()) {
        throw ConfigError(key_error(path, "cuzk_params." + std::string(id.str()), "expected a .params file name"));
      }
      c.cuzk_params.emplace(std::string(id.str()), file.as_string()->get());
    }
  }
  std::string filecoin_params = c.filecoin_params.string();
  read(t, path, "filecoin_params", filecoin_params);
  c.filecoin_params = filecoin_params;
  std::string key_cache_dir = c.key_cache_dir.string();
  read(t, path, "key_cache_dir", key_cache_dir);
  c.key_cache_dir = key_cache_dir;
  read_bytes(t, path, "key_cache_budget", c.key_cache_budget_bytes);
  std::string token = c.token_file.string();
  read(t, path, "token_file", token);
  c.token_file = token;
  read_bytes(t, path, "max_request_bytes", c.max_request_bytes);
  read(t, path, "max_jobs", c.max_jobs);
  read(t, path, "max_waits_per_peer", c.max_waits_per_peer);
  read(t, path, "backend", c.backend);
  read_device_memory(t, path, c.device_memory);
  read(t, path, "pinned_copy", c.pinned_copy);
  if (t.contains("device")) {
    int device = 0;
    read(t, path, "device", device);
    c.device = device;
  }
  if (const toml::node* devices = t.get("devices")) {
    const toml::array* array = devices->as_array();
    if (array == nullptr) throw ConfigError(key_error(path, "devices", "expected an array of device ordinals"));
    if (array->empty()) throw ConfigError(key_error(path, "devices", "an empty list: name at least one device"));
    if (t.contains("device")) throw ConfigError(key_error(path, "devices", "set device or devices, not both"));
    for (const toml::node& device : *array) {
      const std::optional<std::int64_t> ordinal = device.value_exact<std::int64_t>();
      if (!ordinal || *ordinal < 0 || *ordinal > std::numeric_limits<int>::max()) {
        throw ConfigError(key_error(path, "devices", "expected device ordinals (integers, 0 or more)"));
      }
      c.devices.push_back(static_cast<int>(*ordinal));
    }
  }
  read(t, path, "synthesis_workers", c.synthesis_workers);
  read(t, path, "workers_per_device", c.workers_per_device);
  read(t, path, "finalizers", c.finalizers);
  read_bytes(t, path, "budget", c.budget_bytes);
  read(t, path, "param_idle_seconds", c.param_idle_seconds);
  read(t, path, "drain_seconds", c.drain_seconds);
  read(t, path, "keep_results_seconds", c.keep_results_seconds);
  read(t, path, "queue", c.queue);
  read(t, path, "daemon_name", c.daemon_name);
  read(t, path, "lease_seconds", c.lease_seconds);
  read(t, path, "heartbeat_seconds", c.heartbeat_seconds);
  read(t, path, "poll_seconds", c.poll_seconds);
  read(t, path, "reconnect_seconds", c.reconnect_seconds);
  return c;
}

bool ListenAddress::loopback() const {
  if (unix_socket) return true;
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

std::string ListenAddress::grpc_target() const {
  if (unix_socket) return "unix:" + path;
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::to_string(port);
  return host + ":" + std::to_string(port);
}

ListenAddress parse_listen_address(const std::string& text) {
  ListenAddress a;
  if (text.starts_with("unix:")) {
    a.unix_socket = true;
    // unix:PATH, or the URI form unix:///ABSOLUTE/PATH (Curio's).
    a.path = text.starts_with("unix://") ? text.substr(7) : text.substr(5);
    if (a.path.empty()) throw ConfigError("listen address '" + text + "': empty socket path");
    if (text.starts_with("unix://") && a.path.front() != '/') {
      throw ConfigError("listen address '" + text + "': unix:// takes an absolute path (unix:///run/…)");
    }
    return a;
  }
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    throw ConfigError("listen address '" + text + "': expected unix:PATH or HOST:PORT");
  }
  a.host = text.substr(0, colon);
  if (a.host.size() > 2 && a.host.front() == '[' && a.host.back() == ']') a.host = a.host.substr(1, a.host.size() - 2);
  const std::string port = text.substr(colon + 1);
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc() || end != port.data() + port.size() || value > 65535) {
    throw ConfigError("listen address '" + text + "': bad port '" + port + "'");
  }
  a.port = static_cast<std::uint16_t>(value);
  return a;
}

}  // namespace zkpipe::service::config
