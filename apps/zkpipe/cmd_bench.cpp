#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "bench_run.hpp"
#include "commands.hpp"
#include "engine_options.hpp"
#include "file_args.hpp"
#include "engine/buffer_log.hpp"
#include "io/atomic_file.hpp"
#include "progress.hpp"

namespace zkpipe::cli {

namespace {

struct BenchCommand {
  BenchOptions options;
  std::string policy = "budget";
  std::vector<std::size_t> pw_list = {1, 2, 4, 8};
  std::vector<std::size_t> gw_list;       // empty: --gw alone
  std::vector<std::string> budget_list;  // empty: --budget alone
  std::string csv_path;
};

// Each worker is a thread: bounded so that a typo is an error, not thousands of threads.
CLI::Range worker_count() { return CLI::Range(std::size_t{1}, engine::kMaxWorkers); }

// A duration option: CLI::Range lets NaN through (every comparison with it is false).
CLI::Validator seconds_at_least_zero() {
  return CLI::Validator(
      [](const std::string& text) -> std::string {
        double value = 0;
        if (CLI::detail::lexical_cast(text, value) && std::isfinite(value) && value >= 0) return {};
        return "expected a number of seconds, 0 or more, not '" + text + "'";
      },
      "SECONDS");
}

void add_engine_options(CLI::App& cmd, BenchCommand& c) {
  BenchOptions& o = c.options;
  add_circuit_options(cmd, o.workload);
  add_instance_options(cmd, o.workload);
  cmd.add_option("-c,--count", o.count, "Proofs to run")->capture_default_str()->check(CLI::Range(1, 1000000));
  cmd.add_option("-j,--concurrency", o.concurrency, "Proofs in flight")->capture_default_str()->check(CLI::Range(1, 4096));
  add_backend_options(cmd, o.backend);
  add_devices_option(cmd, o.backend);
  cmd.add_option("--gw", o.engine.workers_per_device, "Device workers per device")
      ->capture_default_str()
      ->check(worker_count());
  cmd.add_option("--finalizers", o.engine.finalizers, "Finalizer threads")->capture_default_str()->check(worker_count());
  cmd.add_option("--channel", o.engine.channel_capacity, "Capacity of the synthesis-to-device channel")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, engine::kMaxChannelCapacity));
  add_budget_option(cmd, o.budget);
  add_synthesis_option(cmd, o.synthesis);
  cmd.add_option("--key", o.key_path, "Parameter file (default: set up once and cached under --params-dir)");
  cmd.add_option("--params-dir", o.params_dir, "Where set-up parameters are cached")->capture_default_str();
  cmd.add_flag("--setup-on-device", o.setup_on_device,
               "With the cuda backend (--backend cuda, or auto on a machine with a GPU; an error where auto "
               "finds none): set the parameters up on the device and keep them there for this run (no host copy, "
               "nothing cached on disk: for keys larger than the disk or the host's memory); a --critical-circuit's "
               "key is set up there too but copied to host memory, and placed on the device if it fits beside the "
               "batch's key");
  cmd.add_flag("--verify,!--no-verify", o.verify, "Verify every proof (the default)");
  cmd.add_flag("--quiet", o.quiet, "No progress bar or per-proof lines");
  cmd.add_option("--log-level", o.log_level, "Most verbose log level printed (error, warn, info, debug, trace)")
      ->capture_default_str();
  cmd.add_option("--buffers-log-level", o.buffers_log_level, "Level of the per-hook log_buffers lines")
      ->capture_default_str();
  cmd.add_option("--buffers-log-interval", o.buffers_log_interval, "At most one log_buffers line per this many seconds")
      ->capture_default_str()
      ->check(seconds_at_least_zero());
}

void add_policy_option(CLI::App& cmd, BenchCommand& c) {
  cmd.add_option("--permit-policy", c.policy, "early | after-send | budget")
      ->capture_default_str()
      ->check(CLI::IsMember({"early", "after-send", "budget"}));
}

void add_output_options(CLI::App& cmd, BenchCommand& c) {
  cmd.add_option("--trace", c.options.trace_path, "Write a Chrome trace-event JSON file (open in ui.perfetto.dev)")
      ->check(output_file());
  cmd.add_option("--plot", c.options.plot_path, "Write an SVG plot of buffers in flight and RSS over time")
      ->check(output_file());
}

// --backend auto made cpu or cuda once, before the workload is prepared: setup and
// every run then see the same choice, and the summary names it.
PreparedWorkload prepare(BenchCommand& c) {
  BackendOptions& backend = c.options.backend;
  backend = resolve_backend(backend);
  if (c.options.setup_on_device && backend.backend != "cuda") {
    throw std::invalid_argument(
        "--setup-on-device needs the cuda backend" +
        (backend.chosen_by_auto ? ", and --backend auto chose cpu: " + backend.why_not_cuda : std::string()));
  }
  return prepare_workload(c.options);
}

void refuse_overwriting_key(const BenchOptions& o) {
  refuse_overwriting_inputs({o.key_path}, {o.trace_path, o.plot_path});
}

