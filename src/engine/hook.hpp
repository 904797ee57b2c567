// The lifecycle events of one partition in the engine, in the order they happen.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace zkpipe::engine {

enum class Hook : std::uint8_t { synth_start, synth_done, gpu_start, abc_freed, finalize_done, dealloc_done };

inline constexpr std::size_t kHookCount = 6;

std::string_view hook_name(Hook hook);

}  // namespace zkpipe::engine
