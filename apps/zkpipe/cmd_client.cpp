// zkpipe client: the command-line client of `zkpipe serve` (zkpipe.v1.Prover).
// Human tables by default, --json (protobuf's JSON mapping) for scripts. submit
// prints the job id alone on its last line; await and prove write the same proof
// file as `zkpipe prove`, which `zkpipe verify` checks, or for a circom job (--zkey,
// --witness) the proof.json and public.json `zkpipe groth16 prove` writes, or for a
// Filecoin PoRep (--filecoin-porep: --c1 and --sector read here and sent, --params
// on the daemon's machine) the seal proof bellperson writes, and for a PoSt partition
// or a SnapDeals update (--filecoin-post, --filecoin-update: the vanilla proof files
// read here and sent) the proof bytes, 192 a partition.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <grpcpp/grpcpp.h>
#include <google/protobuf/util/json_util.h>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "commands.hpp"
#include "engine/priority.hpp"
#include "file_args.hpp"
#include "formats/excerpt.hpp"
#include "hex_args.hpp"
#include "io/atomic_file.hpp"
#include "io/bounded_read.hpp"
#include "progress.hpp"
#include "service/api/grpc_server.hpp"
#include "workloads.hpp"
#include "zkpipe/v1/zkpipe.grpc.pb.h"

namespace zkpipe::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct ClientOptions {
  std::string server = "127.0.0.1:50051";
  std::string token_file;
  bool json = false;
};

struct JobOptions {
  WorkloadSpec workload;
  std::string key;
  std::string zkey;     // a circom job: the .zkey …
  std::string witness;  // … and the .wtns
  bool filecoin = false;  // a Filecoin PoRep: the C1 output and sector.json (sent) …
  std::string c1;
  std::string sector;
  std::string params;  // … and the seal proof's .params (the daemon's); also a PoSt's or an update's key
  std::string post_proof;    // a PoSt partition: its registered proof, randomness and vanilla proofs
  std::string randomness;
  std::uint32_t partition_index = 0;
  std::string update_proof;  // a SnapDeals update: its registered proof, commitments and vanilla proofs
  std::string comm_r_old;
  std::string comm_r_new;
  std::string comm_d_new;
  std::vector<std::string> vanilla;  // the vanilla proof files, in order (read here and sent)
  std::string public_out;
  std::string priority = "normal";
  std::string label;
  std::string out;
  std::size_t repeat = 1;
  std::uint64_t id = 0;
  double timeout = 0;  // await: 0 = no limit
  std::string preset;
};

class Client {
 public:
  explicit Client(const ClientOptions& o) : options_(o) {
    const std::string target = o.server;
    grpc::ChannelArguments args;
    // Proof responses are 192 bytes per partition; 1024 partitions fit well within this.
    args.SetMaxReceiveMessageSize(16 << 20);
    stub_ = v1::Prover::NewStub(grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args));
    if (!o.token_file.empty()) token_ = service::api::read_token_file(o.token_file);
  }

  std::unique_ptr<grpc::ClientContext> context() const {
    auto ctx = std::make_unique<grpc::ClientContext>();
    if (!token_.empty()) ctx->AddMetadata("authorization", "Bearer " + token_);
    return ctx;
  }

  v1::Prover::Stub& stub() { return *stub_; }
  const ClientOptions& options() const { return options_; }

 private:
  ClientOptions options_;
  std::unique_ptr<v1::Prover::Stub> stub_;
  std::string token_;
};

void check(const grpc::Status& status, const std::string& server) {
  if (status.ok()) return;
  static const char* names[] = {"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
                                "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
                                "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
                                "UNAUTHENTICATED"};
  const int code = status.error_code();
  const std::string name = code >= 0 && code <= 16 ? names[code] : std::to_string(code);
  throw std::runtime_error(server + ": " + name + ": " + status.error_message());
}

std::string to_json(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, options);
  return out;
}

