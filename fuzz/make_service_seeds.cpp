// Writes the seed corpus of fuzz_service_request: one file per call the service
// answers, the call's selector byte followed by a well-formed request — valid ones
// (paths "@/…" inside the target's parameter root) and the usual refusals (unknown
// preset, path outside the roots, missing fields, zero partitions).
//
//   fuzz_make_service_seeds OUT     writes OUT/service_request/seed-*
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "zkpipe/v1/zkpipe.pb.h"

using namespace zkpipe;
namespace fs = std::filesystem;

namespace {

// The selector bytes of fuzz_service_request.cpp's Call.
enum Call : char { submit = 0, await = 1, cancel = 2, preload = 3, evict = 4, status = 5, metrics = 6 };

int written = 0;

void seed(const fs::path& dir, Call call, const google::protobuf::Message& message) {
  std::string bytes(1, call);
  message.AppendToString(&bytes);
  std::ofstream(dir / ("seed-" + std::to_string(written++)), std::ios::binary) << bytes;
}

v1::SubmitProofRequest porep(const std::string& preset, std::uint32_t partitions, const std::string& file) {
  v1::SubmitProofRequest r;
  r.set_priority(v1::PRIORITY_HIGH);
  r.set_label("seed");
  auto* p = r.mutable_porep();
  p->set_preset(preset);
  p->set_partitions(partitions);
  p->set_parameter_file(file);
  p->set_seed(7);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT\n", argv[0]);
    return 2;
  }
  const fs::path dir = fs::path(argv[1]) / "service_request";
  fs::create_directories(dir);

  seed(dir, submit, porep("tiny", 2, "@/garbage.params"));
  seed(dir, submit, porep("tiny", 0, "@/garbage.params"));
  seed(dir, submit, porep("no-such-preset", 1, "@/garbage.params"));
  seed(dir, submit, porep("tiny", 1, "@/../outside-the-root"));
  seed(dir, submit, porep("tiny", 1, "@/a-directory"));
  seed(dir, submit, porep("tiny", 1, "@/outside"));
  seed(dir, submit, porep("tiny", 1, "relative/path"));
  v1::SubmitProofRequest circom;
  circom.mutable_circom()->set_zkey("@/garbage.zkey");
  circom.mutable_circom()->set_witness("@/garbage.wtns");
  seed(dir, submit, circom);
  circom.mutable_circom()->set_witness("@/empty");
  seed(dir, submit, circom);
  seed(dir, submit, v1::SubmitProofRequest());

  v1::AwaitProofRequest await_request;
  await_request.set_job_id(1);
  seed(dir, await, await_request);
  v1::CancelProofRequest cancel_request;
  cancel_request.set_job_id(1);
  seed(dir, cancel, cancel_request);

  v1::PreloadParamsRequest preload_request;
  preload_request.set_preset("tiny");
  preload_request.set_parameter_file("@/garbage.params");
  seed(dir, preload, preload_request);
  preload_request.set_circuit("circom");
  preload_request.clear_preset();
  preload_request.set_parameter_file("@/garbage.zkey");
  seed(dir, preload, preload_request);

  v1::EvictParamsRequest evict_request;
  evict_request.set_parameter_file("@/garbage.params");
  seed(dir, evict, evict_request);
  seed(dir, status, v1::GetStatusRequest());
  seed(dir, metrics, v1::GetMetricsRequest());
  return 0;
}
