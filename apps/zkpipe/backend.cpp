#include "backend.hpp"

#include <charconv>
#include <limits>
#include <optional>
#include <stdexcept>

#include "engine/engine.hpp"
#include "formats/byte_size.hpp"
#include "formats/excerpt.hpp"
#include "groth16/cpu_prover.hpp"
#include "progress.hpp"

#ifdef ZKPIPE_WITH_CUDA
#include "gpu/cuda_prover.hpp"
#include "gpu/device_memory.hpp"
#include "gpu/device_query.hpp"
#endif

namespace zkpipe::cli {

namespace {


bool is_cuda(const BackendOptions& o) { return o.backend == "cuda"; }

int ordinal(const BackendOptions& o) { return o.device.value_or(0); }

// Why the CUDA backend cannot run here; nothing when it can. require_device asks the
// driver for its device count first, which fails cleanly without a driver. A GPU this
// build has no code for is an error (NoCodeForDevice passes through): its owner wants
// it used, not a prover a hundred times slower.
std::optional<std::string> cuda_unavailable() {
#ifdef ZKPIPE_WITH_CUDA
  try {
    gpu::require_device(0);
    return std::nullopt;
  } catch (const gpu::NoCodeForDevice&) {
    throw;
  } catch (const std::runtime_error& e) {
    return e.what();
  }
#else
  return "this zkpipe was built without the CUDA backend";
#endif
}

#ifdef ZKPIPE_WITH_CUDA
// The device-memory budget, on the ledger every buffer of the device's prover charges;
// refused when the GPU has less memory than that.
void limit_device_memory(int device, std::size_t bytes, memory::BufferLedger& ledger) {
  const gpu::DeviceProfile profile = gpu::query_profile(device);
  if (bytes > profile.memory_bytes) {
    throw std::invalid_argument("--device-memory " + format_bytes(static_cast<double>(bytes)) +
                                " is more than CUDA device " + std::to_string(device) + " (" + profile.name +
                                ") has: " + format_bytes(static_cast<double>(profile.memory_bytes)));
  }
  ledger.set_device_limit(device, bytes);
}
#endif

std::string join(const std::vector<int>& devices) {
  std::string text;
  for (const int d : devices) text += (text.empty() ? "" : ",") + std::to_string(d);
  return text;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

}  // namespace

std::vector<int> parse_device_list(std::string_view text) {
  if (trimmed(text).empty()) throw std::invalid_argument("an empty device list: name at least one device, e.g. 0,1");
  std::vector<int> devices;
  for (std::size_t begin = 0; begin <= text.size();) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string_view entry = trimmed(text.substr(begin, comma - begin));
    int device = 0;
    const auto [end, ec] = std::from_chars(entry.data(), entry.data() + entry.size(), device);
    if (entry.empty() || ec != std::errc() || end != entry.data() + entry.size()) {
      throw std::invalid_argument("'" + std::string(entry) + "' in the device list is not a device ordinal");
    }
    if (device < 0) throw std::invalid_argument("device " + std::to_string(device) + ": ordinals are 0 or more");
    devices.push_back(device);
    if (devices.size() > engine::kMaxDevices) {
      throw std::invalid_argument("more than " + std::to_string(engine::kMaxDevices) + " devices in the list");
    }
    begin = comma + 1;
  }
  return devices;
}

std::vector<int> engine_devices(const BackendOptions& o) {
  return o.devices.empty() ? std::vector<int>{ordinal(o)} : o.devices;
}

BackendOptions resolve_backend(const BackendOptions& o) {
  if (o.backend != "auto") return o;
  BackendOptions resolved = o;
  resolved.chosen_by_auto = true;
  const std::optional<std::string> reason = cuda_unavailable();
  if (!reason) {
    resolved.backend = "cuda";
    return resolved;
  }
  if (o.device || !o.devices.empty()) {
    const std::string named = o.device ? "device " + std::to_string(*o.device) : "devices " + join(o.devices);
    throw std::invalid_argument("--backend auto with " + named + " named, but " + *reason +
                                " (with --backend cpu a device list gives CPU engine devices)");
  }
  resolved.backend = "cpu";
  resolved.why_not_cuda = *reason;
  return resolved;
}

void add_backend_options(CLI::App& cmd, BackendOptions& o) {
  cmd.add_option("--backend", o.backend,
                 "Prover backend: auto (cuda when this build has it and a GPU is present, else cpu), cpu, or cuda "
                 "(an NVIDIA GPU)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd.add_option("--device", o.device, "CUDA device ordinal for --backend cuda or auto (default 0)")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  cmd.add_option_function<std::string>(
      "--device-memory",
      [&o](const std::string& text) {
        try {
          o.device_memory = formats::parse_device_memory_budget(text);
        } catch (const std::invalid_argument& e) {
          throw CLI::ValidationError("--device-memory", e.what());
        }
      },
      "The most GPU memory zkpipe takes on each of its devices, e.g. 16GiB, or by ordinal, e.g. 0=16GiB,1=24GiB "
      "(default, and for a device not named: what is free, less a margin); what does not fit beside the working "
      "buffers is streamed from host memory");
  cmd.add_flag("--pinned-copy,!--no-pinned-copy", o.pinned_copy,
               "Stream what does not fit on the GPU from a page-locked copy in host memory, made once, which the "
               "copy engine sends at the link's speed (default, when the host's usable memory holds it); with "
               "--no-pinned-copy, from the key's own memory, staged by host threads at every MSM (less memory "
               "page-locked, slower)");
  cmd.add_flag("--overlap-sums,!--no-overlap-sums", o.overlap_sums,
               "When the H query and another are streamed, sum H beside the others, so that H's multiprocessor-"
               "bound MSM hides their transfers (default, when the GPU's memory holds chunks for both); with "
               "--no-overlap-sums, one after the other");
}

void add_device_memory_option(CLI::App& cmd, std::optional<std::size_t>& bytes, const std::string& description) {
  cmd.add_option_function<std::string>(
      "--device-memory",
      [&bytes](const std::string& text) {
        try {
          bytes = parse_device_memory(text);
        } catch (const std::invalid_argument& e) {
          throw CLI::ValidationError("--device-memory", e.what());
        }
      },
      description);
}

std::size_t parse_device_memory(std::string_view text) {
  const formats::DeviceMemoryBudget budget = formats::parse_device_memory_budget(text);
  if (!budget.every) {
    throw std::invalid_argument("'" + formats::excerpt(text, 40) +
                                "' gives sizes by device; this command takes one size, such as 16GiB");
  }
  return *budget.every;
}

CLI::Option* add_device_list_option(CLI::App& cmd, std::vector<int>& devices) {
  return cmd.add_option_function<std::string>(
      "--devices",
      [&devices](const std::string& text) {
        try {
          devices = parse_device_list(text);
        } catch (const std::invalid_argument& e) {
          throw CLI::ValidationError("--devices", e.what());
        }
      },
      "Engine devices, comma-separated ordinals (one backend each, --gw workers each; a GPU listed twice is two "
      "engine devices on it; with --backend cpu, one CPU backend per entry)");
}

void add_devices_option(CLI::App& cmd, BackendOptions& o) { add_device_list_option(cmd, o.devices)->excludes("--device"); }

std::shared_ptr<groth16::ProverBackend> make_backend(const BackendOptions& options,
                                                     [[maybe_unused]] memory::BufferLedger& ledger) {
  const BackendOptions o = resolve_backend(options);
  if (!is_cuda(o)) {
    if (o.device) throw std::invalid_argument("--device applies only to --backend cuda");
    if (!o.device_memory.empty()) throw std::invalid_argument("--device-memory applies only to --backend cuda");
    return std::make_shared<groth16::CpuProver>();
  }
#ifdef ZKPIPE_WITH_CUDA
  gpu::require_device(ordinal(o));
  if (const auto bytes = o.device_memory.of(ordinal(o))) limit_device_memory(ordinal(o), *bytes, ledger);
  return std::make_shared<gpu::CudaProver>(ordinal(o), gpu::CudaProverOptions{.pin_streamed_sources = o.pinned_copy,
                                                                             .overlap_streamed_sums = o.overlap_sums,
                                                                             .ledger = &ledger});
#else
  throw std::runtime_error(
      "--backend cuda: this zkpipe was built without the CUDA backend (nvcc not found at configure time)");
#endif
}

std::vector<std::shared_ptr<groth16::ProverBackend>> make_backends(const BackendOptions& options,
                                                                   memory::BufferLedger& ledger) {
  const BackendOptions o = resolve_backend(options);
  if (o.devices.empty()) return {make_backend(o, ledger)};
  std::vector<std::shared_ptr<groth16::ProverBackend>> backends;
  for (const int device : o.devices) {
    BackendOptions one = o;
    one.devices.clear();
    if (is_cuda(o)) one.device = device;
    backends.push_back(make_backend(one, ledger));
  }
  return backends;
}

void check_device_memory([[maybe_unused]] const BackendOptions& options,
                         [[maybe_unused]] const groth16::ProvingKey& key) {
#ifdef ZKPIPE_WITH_CUDA
  const BackendOptions o = resolve_backend(options);
  if (!is_cuda(o) || o.device_memory.empty()) return;
  const std::vector<int> devices = o.devices.empty() ? std::vector<int>{ordinal(o)} : o.devices;
  for (const int device : devices) {
    const std::optional<std::size_t> bytes = o.device_memory.of(device);
    if (!bytes) continue;
    if (const auto why = gpu::CudaProver::budget_shortfall(key, *bytes)) {
      throw std::invalid_argument("--device-memory (device " + std::to_string(device) + "): " + *why);
    }
  }
#endif
}

namespace {

std::string describe_resolved(const BackendOptions& o) {
  if (o.devices.size() > 1) {
    if (!is_cuda(o)) return "cpu backend on " + std::to_string(o.devices.size()) + " engine devices";
    std::string text = "cuda backend on " + std::to_string(o.devices.size()) + " devices (";
    for (std::size_t i = 0; i < o.devices.size(); ++i) {
      text += (i == 0 ? "" : "; ") + std::to_string(o.devices[i]);
#ifdef ZKPIPE_WITH_CUDA
      text += ": " + gpu::device_name(o.devices[i]);
#endif
    }
    return text + ")";
  }
  if (!is_cuda(o)) return "cpu backend";
  const int device = engine_devices(o).front();
  std::string text = "cuda backend (device " + std::to_string(device);
#ifdef ZKPIPE_WITH_CUDA
  text += ": " + gpu::device_name(device);
#endif
  return text + ")";
}

}  // namespace

std::string describe_backend(const BackendOptions& options) {
  const BackendOptions o = resolve_backend(options);
  const std::string text = describe_resolved(o);
  if (!o.chosen_by_auto) return text;
  return is_cuda(o) ? text + ", chosen by --backend auto" : text + " (--backend auto: " + o.why_not_cuda + ")";
}

std::string describe_key_residence(const BackendOptions& options, [[maybe_unused]] groth16::ProverBackend& backend,
                                   const groth16::ProvingKey& key) {
  const BackendOptions o = resolve_backend(options);
  if (const auto& on = key.a.on_device()) {
    return "on device " + std::to_string(on->device) + " only (set up there, no host copy)";
  }
  if (!is_cuda(o)) return "in host memory";
#ifdef ZKPIPE_WITH_CUDA
  if (auto* cuda = dynamic_cast<gpu::CudaProver*>(&backend)) {
    const std::string device = std::to_string(cuda->device_ordinal().value_or(0));
    const gpu::CudaProver::StreamedTotals sent = cuda->streamed_totals();
    // A deferred witness's evaluator streamed too: its matrices at every partition.
    const std::string evaluator =
        sent.evaluations == 0 ? ""
                              : "; the evaluator's matrices streamed (" +
                                    format_bytes(static_cast<double>(sent.evaluator_bytes)) + " in " +
                                    std::to_string(sent.evaluations) + " evaluations)";
    const gpu::BasePlacement placement = cuda->base_placement(key);
    switch (placement) {
      case gpu::BasePlacement::kResident:
        return "in host memory, a copy resident on device " + device + evaluator;
      case gpu::BasePlacement::kPartlyResident:
      case gpu::BasePlacement::kStreamed: {
        std::string text = placement == gpu::BasePlacement::kStreamed
                               ? "in host memory, streamed to device " + device + " at every MSM"
                               : "in host memory; " + cuda->resident_queries(key) + " resident on device " + device +
                                     ", the other queries streamed at every MSM";
        if (const std::size_t pinned = cuda->pinned_copy_bytes(); pinned != 0) {
          text += " from a page-locked copy (" + format_bytes(static_cast<double>(pinned)) + " with the evaluator's)";
        }
        if (sent.sums == 0) return text + evaluator;
        return text + " (" + format_bytes(static_cast<double>(sent.bytes)) + " sent in " +
               std::to_string(sent.sums) + " MSMs, " + std::to_string(sent.zero_terms) +
               " zero-scalar terms not sent)" + evaluator;
      }
      case gpu::BasePlacement::kNotLoaded:
        break;
    }
  }
#endif
  return "in host memory (not yet placed on the device)";
}

}  // namespace zkpipe::cli