v1::Priority priority_of(const std::string& text) {
  const auto p = engine::parse_priority(text);
  if (!p) throw std::invalid_argument("--priority: expected critical, high, normal or low, not '" + text + "'");
  switch (*p) {
    case engine::Priority::critical: return v1::PRIORITY_CRITICAL;
    case engine::Priority::high: return v1::PRIORITY_HIGH;
    case engine::Priority::normal: return v1::PRIORITY_NORMAL;
    case engine::Priority::low: return v1::PRIORITY_LOW;
  }
  return v1::PRIORITY_NORMAL;
}

// The daemon resolves paths on its own machine: send absolute ones.
std::string absolute_path(const std::string& path) {
  return std::filesystem::absolute(path).lexically_normal().string();
}

// The documents travel in the request, which the daemon bounds (max_request_bytes,
// at most 64 MiB): larger files could not be sent.
constexpr std::size_t kMaxC1Bytes = std::size_t{64} << 20;
constexpr std::size_t kMaxSectorBytes = std::size_t{64} << 10;
// A 32 GiB SnapDeals partition's vanilla proof is 549 KiB, a Window PoSt sector's 24 KiB.
constexpr std::size_t kMaxVanillaBytes = std::size_t{16} << 20;

// A 32-byte value given in hex on the command line.
std::string bytes32_option(const std::string& hex, const char* option) {
  const std::vector<std::uint8_t> bytes = hex_option(hex, 32, option);
  return std::string(bytes.begin(), bytes.end());
}

void add_vanilla_proofs(const JobOptions& o, google::protobuf::RepeatedPtrField<std::string>& out) {
  if (o.vanilla.empty()) throw std::invalid_argument("--vanilla: give the vanilla proof files, in order");
  for (const std::string& file : o.vanilla) {
    *out.Add() = io::read_bounded_file(file, kMaxVanillaBytes, "vanilla proof sent to the daemon");
  }
}

// A PoSt partition or a SnapDeals update from its vanilla proofs (--filecoin-post,
// --filecoin-update); false when the options ask for neither.
bool vanilla_job_request(const JobOptions& o, v1::SubmitProofRequest& r) {
  if (!o.post_proof.empty()) {
    if (o.randomness.empty() || o.params.empty()) {
      throw std::invalid_argument("--filecoin-post needs --randomness (64 hex digits), --vanilla (the sectors' vanilla "
                                  "proofs) and --params (the PoSt key, under one of the daemon's parameter roots)");
    }
    auto* job = r.mutable_filecoin_post();
    job->set_registered_proof(o.post_proof);
    job->set_randomness(bytes32_option(o.randomness, "--randomness"));
    job->set_partition_index(o.partition_index);
    add_vanilla_proofs(o, *job->mutable_vanilla_proofs());
    job->set_parameter_file(absolute_path(o.params));
    return true;
  }
  if (!o.update_proof.empty()) {
    if (o.comm_r_old.empty() || o.comm_r_new.empty() || o.comm_d_new.empty() || o.params.empty()) {
      throw std::invalid_argument("--filecoin-update needs --comm-r-old, --comm-r-new, --comm-d-new (64 hex digits "
                                  "each), --vanilla (every partition's vanilla proof) and --params (the SnapDeals "
                                  "key, under one of the daemon's parameter roots)");
    }
    auto* job = r.mutable_filecoin_update();
    job->set_registered_proof(o.update_proof);
    job->set_comm_r_old(bytes32_option(o.comm_r_old, "--comm-r-old"));
    job->set_comm_r_new(bytes32_option(o.comm_r_new, "--comm-r-new"));
    job->set_comm_d_new(bytes32_option(o.comm_d_new, "--comm-d-new"));
    add_vanilla_proofs(o, *job->mutable_vanilla_proofs());
    job->set_parameter_file(absolute_path(o.params));
    return true;
  }
  return false;
}

