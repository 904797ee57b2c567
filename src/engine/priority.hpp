// Request priorities, most urgent first: a waiting CRITICAL partition is admitted
// before any HIGH, NORMAL or LOW one.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace zkpipe::engine {

enum class Priority : std::uint8_t { critical, high, normal, low };

std::string_view priority_name(Priority p);
// Accepts critical / high / normal / low, any case.
std::optional<Priority> parse_priority(std::string_view text);

}  // namespace zkpipe::engine
