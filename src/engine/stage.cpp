#include "engine/stage.hpp"

namespace zkpipe::engine {

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

std::string_view hook_name(Hook hook) {
  switch (hook) {
    case Hook::synth_start: return "synth_start";
    case Hook::synth_done: return "synth_done";
    case Hook::gpu_start: return "gpu_start";
    case Hook::abc_freed: return "abc_freed";
    case Hook::finalize_done: return "finalize_done";
    case Hook::dealloc_done: return "dealloc_done";
  }
  return "?";
}

}  // namespace zkpipe::engine