v1::SubmitProofRequest submit_request(const JobOptions& o) {
  v1::SubmitProofRequest r;
  r.set_priority(priority_of(o.priority));
  r.set_label(o.label);
  if (vanilla_job_request(o, r)) return r;
  if (!o.vanilla.empty()) throw std::invalid_argument("--vanilla goes with --filecoin-post or --filecoin-update");
  if (o.filecoin) {
    if (o.c1.empty() || o.sector.empty() || o.params.empty()) {
      throw std::invalid_argument(
          "--filecoin-porep needs --c1 (the commit-phase-1 output), --sector (sector.json) and --params (the seal "
          "proof's .params, under one of the daemon's parameter roots)");
    }
    auto* job = r.mutable_filecoin_porep();
    job->set_c1_json(io::read_bounded_file(o.c1, kMaxC1Bytes, "C1 output sent to the daemon"));
    job->set_sector_json(io::read_bounded_file(o.sector, kMaxSectorBytes, "sector.json"));
    job->set_parameter_file(absolute_path(o.params));
    return r;
  }
  if (!o.zkey.empty()) {
    if (o.witness.empty()) throw std::invalid_argument("--zkey needs --witness: the circom witness (.wtns) to prove");
    r.mutable_circom()->set_zkey(absolute_path(o.zkey));
    r.mutable_circom()->set_witness(absolute_path(o.witness));
    return r;
  }
  if (!o.witness.empty()) throw std::invalid_argument("--witness goes with --zkey (a circom job)");
  if (!o.params.empty()) {
    throw std::invalid_argument("--params goes with --filecoin-porep, --filecoin-post or --filecoin-update");
  }
  if (o.key.empty()) {
    throw std::invalid_argument(
        "give --key (a parameter file), --zkey and --witness (a circom job), or --filecoin-porep with --c1, --sector "
        "and --params");
  }
  auto* porep = r.mutable_porep();
  porep->set_circuit(o.workload.circuit);
  porep->set_preset(o.workload.preset);
  porep->set_seed(o.workload.seed);
  porep->set_partitions(static_cast<std::uint32_t>(o.workload.partitions));
  porep->set_parameter_file(absolute_path(o.key));
  return r;
}

std::string state_name(v1::JobState s) {
  std::string name = v1::JobState_Name(s);
  name = name.substr(std::string("JOB_STATE_").size());
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name;
}

void print_timings(const v1::Timings& t) {
  std::cout << "  queue wait       " << format_seconds(t.queue_wait()) << "\n"
            << "  parameter load   " << format_seconds(t.parameter_load()) << "\n"
            << "  synthesis        " << format_seconds(t.synthesis()) << "\n"
            << "  device           " << format_seconds(t.device()) << "\n"
            << "  finalize         " << format_seconds(t.finalize()) << "\n"
            << "  total            " << format_seconds(t.total()) << "\n";
}

// A finished job: its proof written (when done and --out given), its outcome
// printed; exit 1 when it failed or was cancelled.
void report(const Client& client, const v1::AwaitProofResponse& r, const std::string& out,
            const std::string& public_out) {
  const bool circom = !r.proof_json().empty();
  if (r.state() == v1::JOB_STATE_DONE && circom && !out.empty()) {
    if (public_out.empty()) {
      throw std::invalid_argument("job " + std::to_string(r.job_id()) +
                                  " is a circom job: give --public FILE for its public.json beside --out");
    }
    io::write_file_atomically(out, r.proof_json());
    io::write_file_atomically(public_out, r.public_json());
  } else if (r.state() == v1::JOB_STATE_DONE && !out.empty()) {
    if (r.proof().size() != static_cast<std::size_t>(r.partitions()) * 192) {
      throw std::runtime_error("the daemon returned " + std::to_string(r.proof().size()) + " proof bytes for " +
                               std::to_string(r.partitions()) + " partitions");
    }
    io::write_file_atomically(out, r.proof());
  }
  if (client.options().json) {
    std::cout << to_json(r) << "\n";
  } else {
    std::cout << "job " << r.job_id() << ": " << state_name(r.state());
    if (!r.error().empty()) std::cout << " (" << r.error() << ")";
    if (r.state() == v1::JOB_STATE_DONE) {
      if (circom) {
        std::cout << ", Groth16 proof" << (out.empty() ? "" : " written to " + out + " and " + public_out) << "\n";
      } else {
        std::cout << ", " << r.partitions() << " partition proofs" << (out.empty() ? "" : " written to " + out) << "\n";
      }
      print_timings(r.timings());
    } else {
      std::cout << "\n";
    }
  }
  if (r.state() != v1::JOB_STATE_DONE) throw CLI::RuntimeError(1);
}

