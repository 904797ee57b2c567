// The proving service (service::ProvingService, what the gRPC handlers call) on any
// request a client can send. The first byte picks the call as the transport would
// route it (submit, await, cancel, preload, evict, status, metrics); the rest is that
// call's message, decoded as the gRPC front decodes it (service::api::decode_request
// refuses bytes that are no valid encoding). A request is answered or refused with
// ServiceError — any other exception is what the handler reports as INTERNAL, and
// is a finding, as is a crash or a sanitizer report.
//
// The daemon runs once per process on the CPU backend, its data dir and its one
// parameter root in a temporary directory. The root holds only files that cannot be
// proved with (garbage "parameters", an empty file, a directory, a link leading out
// of the root), so that an accepted job goes through the journal, the starter and
// the load, and fails there without proving. A path field starting with "@/" is
// taken as relative to the root, so that seeds and mutations reach files inside it.
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "groth16/cpu_prover.hpp"
#include "fuzz_common.hpp"
#include "service/api/request_decoder.hpp"
#include "service/errors.hpp"
#include "service/proving_service.hpp"

using namespace zkpipe;
namespace fs = std::filesystem;

namespace {

enum class Call : std::uint8_t { submit, await, cancel, preload, evict, status, metrics, count };

class Daemon {
 public:
  Daemon() {
    std::string pattern = (fs::temp_directory_path() / "zkpipe-fuzz-service-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      std::perror("zkpipe fuzz: mkdtemp");
      std::abort();
    }
    dir_ = pattern;
    root_ = dir_ / "root";
    fs::create_directories(root_ / "a-directory");
    fs::create_directories(dir_ / "data");
    std::ofstream(root_ / "garbage.params") << std::string(4096, '\x5a');
    std::ofstream(root_ / "garbage.zkey") << "zkey" << std::string(64, '\x01');
    std::ofstream(root_ / "garbage.wtns") << "wtns" << std::string(64, '\x02');
    std::ofstream(root_ / "empty");
    fs::create_symlink("/etc/hostname", root_ / "outside");

    service::config::ServiceConfig config;
    config.data_dir = dir_ / "data";
    config.parameter_roots = {root_};
    config.synthesis_workers = 1;
    config.budget_bytes = std::size_t{256} << 20;
    config.max_jobs = 64;
    config.param_idle_seconds = 0;
    config.drain_seconds = 0;
    service::BackendSetup backend;
    backend.backends = {std::make_shared<groth16::CpuProver>()};
    service_ = std::make_unique<service::ProvingService>(config, std::move(backend));
  }
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;
  ~Daemon() {
    service_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  service::ProvingService& service() { return *service_; }

  // "@/name" → ROOT/name; anything else as it came.
  void place(std::string* path) const {
    if (path->starts_with("@/")) *path = (root_ / path->substr(2)).string();
  }

 private:
  fs::path dir_;
  fs::path root_;
  std::unique_ptr<service::ProvingService> service_;
};

Daemon& daemon() {
  static Daemon d;
  return d;
}

void decode(const std::uint8_t* data, std::size_t size, google::protobuf::Message& request) {
  service::api::decode_request(std::string(reinterpret_cast<const char*>(data), size), request);
}

void call(Daemon& d, Call which, const std::uint8_t* data, std::size_t size) {
  service::ProvingService& s = d.service();
  switch (which) {
    case Call::submit: {
      v1::SubmitProofRequest request;
      decode(data, size, request);
      if (request.has_porep()) d.place(request.mutable_porep()->mutable_parameter_file());
      if (request.has_circom()) {
        d.place(request.mutable_circom()->mutable_zkey());
        d.place(request.mutable_circom()->mutable_witness());
      }
      s.submit(request);
      return;
    }
    case Call::await: {
      v1::AwaitProofRequest request;
      decode(data, size, request);
      // Not the requested wait: a long wait is the call working as documented.
      s.await(request.job_id(), std::chrono::milliseconds(0));
      return;
    }
    case Call::cancel: {
      v1::CancelProofRequest request;
      decode(data, size, request);
      s.cancel(request.job_id());
      return;
    }
    case Call::preload: {
      v1::PreloadParamsRequest request;
      decode(data, size, request);
      d.place(request.mutable_parameter_file());
      s.preload(request);
      return;
    }
    case Call::evict: {
      v1::EvictParamsRequest request;
      decode(data, size, request);
      d.place(request.mutable_parameter_file());
      s.evict(request.parameter_file());
      return;
    }
    case Call::status: s.status(); return;
    case Call::metrics: s.metrics(); return;
    case Call::count: break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_single_thread();
  daemon();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto which = static_cast<Call>(data[0] % static_cast<std::uint8_t>(Call::count));
  try {
    call(daemon(), which, data + 1, size - 1);
  } catch (const service::ServiceError&) {
  }
  return 0;
}
