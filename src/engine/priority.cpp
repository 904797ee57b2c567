#include "engine/priority.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace zkpipe::engine {

namespace {

constexpr std::array<std::pair<Priority, std::string_view>, 4> kNames = {{
    {Priority::critical, "critical"},
    {Priority::high, "high"},
    {Priority::normal, "normal"},
    {Priority::low, "low"},
}};

}  // namespace

std::string_view priority_name(Priority p) {
  for (const auto& [priority, name] : kNames) {
    if (priority == p) return name;
  }
  return "?";
}

std::optional<Priority> parse_priority(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto& [priority, name] : kNames) {
    if (name == lower) return priority;
  }
  return std::nullopt;
}

}  // namespace zkpipe::engine