void run_submit(Client& client, const JobOptions& o) {
  auto ctx = client.context();
  v1::SubmitProofResponse response;
  check(client.stub().SubmitProof(ctx.get(), submit_request(o), &response), client.options().server);
  if (client.options().json) {
    std::cout << to_json(response) << "\n";
  } else {
    std::cout << "submitted job\n" << response.job_id() << "\n";
  }
}

void run_await(Client& client, const JobOptions& o) {
  const bool tty = isatty(STDERR_FILENO) != 0;
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.timeout));
  std::string last_line;
  for (;;) {
    v1::AwaitProofRequest request;
    request.set_job_id(o.id);
    request.set_wait_ms(1000);
    v1::AwaitProofResponse response;
    auto ctx = client.context();
    check(client.stub().AwaitProof(ctx.get(), request, &response), client.options().server);
    const bool finished = response.state() == v1::JOB_STATE_DONE || response.state() == v1::JOB_STATE_FAILED ||
                          response.state() == v1::JOB_STATE_CANCELLED;
    if (!client.options().json) {
      // The progress line: rewritten in place on a terminal, one line per change otherwise.
      std::ostringstream line;
      line << "job " << o.id << ": " << state_name(response.state()) << ", " << response.partitions_done() << "/"
           << response.partitions() << " partitions";
      if (line.str() != last_line) {
        std::cerr << (tty ? "\r" : "") << line.str() << (tty ? "\033[K" : "\n") << std::flush;
        last_line = line.str();
      }
    }
    if (finished) {
      if (tty && !client.options().json) std::cerr << "\n";
      report(client, response, o.out, o.public_out);
      return;
    }
    if (o.timeout > 0 && Clock::now() >= until) {
      if (tty) std::cerr << "\n";
      throw std::runtime_error("job " + std::to_string(o.id) + " not finished after " + format_seconds(o.timeout));
    }
  }
}

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
  return v[std::min(i, v.size() - 1)];
}

void run_prove(Client& client, const JobOptions& o) {
  const v1::SubmitProofRequest request = submit_request(o);
  if (request.has_circom()) {
    if (!o.out.empty() && o.public_out.empty()) {
      throw std::invalid_argument("a circom job writes proof.json (--out) and public.json (--public): give both");
    }
    refuse_overwriting_inputs({o.zkey, o.witness}, {o.out, o.public_out});
  } else if (request.has_filecoin_porep()) {
    refuse_overwriting_inputs({o.c1, o.sector, o.params}, {o.out});
  } else if (request.has_filecoin_post() || request.has_filecoin_update()) {
    std::vector<std::string> inputs = o.vanilla;
    inputs.push_back(o.params);
    refuse_overwriting_inputs(inputs, {o.out});
  } else {
    refuse_overwriting_inputs({o.key}, {o.out});
  }
  std::vector<double> latencies;
  v1::AwaitProofResponse response;
  for (std::size_t i = 0; i < o.repeat; ++i) {
    auto ctx = client.context();
    const auto t0 = Clock::now();
    check(client.stub().Prove(ctx.get(), request, &response), client.options().server);
    latencies.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    if (response.state() != v1::JOB_STATE_DONE) break;
  }
  report(client, response, o.out, o.public_out);
  if (o.repeat > 1 && !client.options().json) {
    double sum = 0;
    for (const double l : latencies) sum += l;
    std::cout << latencies.size() << " Prove calls: mean " << format_seconds(sum / static_cast<double>(latencies.size()))
              << ", p50 " << format_seconds(percentile(latencies, 0.5)) << ", p99 "
              << format_seconds(percentile(latencies, 0.99)) << "\n";
  }
}

