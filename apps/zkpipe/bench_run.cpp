#include "bench_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <functional>
#include <iostream>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench_plot.hpp"
#include "device_summary.hpp"
#include "engine/buffer_log.hpp"
#include "engine/work_queue.hpp"
#include "formats/excerpt.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "host_memory_check.hpp"
#include "io/atomic_file.hpp"
#include "memory/process_memory.hpp"
#include "progress.hpp"
#include "proving/engine_budget.hpp"
#include "proving/hand_off.hpp"
#include "proving/proof_request.hpp"
#include "setup_run.hpp"

namespace zkpipe::cli {

namespace {

using Clock = std::chrono::steady_clock;

std::filesystem::path default_key_path(const BenchOptions& o, const WorkloadSpec& workload) {
  return std::filesystem::path(o.params_dir) / (workload.circuit + "-" + workload.preset + ".zkpk");
}

SetupRequest setup_request(const BenchOptions& o, const WorkloadSpec& workload, bool keep_on_device) {
  SetupRequest r;
  r.workload = workload;
  // Setup runs on one device: the first engine device's (a key kept there is proved there only).
  r.backend = o.backend;
  r.backend.devices.clear();
  if (o.backend.backend == "cuda") r.backend.device = engine_devices(o.backend).front();
  r.keep_on_device = keep_on_device;
  r.quiet = o.quiet;
  return r;
}

double untracked(const engine::LedgerSample& s, const memory::MemoryBaseline& baseline) {
  return memory::untracked_bytes(s.rss, s.tracked, s.runtime, baseline);
}

std::string line_for(const engine::ProofResult& r, std::size_t index, std::size_t count) {
  double synth = 0;
  double device = 0;
  for (const auto& t : r.timelines) {
    synth += t.seconds_in(memory::Stage::synthesizing);
    device += t.seconds_in(memory::Stage::on_device);
  }
  const auto n = static_cast<double>(std::max<std::size_t>(r.timelines.size(), 1));
  return "proof " + std::to_string(index) + "/" + std::to_string(count) + ": " + std::to_string(r.proofs.size()) +
         " partitions in " + format_seconds(r.seconds) + " (per partition: synthesis " + format_seconds(synth / n) +
         ", device " + format_seconds(device / n) + ")" + (r.verified ? ", verified" : "");
}

// The critical proof submitted into the batch, then the same proof alone (nothing
// else in the engine): both latencies, and how long its partitions waited for the device.
CriticalReport measure_critical(engine::WorkQueue<std::shared_future<engine::ProofResult>>& completed,
                                const std::function<void()>& submit_alone, const std::vector<double>& batch_on_device,
                                bool quiet) {
  CriticalReport out;
  // Copies: a reference into a popped future's state dangles once the engine lets go
  // of its own copy of the future.
  const engine::ProofResult loaded = completed.pop()->get();
  out.latency = loaded.seconds;
  for (const auto& t : loaded.timelines) out.queued = std::max(out.queued, t.seconds_in(memory::Stage::queued));
  if (!quiet) std::cout << "critical " << line_for(loaded, 1, 2) << " (under load)" << std::endl;
  submit_alone();
  const engine::ProofResult alone = completed.pop()->get();
  out.alone = alone.seconds;
  if (!quiet) std::cout << "critical " << line_for(alone, 2, 2) << " (alone)" << std::endl;
  out.verified = loaded.verified && alone.verified;
  const engine::StageStats batch = engine::summarize(batch_on_device);
  out.batch_on_device = batch.mean;
  out.batch_on_device_max = *std::max_element(batch_on_device.begin(), batch_on_device.end());
  return out;
}

// Why proofs failed, each distinct reason once with how many proofs it failed (the
// request's own number left out, so that the same cause groups).
class FailureReasons {
 public:
  void add(std::string_view what) {
    std::string reason(without_request_number(what));
    const auto it = std::find_if(counts_.begin(), counts_.end(), [&](const auto& c) { return c.first == reason; });
    if (it == counts_.end()) {
      counts_.emplace_back(std::move(reason), 1);
    } else {
      ++it->second;
    }
  }

