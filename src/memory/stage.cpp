#include "memory/stage.hpp"

namespace zkpipe::memory {

std::string_view stage_name(Stage stage) {
  switch (stage) {
    case Stage::synthesizing: return "synthesizing";
    case Stage::queued: return "queued";
    case Stage::on_device: return "on device";
    case Stage::pending_finalize: return "pending finalize";
    case Stage::awaiting_dealloc: return "awaiting dealloc";
    case Stage::parameters: return "parameters";
    case Stage::scratch: return "scratch";
    case Stage::device: return "device memory";
  }
  return "?";
}

std::string_view stage_key(Stage stage) {
  switch (stage) {
    case Stage::synthesizing: return "synth";
    case Stage::queued: return "queued";
    case Stage::on_device: return "gpu";
    case Stage::pending_finalize: return "finalize";
    case Stage::awaiting_dealloc: return "dealloc";
    case Stage::parameters: return "params";
    case Stage::scratch: return "scratch";
    case Stage::device: return "dev";
  }
  return "?";
}

}  // namespace zkpipe::memory