void run_cancel(Client& client, const JobOptions& o) {
  v1::CancelProofRequest request;
  request.set_job_id(o.id);
  v1::CancelProofResponse response;
  auto ctx = client.context();
  check(client.stub().CancelProof(ctx.get(), request, &response), client.options().server);
  if (client.options().json) {
    std::cout << to_json(response) << "\n";
  } else {
    std::cout << "job " << o.id << ": " << state_name(response.state()) << "\n";
  }
}

std::string bytes_text(std::uint64_t b) { return format_bytes(static_cast<double>(b)); }

void run_status(Client& client) {
  v1::GetStatusResponse s;
  auto ctx = client.context();
  check(client.stub().GetStatus(ctx.get(), v1::GetStatusRequest{}, &s), client.options().server);
  if (client.options().json) {
    std::cout << to_json(s) << "\n";
    return;
  }
  std::cout << "uptime " << format_seconds(s.uptime_seconds()) << (s.draining() ? ", draining" : "") << "; jobs done "
            << s.jobs_done() << ", failed " << s.jobs_failed() << ", cancelled " << s.jobs_cancelled() << "\n\n";
  std::cout << std::left << std::setw(12) << "priority" << "jobs queued or running\n";
  for (const auto& q : s.queue()) std::cout << std::setw(12) << q.priority() << q.jobs() << "\n";
  std::cout << "\n" << std::setw(20) << "stage" << std::setw(12) << "partitions" << std::setw(10) << "buffers"
            << std::setw(14) << "bytes" << "peak\n";
  for (int i = 0; i < s.ledger().stages_size(); ++i) {
    const auto& st = s.ledger().stages(i);
    const std::string partitions = i < s.partitions_size() ? std::to_string(s.partitions(i).partitions()) : "-";
    std::cout << std::setw(20) << st.stage() << std::setw(12) << partitions << std::setw(10) << st.count()
              << std::setw(14) << bytes_text(st.bytes()) << bytes_text(st.peak_bytes()) << "\n";
  }
  std::cout << "\ntracked " << bytes_text(s.ledger().tracked_bytes()) << " (peak "
            << bytes_text(s.ledger().peak_tracked_bytes()) << "), RSS " << bytes_text(s.ledger().rss_bytes())
            << ", untracked " << (s.ledger().untracked_bytes() < 0 ? "-" : "")
            << bytes_text(static_cast<std::uint64_t>(std::llabs(s.ledger().untracked_bytes()))) << ", budget "
            << bytes_text(s.budget_bytes()) << "\n";
  if (s.ledger().peak_pinned_bytes() > 0) {
    std::cout << "pinned (page-locked) " << bytes_text(s.ledger().pinned_bytes()) << " (peak "
              << bytes_text(s.ledger().peak_pinned_bytes()) << "), within tracked\n";
  }
  std::cout << "key cache " << s.key_cache_dir() << ": " << bytes_text(s.key_cache_bytes())
            << (s.key_cache_budget_bytes() > 0 ? " of a budget of " + bytes_text(s.key_cache_budget_bytes())
                                               : std::string(", no budget"))
            << "\n";
  std::cout << "\nresident parameters: " << (s.parameters().empty() ? "none" : "") << "\n";
  for (const auto& p : s.parameters()) {
    std::cout << "  " << p.parameter_file() << "  " << p.tier() << "  " << bytes_text(p.bytes()) << "  in use by "
              << p.in_use() << "  idle " << format_seconds(p.idle_seconds()) << "\n";
  }
  std::cout << "\ndevices:\n";
  for (const auto& d : s.devices()) {
    std::cout << "  " << d.index() << "  " << d.backend() << (d.has_ordinal() ? " on GPU " + std::to_string(d.ordinal()) : "")
              << "  " << (d.healthy() ? "healthy" : "FAILED: " + d.failure()) << "  busy "
              << format_seconds(d.busy_seconds()) << "  proved " << d.partitions_proved();
    if (d.partitions_reassigned() > 0) std::cout << "  moved to another device " << d.partitions_reassigned();
    if (d.has_ordinal()) std::cout << "  GPU memory " << bytes_text(d.memory_bytes());
    if (d.keys_resident() + d.keys_streamed() > 0) {
      std::cout << "  keys resident " << d.keys_resident() << ", streamed " << d.keys_streamed();
    }
    if (d.evaluator_streamed()) std::cout << "  evaluator streamed";
    if (d.streamed_bytes() > 0) std::cout << "  streamed " << bytes_text(d.streamed_bytes()) << " from host memory";
    std::cout << "\n";
  }
  if (s.has_cluster()) {
    const auto& c = s.cluster();
    std::cout << "\ncluster (answered by " << c.daemon() << "): partitions queued " << c.queued_partitions()
              << ", leased " << c.leased_partitions() << ", re-claimed " << c.reclaimed_partitions() << "\n";
    std::cout << "  " << std::setw(28) << "daemon" << std::setw(36) << "address" << std::setw(12) << "heartbeat"
              << std::setw(8) << "leases" << "proved\n";
    for (const auto& d : c.daemons()) {
      std::cout << "  " << std::setw(28) << d.name() << std::setw(36) << d.address() << std::setw(12)
                << (format_seconds(d.heartbeat_age_seconds()) + " ago") << std::setw(8) << d.leases()
                << d.partitions_proved() << "\n";
    }
  }
}

