#include "formats/byte_size.hpp"

#include <charconv>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace zkpipe::formats {

std::optional<std::size_t> parse_byte_size(std::string_view text) {
  std::uint64_t whole = 0;
  const char* const last = text.data() + text.size();
  auto [at, ec] = std::from_chars(text.data(), last, whole);
  if (ec != std::errc() || at == text.data()) return std::nullopt;
  // A fraction ("1.5GiB") is kept as its digits, applied once the unit is known.
  std::string_view fraction;
  if (at != last && *at == '.') {
    const char* const digits = ++at;
    while (at != last && *at >= '0' && *at <= '9') ++at;
    fraction = std::string_view(digits, static_cast<std::size_t>(at - digits));
    if (fraction.empty()) return std::nullopt;
  }
  std::string_view unit(at, static_cast<std::size_t>(last - at));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  // K, M, G, T alone are binary, as KiB … TiB; KB, MB, GB, TB are powers of ten.
  static const std::pair<std::string_view, std::uint64_t> units[] = {
      {"", 1},           {"B", 1},           {"KiB", 1ull << 10}, {"MiB", 1ull << 20}, {"GiB", 1ull << 30},
      {"TiB", 1ull << 40}, {"K", 1ull << 10},  {"M", 1ull << 20},   {"G", 1ull << 30},   {"T", 1ull << 40},
      {"KB", 1000},      {"MB", 1000000},    {"GB", 1000000000},  {"TB", 1000000000000}};
  for (const auto& [name, scale] : units) {
    if (unit != name) continue;
    if (!fraction.empty() && scale == 1) return std::nullopt;  // no fractions of a byte
    if (whole > std::numeric_limits<std::size_t>::max() / scale) return std::nullopt;
    std::size_t bytes = static_cast<std::size_t>(whole * scale);
    if (!fraction.empty()) {
      // At most 19 digits count: beyond them no scale here changes a byte.
      const std::string digits(fraction.substr(0, 19));
      const long double part = std::stold("0." + digits) * static_cast<long double>(scale);
      const auto extra = static_cast<std::size_t>(part);
      if (bytes > std::numeric_limits<std::size_t>::max() - extra) return std::nullopt;
      bytes += extra;
    }
    return bytes;
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