void add_critical_options(CLI::App& cmd, CriticalProof& critical) {
  cmd.add_option("--critical-circuit", critical.workload.circuit,
                 "Also prove one proof of this circuit at critical priority into the running batch, then alone: "
                 "its latency under load against alone plus one batch partition's device time (e.g. "
                 "filecoin-window-post)");
  cmd.add_option("--critical-sector-size,--critical-preset", critical.workload.preset,
                 "The critical proof's size preset or sector size");
  cmd.add_option("--critical-partitions", critical.workload.partitions, "The critical proof's partitions")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1024}));
  cmd.add_option("--critical-after", critical.after,
                 "Submit the critical proof once this many batch proofs have completed (fewer than --count)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
}

// The critical proof needs the batch still running when it is submitted.
void check_critical(const BenchOptions& o) {
  const CriticalProof& c = o.critical;
  if (c.workload.circuit.empty()) return;
  if (c.workload.preset.empty()) throw std::invalid_argument("--critical-circuit needs --critical-sector-size");
  if (c.after >= o.count) {
    throw std::invalid_argument("--critical-after " + std::to_string(c.after) +
                                ": the batch must still be running, so fewer than --count (" +
                                std::to_string(o.count) + ")");
  }
}

void run_bench_batch(BenchCommand& c) {
  check_critical(c.options);
  refuse_overwriting_key(c.options);
  c.options.engine.policy = *engine::parse_policy(c.policy);
  PreparedWorkload w = prepare(c);
  BenchReport report = run_batch(c.options, w);
  print_summary(std::cout, c.options, w, report);
  if (c.options.strict_memory && report.untracked_share_max > kMaxUntrackedShare) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "--strict-memory: untracked memory reached %.1f %% of RSS, above %.0f %%",
                  100 * report.untracked_share_max, 100 * kMaxUntrackedShare);
    throw std::runtime_error(buf);
  }
  if (c.options.strict_memory && static_cast<double>(report.peak_rss) > report.budget_bound) {
    throw std::runtime_error("--strict-memory: peak RSS " + format_bytes(static_cast<double>(report.peak_rss)) +
                             " above baseline + budget + runtime growth (" + format_bytes(report.budget_bound) + ")");
  }
}

std::string markdown_and_csv(const std::vector<BenchReport>& reports, std::string& csv) {
  std::ostringstream md;
  md << "| pw | gw | budget | s/proof | peak RSS | peak queued partitions | peak tracked bytes | device busy | "
        "device busy (device) |\n"
     << "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  csv = "pw,gw,budget_bytes,seconds_per_proof,peak_rss_bytes,peak_queued_partitions,peak_tracked_bytes,device_busy,"
        "device_busy_measured\n";
  for (const BenchReport& r : reports) {
    const auto& queued = r.ledger[memory::Stage::queued];
    const double measured = r.device_busy_measured.value_or(-1);
    char measured_text[16] = "-";
    if (r.device_busy_measured) std::snprintf(measured_text, sizeof measured_text, "%.1f %%", 100 * measured);
    char line[320];
    std::snprintf(line, sizeof line, "| %zu | %zu | %s | %.3f | %s | %zu | %s | %.1f %% | %s |\n", r.pw, r.gw,
                  format_bytes(static_cast<double>(r.budget)).c_str(), r.seconds_per_proof,
                  format_bytes(static_cast<double>(r.peak_rss)).c_str(), queued.peak_count,
                  format_bytes(static_cast<double>(r.ledger.peak_tracked)).c_str(), 100 * r.device_busy, measured_text);
    md << line;
    std::snprintf(line, sizeof line, "%zu,%zu,%zu,%.4f,%zu,%zu,%zu,%.4f,%.4f\n", r.pw, r.gw, r.budget,
                  r.seconds_per_proof, r.peak_rss, queued.peak_count, r.ledger.peak_tracked, r.device_busy, measured);
    csv += line;
  }
  return md.str();
}

void run_bench_sweep(BenchCommand& c) {
  refuse_overwriting_inputs({c.options.key_path}, {c.csv_path});
  c.options.engine.policy = *engine::parse_policy(c.policy);
  c.options.quiet = true;
  PreparedWorkload w = prepare(c);
  const std::vector<std::size_t> gws = c.gw_list.empty() ? std::vector{c.options.engine.workers_per_device} : c.gw_list;
  const std::vector<std::string> budgets = c.budget_list.empty() ? std::vector{c.options.budget} : c.budget_list;
  std::vector<BenchReport> reports;
  for (const std::string& budget : budgets) {
    for (std::size_t gw : gws) {
      for (std::size_t pw : c.pw_list) {
        BenchOptions o = c.options;
        o.engine.synthesis_workers = pw;
        o.engine.workers_per_device = gw;
        o.budget = budget;
        std::cerr << "sweep: pw=" << pw << " gw=" << gw << " budget=" << budget << " ...\n";
        reports.push_back(run_batch(o, w));
      }
    }
  }
  std::string csv;
  std::cout << "\n## " << c.options.workload.circuit << "/" << c.options.workload.preset << ", "
            << c.options.count << " proofs x " << c.options.workload.partitions << " partitions, policy "
            << c.policy << ", " << describe_backend(c.options.backend) << "\n\n"
            << markdown_and_csv(reports, csv) << "\n```csv\n" << csv << "```\n";
  if (!c.csv_path.empty()) {
    io::write_file_atomically(c.csv_path, csv);
    std::cout << "csv: " << c.csv_path << "\n";
  }
}