void run_metrics(Client& client) {
  v1::GetMetricsResponse m;
  auto ctx = client.context();
  check(client.stub().GetMetrics(ctx.get(), v1::GetMetricsRequest{}, &m), client.options().server);
  if (client.options().json) {
    std::cout << to_json(m) << "\n";
  } else {
    std::cout << m.text();
  }
}

void run_preload(Client& client, const JobOptions& o) {
  v1::PreloadParamsRequest request;
  if (!o.zkey.empty()) {
    request.set_parameter_file(absolute_path(o.zkey));
    request.set_circuit("circom");
  } else if (!o.key.empty()) {
    request.set_parameter_file(absolute_path(o.key));
    request.set_circuit(o.workload.circuit);
    request.set_preset(o.workload.preset);
  } else {
    throw std::invalid_argument("give --key (a parameter file) or --zkey (a snarkjs .zkey)");
  }
  v1::PreloadParamsResponse response;
  auto ctx = client.context();
  check(client.stub().PreloadParams(ctx.get(), request, &response), client.options().server);
  if (client.options().json) {
    std::cout << to_json(response) << "\n";
  } else {
    std::cout << response.parameters().parameter_file() << ": resident (" << response.parameters().tier() << ", "
              << bytes_text(response.parameters().bytes()) << "), "
              << (response.load_seconds() == 0 ? std::string("already loaded")
                                               : "loaded in " + format_seconds(response.load_seconds()))
              << "\n";
  }
}

void run_evict(Client& client, const JobOptions& o) {
  v1::EvictParamsRequest request;
  request.set_parameter_file(absolute_path(o.key));
  v1::EvictParamsResponse response;
  auto ctx = client.context();
  check(client.stub().EvictParams(ctx.get(), request, &response), client.options().server);
  if (client.options().json) {
    std::cout << to_json(response) << "\n";
  } else {
    std::cout << o.key << ": " << bytes_text(response.freed_bytes()) << " freed\n";
  }
}

void run_watch(Client& client, std::uint32_t count, std::uint32_t interval_ms) {
  v1::WatchBuffersRequest request;
  request.set_count(count);
  request.set_interval_ms(interval_ms);
  auto ctx = client.context();
  auto reader = client.stub().WatchBuffers(ctx.get(), request);
  v1::LedgerSnapshot snapshot;
  while (reader->Read(&snapshot)) {
    if (client.options().json) {
      std::cout << to_json(snapshot) << std::endl;
      continue;
    }
    std::cout << "tracked " << bytes_text(snapshot.tracked_bytes()) << ", RSS " << bytes_text(snapshot.rss_bytes());
    for (const auto& s : snapshot.stages()) {
      if (s.count() != 0) std::cout << ", " << s.stage() << " " << s.count() << "/" << bytes_text(s.bytes());
    }
    std::cout << std::endl;
  }
  check(reader->Finish(), client.options().server);
}

