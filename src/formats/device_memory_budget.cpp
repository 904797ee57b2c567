#include "formats/device_memory_budget.hpp"

#include <charconv>
#include <stdexcept>

#include "formats/byte_size.hpp"
#include "formats/excerpt.hpp"

namespace zkpipe::formats {

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

std::string quoted(std::string_view text) { return "'" + excerpt(text, 40) + "'"; }

std::size_t parse_size(std::string_view text) {
  const std::optional<std::size_t> bytes = parse_byte_size(text);
  if (!bytes) {
    throw std::invalid_argument(quoted(text) +
                                " is not a size: write a number with a unit such as 16GiB, 24 GiB or 20000MB");
  }
  if (*bytes < kMinDeviceMemory) {
    throw std::invalid_argument(quoted(text) + " is less than the least zkpipe works in, 256 MiB");
  }
  return *bytes;
}

int parse_ordinal(std::string_view text) {
  int ordinal = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ordinal);
  if (ec != std::errc() || end != text.data() + text.size() || ordinal < 0 || text.empty()) {
    throw std::invalid_argument(quoted(text) + " is not a CUDA device ordinal (0, 1, …)");
  }
  return ordinal;
}

}  // namespace

std::optional<std::size_t> DeviceMemoryBudget::of(int ordinal) const {
  if (every) return every;
  const auto it = by_device.find(ordinal);
  if (it == by_device.end()) return std::nullopt;
  return it->second;
}

std::string DeviceMemoryBudget::describe() const {
  if (every) return format_bytes(static_cast<double>(*every));
  std::string text;
  for (const auto& [ordinal, bytes] : by_device) {
    text +=
        (text.empty() ? "" : ", ") + format_bytes(static_cast<double>(bytes)) + " on device " + std::to_string(ordinal);
  }
  return text;
}

DeviceMemoryBudget parse_device_memory_budget(std::string_view text) {
  DeviceMemoryBudget budget;
  if (trim(text).find('=') == std::string_view::npos) {
    budget.every = parse_size(trim(text));
    return budget;
  }
  for (std::string_view rest = text; !rest.empty();) {
    const std::size_t comma = rest.find(',');
    const std::string_view part = trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const std::size_t equals = part.find('=');
    if (equals == std::string_view::npos) {
      throw std::invalid_argument(quoted(part) + " names no device: write ORDINAL=SIZE, as in 0=16GiB,1=24GiB");
    }
    const int ordinal = parse_ordinal(trim(part.substr(0, equals)));
    if (!budget.by_device.emplace(ordinal, parse_size(trim(part.substr(equals + 1)))).second) {
      throw std::invalid_argument("device " + std::to_string(ordinal) + " is given two sizes");
    }
  }
  return budget;
}

}  // namespace zkpipe::formats