void run_bench_pileup(BenchCommand& c) {
  c.options.quiet = true;
  PreparedWorkload w = prepare(c);
  std::vector<BenchReport> reports;
  for (engine::PermitPolicy policy : {engine::PermitPolicy::early, engine::PermitPolicy::budget}) {
    BenchOptions o = c.options;
    o.engine.policy = policy;
    std::cerr << "pileup: policy " << engine::policy_name(policy) << " ...\n";
    reports.push_back(run_batch(o, w));
  }
  std::cout << "\n## pile-up: " << c.options.workload.circuit << "/" << c.options.workload.preset << ", "
            << c.options.count << " proofs x " << c.options.workload.partitions << " partitions, pw="
            << c.options.engine.synthesis_workers << ", channel=" << c.options.engine.channel_capacity << "\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "| %-34s | %14s | %14s |\n| :--- | ---: | ---: |\n", "", "early", "budget");
  std::cout << line;
  auto row = [&](const char* name, const std::string& a, const std::string& b) {
    std::snprintf(line, sizeof line, "| %-34s | %14s | %14s |\n", name, a.c_str(), b.c_str());
    std::cout << line;
  };
  const BenchReport& e = reports[0];
  const BenchReport& b = reports[1];
  auto bytes = [](std::size_t v) { return format_bytes(static_cast<double>(v)); };
  row("peak queued partitions", std::to_string(e.ledger[memory::Stage::queued].peak_count),
      std::to_string(b.ledger[memory::Stage::queued].peak_count));
  row("peak tracked bytes", bytes(e.ledger.peak_tracked), bytes(b.ledger.peak_tracked));
  row("peak queued bytes", bytes(e.ledger[memory::Stage::queued].peak_bytes),
      bytes(b.ledger[memory::Stage::queued].peak_bytes));
  row("peak RSS", bytes(e.peak_rss), bytes(b.peak_rss));
  row("s/proof", format_seconds(e.seconds_per_proof), format_seconds(b.seconds_per_proof));
  row("budget", "none", bytes(b.budget));
}

}  // namespace

void register_bench(CLI::App& app) {
  CLI::App* bench = app.add_subcommand("bench", "Benchmark the engine on PoRep-like workloads");
  bench->require_subcommand(1);

  auto batch = std::make_shared<BenchCommand>();
  CLI::App* b = bench->add_subcommand("batch", "Run a batch of multi-partition proofs through the engine");
  add_engine_options(*b, *batch);
  b->add_option("--pw", batch->options.engine.synthesis_workers, "Synthesis workers")
      ->capture_default_str()
      ->check(worker_count());
  add_policy_option(*b, *batch);
  add_output_options(*b, *batch);
  b->add_flag("--strict-memory", batch->options.strict_memory,
              "Exit non-zero when untracked memory exceeds 5 % of RSS at any sample, or peak RSS exceeds "
              "baseline + budget + runtime growth");
  add_critical_options(*b, batch->options.critical);
  b->callback([batch] { run_bench_batch(*batch); });

  auto sweep = std::make_shared<BenchCommand>();
  CLI::App* s = bench->add_subcommand("sweep", "Run the batch over --pw, --gws and --budgets values; print Markdown and CSV");
  add_engine_options(*s, *sweep);
  s->add_option("--pw", sweep->pw_list, "Synthesis worker counts, comma-separated")
      ->delimiter(',')
      ->capture_default_str()
      ->check(worker_count());
  s->add_option("--gws", sweep->gw_list, "Device worker counts to sweep, comma-separated (default: --gw)")
      ->delimiter(',')
      ->check(worker_count());
  s->add_option("--budgets", sweep->budget_list, "Budgets to sweep, comma-separated, each as --budget takes")
      ->delimiter(',')
      ->check(budget_validator());
  add_policy_option(*s, *sweep);
  s->add_option("--csv", sweep->csv_path, "Also write the CSV to this file")->check(output_file());
  s->callback([sweep] { run_bench_sweep(*sweep); });

  auto pileup = std::make_shared<BenchCommand>();
  CLI::App* p = bench->add_subcommand("pileup", "The same workload under the early and budget policies, side by side");
  add_engine_options(*p, *pileup);
  pileup->options.engine.synthesis_workers = 4;
  p->add_option("--pw", pileup->options.engine.synthesis_workers, "Synthesis workers")
      ->capture_default_str()
      ->check(worker_count());
  p->callback([pileup] { run_bench_pileup(*pileup); });

  register_bench_limit(*bench);
}

}  // namespace zkpipe::cli