// Job ids are decimal. CLI11 converts with strtoull in base 0, which takes "-1" for
// 2^64 - 1, "0x11" for 17 and "017" for 15: a client would await another job's proof.
CLI::Validator job_id() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (text.empty() || !std::ranges::all_of(text, [](char c) { return c >= '0' && c <= '9'; })) {
          return "expected a job id (decimal digits), not '" + formats::excerpt(text, 40) + "'";
        }
        // Leading zeros would make it octal.
        text.erase(0, std::min(text.find_first_not_of('0'), text.size() - 1));
        return {};
      },
      "JOB_ID");
}

void add_job_options(CLI::App& cmd, JobOptions& o) {
  add_circuit_options(cmd, o.workload);
  add_instance_options(cmd, o.workload);
  auto* key = cmd.add_option("--key", o.key, "Parameter file (under one of the daemon's parameter roots)");
  auto* zkey = cmd.add_option("--zkey", o.zkey, "A circom job instead: snarkjs .zkey (under a parameter root)");
  cmd.add_option("--witness", o.witness, "The circom job's witness (.wtns, under a parameter root)")->needs(zkey);
  key->excludes(zkey);
  auto* filecoin = cmd.add_flag("--filecoin-porep", o.filecoin,
                                "A Filecoin PoRep (seal commit phase 2) instead: --c1, --sector and --params");
  cmd.add_option("--c1", o.c1, "The Filecoin job's commit-phase-1 output (c1.json, or lotus-bench's Commit2In), sent")
      ->needs(filecoin)
      ->check(CLI::ExistingFile);
  cmd.add_option("--sector", o.sector, "The Filecoin job's sector.json, sent")
      ->needs(filecoin)
      ->check(CLI::ExistingFile);
  cmd.add_option("--params", o.params,
                 "The Filecoin job's .params or zkpipe key (under one of the daemon's parameter roots)");
  auto* post = cmd.add_option("--filecoin-post", o.post_proof,
                              "A Filecoin PoSt partition instead, of this registered proof (e.g. "
                              "StackedDrgWindow32GiBV1_2): --randomness, --vanilla and --params");
  auto* update = cmd.add_option("--filecoin-update", o.update_proof,
                                "A Filecoin SnapDeals update instead, of this registered proof (e.g. StackedDrg32GiBV1): "
                                "--comm-r-old, --comm-r-new, --comm-d-new, --vanilla and --params");
  cmd.add_option("--randomness", o.randomness, "The PoSt's randomness, 64 hex digits")->needs(post);
  cmd.add_option("--partition-index", o.partition_index, "The PoSt partition's place in its proof")
      ->capture_default_str()
      ->needs(post);
  cmd.add_option("--comm-r-old", o.comm_r_old, "The update's sector key comm_r, 64 hex digits")->needs(update);
  cmd.add_option("--comm-r-new", o.comm_r_new, "The updated replica's comm_r, 64 hex digits")->needs(update);
  cmd.add_option("--comm-d-new", o.comm_d_new, "The new data's comm_d, 64 hex digits")->needs(update);
  cmd.add_option("--vanilla", o.vanilla,
                 "Vanilla proof files in order, sent (a PoSt: one per sector; an update: one per partition)")
      ->check(CLI::ExistingFile);
  filecoin->excludes(key)->excludes(zkey)->excludes(post)->excludes(update);
  post->excludes(key)->excludes(zkey)->excludes(update);
  update->excludes(key)->excludes(zkey);
  cmd.add_option("--priority", o.priority, "critical | high | normal | low")->capture_default_str();
  cmd.add_option("--label", o.label, "Free text kept with the job");
}

}  // namespace

