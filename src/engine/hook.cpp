#include "engine/hook.hpp"

namespace zkpipe::engine {

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
