#include "formats/byte_size.hpp"

#include <charconv>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace zkpipe::formats {

std::optional<std::size_t> parse_byte_size(std::string_view text) {
  std::uint64_t number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  std::string unit(end, text.data() + text.size());
  while (!unit.empty() && unit.front() == ' ') unit.erase(unit.begin());
  static const std::pair<std::string_view, std::uint64_t> units[] = {
      {"", 1},          {"B", 1},          {"KiB", 1ull << 10}, {"MiB", 1ull << 20}, {"GiB", 1ull << 30},
      {"TiB", 1ull << 40}, {"KB", 1000},  {"MB", 1000000},    {"GB", 1000000000}};
  for (const auto& [name, scale] : units) {
    if (unit == name) {
      if (number > std::numeric_limits<std::size_t>::max() / scale) return std::nullopt;
      return static_cast<std::size_t>(number * scale);
    }
  }
  return std::nullopt;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", bytes, units[u]);
  return buf;
}

}  // namespace zkpipe::formats