  std::size_t total() const {
    std::size_t n = 0;
    for (const auto& c : counts_) n += c.second;
    return n;
  }

  // "reason (N proofs); other reason (M proofs)", at most kShown reasons.
  std::string describe() const {
    constexpr std::size_t kShown = 5;
    std::string text;
    for (std::size_t i = 0; i < counts_.size() && i < kShown; ++i) {
      if (i != 0) text += "; ";
      text += formats::excerpt(counts_[i].first, 1000) + " (" + std::to_string(counts_[i].second) +
              (counts_[i].second == 1 ? " proof)" : " proofs)");
    }
    if (counts_.size() > kShown) text += "; and " + std::to_string(counts_.size() - kShown) + " other reasons";
    return text;
  }

 private:
  static std::string_view without_request_number(std::string_view what) {
    constexpr std::string_view kPrefix = "request ";
    if (!what.starts_with(kPrefix)) return what;
    const std::size_t colon = what.find(": ", kPrefix.size());
    if (colon == std::string_view::npos) return what;
    const std::string_view number = what.substr(kPrefix.size(), colon - kPrefix.size());
    if (number.empty() || number.find_first_not_of("0123456789") != std::string_view::npos) return what;
    return what.substr(colon + 2);
  }

  std::vector<std::pair<std::string, std::size_t>> counts_;
};

}  // namespace

// Host bytes of the keys and evaluators already in memory, which the engine charges
// to its budget when they are made resident.
std::size_t loaded_parameter_bytes(const PreparedWorkload& w) {
  std::size_t bytes = engine::parameter_bytes(*w.key) + (w.evaluator ? engine::evaluator_bytes(*w.evaluator) : 0);
  if (w.critical_key) bytes += engine::parameter_bytes(*w.critical_key);
  if (w.critical_evaluator) bytes += engine::evaluator_bytes(*w.critical_evaluator);
  return bytes;
}

struct PreparedKey {
  std::shared_ptr<const groth16::ProvingKey> key;
  std::shared_ptr<const r1cs::CompiledR1cs> evaluator;
  std::string path;  // empty: set up on the device
};

// A workload's key: set up on the device, or read from `key_path` (default: cached
// under --params-dir, set up there first when missing). With --setup-on-device the
// batch's key stays on the device; a critical proof's key is set up there too but
// copied to host memory, so that the prover keeps its points on the device only
// when they fit beside the batch's key and streams them otherwise (two 32 GiB keys
// do not fit on one 141 GiB device together with a partition's working memory).
PreparedKey prepare_key(const BenchOptions& o, const WorkloadSpec& workload, const std::string& key_path,
                        bool critical) {
  PreparedKey out;
  if (o.setup_on_device) {
    std::cerr << "setting up parameters for " << workload.circuit << "/" << workload.preset
              << (critical ? " on the device, then copied to host memory (placed on the device at its first proof "
                             "if it fits beside the batch's key, streamed otherwise)\n"
                           : " on the device, kept there for this run (nothing cached on disk)\n");
    SetUpParameters set_up = set_up_parameters(setup_request(o, workload, !critical));
    out.key = std::move(set_up.key);
    if (o.synthesis == "pce") out.evaluator = std::move(set_up.evaluator);
    return out;
  }
  const std::filesystem::path path = key_path.empty() ? default_key_path(o, workload) : std::filesystem::path(key_path);
  if (!std::filesystem::exists(path)) {
    if (!key_path.empty()) throw std::runtime_error(path.string() + ": no such parameter file");
    std::cerr << "setting up parameters (cached in " << path.string() << ")\n";
    WorkloadSpec one = workload;
    one.partitions = 1;
    set_up_to_file(setup_request(o, workload, false), *make_circuit(one), path);
  }
  out.path = path.string();
  out.key = std::make_shared<const groth16::ProvingKey>(groth16::load_parameter_file(path));
  return out;
}

// Before the evaluator is compiled: a byte budget must hold the key and a partition.
void refuse_what_cannot_fit(const BenchOptions& o, const groth16::ProvingKey& key,
                            const groth16::ProverBackend& backend) {
  const proving::BudgetSpec budget = proving::parse_budget(o.budget);
  std::optional<std::size_t> bytes;
  if (budget.kind == proving::BudgetSpec::Kind::bytes) bytes = static_cast<std::size_t>(budget.value);
  refuse_partition_that_cannot_fit(key, o.synthesis == "pce", backend, bytes);
}

PreparedWorkload prepare_workload(const BenchOptions& o) {
  PreparedWorkload w;
  // The backend first: a missing device fails before the parameters are set up.
  w.backends = make_backends(o.backend, memory::BufferLedger::process());
  w.baseline = memory::MemoryBaseline::now();
  // An unknown preset or sector size is refused before anything is set up.
  const std::shared_ptr<const r1cs::PartitionedCircuit> shape = proving::make_shape_circuit(o.workload);
  if (o.setup_on_device && !o.key_path.empty()) {
    throw std::invalid_argument("--setup-on-device sets the key up: no --key with it");
  }
  PreparedKey main = prepare_key(o, o.workload, o.key_path, false);
  refuse_what_cannot_fit(o, *main.key, *w.backends.front());
  if (!main.path.empty()) main.evaluator = evaluator_for(o.workload, o.synthesis, *main.key, main.path, o.quiet);
  w.key = std::move(main.key);
  w.evaluator = std::move(main.evaluator);
  w.key_path = std::move(main.path);
  if (!o.critical.workload.circuit.empty()) {
    PreparedKey critical = prepare_key(o, o.critical.workload, "", true);
    w.critical_key = std::move(critical.key);
    w.critical_evaluator = std::move(critical.evaluator);
  }
  check_device_memory(o.backend, *w.key);
  w.shape = groth16::CircuitShape::of(*w.key);
  // Engine devices are alike (one backend kind): the first one's accounting holds for all.
  w.footprint = proving::partition_footprint(*w.key, w.evaluator != nullptr, *w.backends.front());
  w.footprint.expect_wide_values(shape->wide_aux_bound(w.shape.aux));
  return w;
}

BenchReport run_batch(const BenchOptions& o, const PreparedWorkload& w) {
  memory::BufferLedger& ledger = memory::BufferLedger::process();
  engine::EngineConfig config = o.engine;
  config.budget_bytes =
      proving::resolve_budget(proving::parse_budget(o.budget), loaded_parameter_bytes(w), w.footprint.total());
  config.ledger = &ledger;

  memory::reset_peak_resident();
  engine::Engine eng(config, w.backends);
  auto recorder = std::make_shared<engine::RunRecorder>();
  eng.add_listener(recorder);
  const auto threshold = engine::parse_log_level(o.log_level);
  const auto line_level = engine::parse_log_level(o.buffers_log_level);
  if (!threshold || !line_level) throw std::invalid_argument("log levels are error, warn, info, debug, trace");
  eng.add_listener(std::make_shared<engine::BufferLogger>(
      std::cerr, engine::BufferLogOptions{*line_level, *threshold, o.buffers_log_interval, w.baseline},
      w.backends));
  proving::RequestBasis basis = proving::request_basis(eng.make_resident(w.key, w.evaluator), *w.backends.front());
  const bool with_critical = w.critical_key != nullptr;
  std::optional<proving::RequestBasis> critical_basis;
  if (with_critical) {
    critical_basis = proving::request_basis(eng.make_resident(w.critical_key, w.critical_evaluator), *w.backends.front());
  }
  ledger.reset_peaks();

  engine::WorkQueue<std::shared_future<engine::ProofResult>> completed;
  // A proof's input (a filecoin-porep proof's synthetic C1 output: the sealer's work,
  // handed to C2) is made before its turn — the first ones before the clock starts,
  // the next one after each submission, beside the engine's work. Making the circuit
  // from it (C2's C1 checks and conversion) is timed.
  std::deque<proving::WorkloadInput> inputs;
  std::size_t prepared = 0;
  auto prepare_next = [&] {
    WorkloadSpec spec = o.workload;
    spec.seed = o.workload.seed + prepared++;
    inputs.push_back(proving::make_input(spec));
  };
  while (prepared < std::min(o.count, o.concurrency)) prepare_next();
  std::size_t submitted = 0;
  auto submit_next = [&] {
    const proving::WorkloadInput input = std::move(inputs.front());
    inputs.pop_front();
    proving::PreparedRequest proof = proving::preset_request(basis, proving::make_circuit(input));
    engine::ProofRequest request =
        proving::hand_off(proof, {.label = proof.request.label + " seed " + std::to_string(input.workload.seed),
                                     .priority = engine::Priority::normal,
                                     .partitions = {},
                                     .verify = o.verify})
            .request;
    request.on_complete = [&completed](const std::shared_future<engine::ProofResult>& f) { completed.push(f); };
    eng.submit(std::move(request));
    ++submitted;
    if (prepared < o.count) prepare_next();
  };

  // The critical proof's two inputs (under load, then alone), made before the clock.
  std::deque<proving::WorkloadInput> critical_inputs;
  engine::WorkQueue<std::shared_future<engine::ProofResult>> critical_completed;
  auto submit_critical = [&] {
    const proving::WorkloadInput input = std::move(critical_inputs.front());
    critical_inputs.pop_front();
    proving::PreparedRequest proof = proving::preset_request(*critical_basis, proving::make_circuit(input));
    engine::ProofRequest request =
        proving::hand_off(proof, {.label = proof.request.label + " seed " +
                                              std::to_string(input.workload.seed) + " (critical)",
                                     .priority = engine::Priority::critical,
                                     .partitions = {},
                                     .verify = o.verify})
            .request;
    request.on_complete = [&critical_completed](const std::shared_future<engine::ProofResult>& f) {
      critical_completed.push(f);
    };
    eng.submit(std::move(request));
  };
  if (with_critical) {
    for (std::uint64_t k = 0; k < 2; ++k) {
      WorkloadSpec spec = o.critical.workload;
      spec.seed += k;
      critical_inputs.push_back(proving::make_input(spec));
    }
  }
  std::vector<double> batch_on_device;

  BenchReport report;
  report.policy = config.policy;
  report.pw = config.synthesis_workers;
  report.gw = config.workers_per_device;
  report.budget = eng.budget_bytes();
  report.baseline = w.baseline;
  const bool show_bar = !o.quiet && isatty(STDERR_FILENO);
  // What the devices measure is counted over the backends' lives: this run's is the difference.
  auto measured_busy = [&w]() -> std::optional<double> {
    double sum = 0;
    for (const auto& backend : w.backends) {
      const std::optional<double> busy = backend->device_busy_seconds();
      if (!busy) return std::nullopt;
      sum += *busy;
    }
    return sum;
  };
  const std::optional<double> device_busy_before = measured_busy();
  std::vector<double> latencies;
  FailureReasons failures;
  const auto t0 = Clock::now();
  {
    ProgressBar bar(show_bar);
    while (submitted < std::min(o.count, o.concurrency)) submit_next();
    for (std::size_t done = 1; done <= o.count; ++done) {
      std::shared_future<engine::ProofResult> f = *completed.pop();
      std::string line;
      try {
        const engine::ProofResult& r = f.get();
        latencies.push_back(r.seconds);
        for (const auto& t : r.timelines) batch_on_device.push_back(t.seconds_in(memory::Stage::on_device));
        report.verified += r.verified ? 1 : 0;
        line = line_for(r, done, o.count);
      } catch (const std::exception& e) {
        failures.add(e.what());
        line = "proof " + std::to_string(done) + "/" + std::to_string(o.count) + ": FAILED: " + e.what();
      }
      if (!o.quiet) {
        if (show_bar) std::fputs("\r\033[K", stderr);
        std::cout << line << std::endl;
      }
      bar.update("proofs", done, o.count);
      if (submitted < o.count) submit_next();
      if (with_critical && done == o.critical.after) submit_critical();
    }
  }
  report.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  report.proofs = o.count;
  report.seconds_per_proof = report.wall_seconds / static_cast<double>(o.count);
  const std::vector<double> busy = eng.device_busy_seconds();
  const double devices = static_cast<double>(busy.size());
  report.device_busy = std::accumulate(busy.begin(), busy.end(), 0.0) / devices / report.wall_seconds;
  if (const auto after = measured_busy(); after && device_busy_before) {
    report.device_busy_measured = (*after - *device_busy_before) / devices / report.wall_seconds;
  }
  report.devices = eng.device_status();
  report.ledger = ledger.snapshot();
  report.device_used = groth16::device_memory_used(w.backends);
  report.device_memory = o.backend.device_memory;
  if (with_critical) report.critical = measure_critical(critical_completed, submit_critical, batch_on_device, o.quiet);
  eng.shutdown(engine::ShutdownMode::drain);
  basis.parameters.reset();
  report.peak_rss = memory::peak_resident_bytes();

  for (memory::Stage s : {memory::Stage::synthesizing, memory::Stage::queued, memory::Stage::on_device,
                          memory::Stage::pending_finalize, memory::Stage::awaiting_dealloc}) {
    report.stages.emplace_back(std::string(memory::stage_name(s)), recorder->stage_stats(s));
  }
  report.stages.emplace_back("proof latency", engine::summarize(latencies));
  std::vector<std::pair<std::string, std::vector<double>>> steps;
  for (const engine::PartitionTimeline& t : recorder->timelines()) {
    for (const groth16::StageTime& step : t.start_steps) {
      auto it = std::find_if(steps.begin(), steps.end(), [&](const auto& s) { return s.first == step.stage; });
      if (it == steps.end()) it = steps.insert(steps.end(), {step.stage, {}});
      it->second.push_back(step.seconds);
    }
  }
  for (auto& [name, seconds] : steps) report.start_steps.emplace_back(name, engine::summarize(std::move(seconds)));
  report.untracked_max = -1e300;
  for (const auto& s : recorder->samples()) {
    report.runtime_max = std::max(report.runtime_max, s.runtime);
    report.runtime_growth_max = std::max(report.runtime_growth_max, static_cast<double>(s.runtime) -
                                                                         static_cast<double>(w.baseline.runtime.total()));
    const double u = untracked(s, w.baseline);
    report.untracked_max = std::max(report.untracked_max, u);
    if (s.rss != 0 && u / static_cast<double>(s.rss) > report.untracked_share_max) {
      report.untracked_share_max = u / static_cast<double>(s.rss);
      report.untracked_share_peak = s;
    }
  }
  report.budget_bound = static_cast<double>(w.baseline.rss) + static_cast<double>(report.budget) +
                        std::max(0.0, report.runtime_growth_max);
  report.samples = recorder->samples().size();
  if (!recorder->samples().empty()) report.untracked_final = untracked(recorder->samples().back(), w.baseline);

  if (!o.trace_path.empty()) {
    std::ostringstream trace;
    recorder->write_chrome_trace(trace);
    io::write_file_atomically(o.trace_path, trace.str());
  }
  if (!o.plot_path.empty()) {
    write_buffer_plot(o.plot_path, recorder->samples(), w.baseline.rss,
                      o.workload.preset + ", " + std::string(engine::policy_name(config.policy)) +
                          ", pw=" + std::to_string(config.synthesis_workers));
  }
  if (const std::size_t failed = failures.total(); failed != 0) {
    // With --quiet the per-proof lines are not printed: the reasons come here, each once.
    throw std::runtime_error(std::to_string(failed) + " of " + std::to_string(o.count) +
                             " proofs failed: " + failures.describe());
  }
  return report;
}

void print_summary(std::ostream& out, const BenchOptions& o, const PreparedWorkload& w, const BenchReport& r) {
  char buf[256];
  out << "\n== zkpipe bench batch: " << o.workload.circuit << "/" << o.workload.preset << ", " << r.proofs
      << " proofs x " << o.workload.partitions << " partitions (domain 2^"
      << std::bit_width(w.shape.domain_size) - 1 << ", " << format_bytes(static_cast<double>(w.footprint.total()))
      << " working set each), " << describe_backend(o.backend) << ", synthesis " << o.synthesis << "\n";
  out << "   pw=" << o.engine.synthesis_workers << " gw=" << o.engine.workers_per_device
      << " finalizers=" << o.engine.finalizers << " channel=" << o.engine.channel_capacity
      << " concurrency=" << o.concurrency << " policy=" << engine::policy_name(r.policy)
      << " budget=" << format_bytes(static_cast<double>(r.budget)) << "\n";
  std::snprintf(buf, sizeof buf, "wall %s, %s/proof; %zu/%zu proofs verified%s\n", format_seconds(r.wall_seconds).c_str(),
                format_seconds(r.seconds_per_proof).c_str(), r.verified, r.proofs, o.verify ? "" : " (verification off)");
  out << buf;
  std::snprintf(buf, sizeof buf, "%-18s %10s %10s %10s\n", "stage", "mean", "p50", "p95");
  out << buf;
  for (const auto& [name, s] : r.stages) {
    std::snprintf(buf, sizeof buf, "%-18s %10s %10s %10s\n", name.c_str(), format_seconds(s.mean).c_str(),
                  format_seconds(s.p50).c_str(), format_seconds(s.p95).c_str());
    out << buf;
  }
  if (!r.start_steps.empty()) {
    out << "start() steps, mean per partition:";
    for (const auto& [name, s] : r.start_steps) out << " " << name << " " << format_seconds(s.mean);
    out << "\n";
  }
  if (const auto& c = r.critical) {
    // The target: its latency alone plus one batch partition's time on the device
    // (the longest seen: the one it may have waited for).
    const double target = c->alone + c->batch_on_device_max;
    out << "critical " << o.critical.workload.circuit << "/" << o.critical.workload.preset << " after "
        << o.critical.after << " batch proofs: latency " << format_seconds(c->latency)
        << " under load (queued for the device " << format_seconds(c->queued) << "), " << format_seconds(c->alone)
        << " alone; a batch partition on the device " << format_seconds(c->batch_on_device) << " mean, "
        << format_seconds(c->batch_on_device_max) << " max: target latency <= alone + max = " << format_seconds(target)
        << " (" << (c->latency <= target ? "met" : "NOT met") << ")"
        << (c->verified ? ", both verified" : (o.verify ? ", NOT verified" : "")) << "\n";
  }
  if (r.device_busy_measured) {
    std::snprintf(buf, sizeof buf, "device busy %.1f %% (a start() in progress), %.1f %% (on the device: CUDA events)\n",
                  100 * r.device_busy, 100 * *r.device_busy_measured);
  } else {
    std::snprintf(buf, sizeof buf, "device busy %.1f %%\n", 100 * r.device_busy);
  }
  out << buf;
  if (r.devices.size() > 1 || !r.devices.front().healthy) print_device_summary(out, r.devices, r.wall_seconds);
  out << "key: " << format_bytes(static_cast<double>(key_point_bytes(*w.key))) << " of query points";
  for (std::size_t d = 0; d < w.backends.size(); ++d) {
    out << (w.backends.size() > 1 ? "; device " + std::to_string(d) + ": " : ", ")
        << describe_key_residence(o.backend, *w.backends[d], *w.key);
  }
  out << "\n";
  out << "peak RSS " << format_bytes(static_cast<double>(r.peak_rss)) << " (baseline "
      << format_bytes(static_cast<double>(r.baseline.rss)) << ")\n";
  out << "runtime (code pages + malloc heap + engine thread stacks): " << format_bytes(static_cast<double>(r.baseline.runtime.total()))
      << " at the baseline (code " << format_bytes(static_cast<double>(r.baseline.runtime.code)) << ", heap "
      << format_bytes(static_cast<double>(r.baseline.runtime.heap)) << "), at most "
      << format_bytes(static_cast<double>(r.runtime_max)) << " during the run (growth at most "
      << engine::format_compact_bytes(r.runtime_growth_max) << ")\n";
  std::snprintf(buf, sizeof buf, "budget bound: peak RSS %s %s baseline + budget + runtime growth = %s\n",
                format_bytes(static_cast<double>(r.peak_rss)).c_str(),
                static_cast<double>(r.peak_rss) <= r.budget_bound ? "<=" : "EXCEEDS",
                format_bytes(r.budget_bound).c_str());
  out << buf;
  out << "ledger peaks: tracked (host memory) " << format_bytes(static_cast<double>(r.ledger.peak_tracked)) << "\n";
  for (memory::Stage s : memory::kAllStages) {
    const auto& t = r.ledger[s];
    std::snprintf(buf, sizeof buf, "  %-18s %4zu buffers %12s   mean time in stage %s\n",
                  std::string(memory::stage_name(s)).c_str(), t.peak_count,
                  format_bytes(static_cast<double>(t.peak_bytes)).c_str(), format_seconds(t.mean_seconds()).c_str());
    out << buf;
  }
  const auto& dev = r.ledger[memory::Stage::device];
  if (r.device_used || dev.peak_bytes != 0) {
    // Device memory is not in tracked (nor in RSS); the driver's figure also holds
    // the context, kernels' local memory and allocations under 1 MiB.
    out << "device memory: ledger " << format_bytes(static_cast<double>(dev.bytes)) << " in " << dev.count
        << " buffers (peak " << format_bytes(static_cast<double>(dev.peak_bytes)) << "), in use on the device "
        << (r.device_used ? format_bytes(static_cast<double>(*r.device_used)) : std::string("unknown"));
    if (!r.device_memory.empty()) out << "; budget --device-memory " << r.device_memory.describe();
    out << "\n";
  }
  out << "untracked (RSS - baseline - tracked - runtime growth): max " << engine::format_compact_bytes(r.untracked_max) << ", at the end "
      << engine::format_compact_bytes(r.untracked_final) << "\n";
  std::snprintf(buf, sizeof buf, "untracked share of RSS: max %.1f %% over %zu samples (target <= %.0f %%)\n",
                100 * r.untracked_share_max, r.samples, 100 * kMaxUntrackedShare);
  out << buf;
  if (const auto& s = r.untracked_share_peak) {
    std::snprintf(buf, sizeof buf, "%.3f s", s->time);
    out << "  peaked at " << engine::hook_name(s->hook) << " of proof " << s->request << " partition " << s->partition + 1
        << " (" << buf << " into the run): rss " << engine::format_compact_bytes(static_cast<double>(s->rss)) << ", tracked "
        << engine::format_compact_bytes(static_cast<double>(s->tracked)) << ", runtime "
        << engine::format_compact_bytes(static_cast<double>(s->runtime)) << "\n";
  }
  if (!o.trace_path.empty()) out << "trace: " << o.trace_path << " (Chrome trace-event JSON; open in ui.perfetto.dev)\n";
  if (!o.plot_path.empty()) out << "plot:  " << o.plot_path << "\n";
}

}  // namespace zkpipe::cli