void register_client(CLI::App& app) {
  auto co = std::make_shared<ClientOptions>();
  auto jo = std::make_shared<JobOptions>();
  CLI::App* client = app.add_subcommand("client", "Talk to a `zkpipe serve` daemon");
  client->add_option("--server", co->server, "Daemon address: unix:PATH or HOST:PORT")->capture_default_str();
  client->add_option("--token-file", co->token_file, "Send the bearer token in this file");
  client->add_flag("--json", co->json, "Print the responses as JSON");
  client->require_subcommand(1);
  auto with_client = [co](auto f) { return [co, f] { Client c(*co); f(c); }; };

  CLI::App* submit = client->add_subcommand("submit", "Queue a proof; prints its job id on the last line");
  add_job_options(*submit, *jo);
  submit->callback(with_client([jo](Client& c) { run_submit(c, *jo); }));

  CLI::App* await = client->add_subcommand("await", "Wait for a job, showing its progress; write its proof");
  await->add_option("id", jo->id, "Job id")->required()->transform(job_id());
  await->add_option("--out", jo->out,
                    "Proof file to write (the `zkpipe prove` format, a Filecoin job's in bellperson's; proof.json for "
                    "a circom job)")
      ->check(output_file());
  await->add_option("--public", jo->public_out, "A circom job's public.json to write")->check(output_file());
  await->add_option("--timeout", jo->timeout, "Give up after this many seconds (default: wait)");
  await->callback(with_client([jo](Client& c) { run_await(c, *jo); }));

  CLI::App* prove = client->add_subcommand("prove", "Submit and await in one call; write the proof");
  add_job_options(*prove, *jo);
  prove->add_option("--out", jo->out,
                    "Proof file to write (the `zkpipe prove` format, a Filecoin job's in bellperson's; proof.json for "
                    "a circom job)")
      ->check(output_file());
  prove->add_option("--public", jo->public_out, "A circom job's public.json to write")->check(output_file());
  prove->add_option("--repeat", jo->repeat, "Prove this many times in a row; print latency p50 / p99")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  prove->callback(with_client([jo](Client& c) { run_prove(c, *jo); }));

  CLI::App* cancel = client->add_subcommand("cancel", "Cancel a job and free what it holds");
  cancel->add_option("id", jo->id, "Job id")->required()->transform(job_id());
  cancel->callback(with_client([jo](Client& c) { run_cancel(c, *jo); }));

  client->add_subcommand("status", "Queue, ledger, resident parameters, devices")
      ->callback(with_client([](Client& c) { run_status(c); }));
  client->add_subcommand("metrics", "Prometheus metrics")->callback(with_client([](Client& c) { run_metrics(c); }));

  CLI::App* preload = client->add_subcommand("preload", "Load parameters now, so that the next proof finds them");
  add_circuit_options(*preload, jo->workload);
  preload->add_option("--key", jo->key, "Parameter file")->excludes(
      preload->add_option("--zkey", jo->zkey, "A snarkjs .zkey instead (circom jobs)"));
  preload->callback(with_client([jo](Client& c) { run_preload(c, *jo); }));

  CLI::App* evict = client->add_subcommand("evict", "Drop resident parameters (refused while a job uses them)");
  evict->add_option("--key", jo->key, "Parameter file")->required();
  evict->callback(with_client([jo](Client& c) { run_evict(c, *jo); }));

  auto watch = std::make_shared<std::pair<std::uint32_t, std::uint32_t>>(0, 1000);
  CLI::App* w = client->add_subcommand("watch", "Stream buffer-ledger snapshots");
  w->add_option("--count", watch->first, "Snapshots to print (default: until interrupted)");
  w->add_option("--interval-ms", watch->second, "Between snapshots")->capture_default_str();
  w->callback(with_client([watch](Client& c) { run_watch(c, watch->first, watch->second); }));
}

}  // namespace zkpipe::cli
