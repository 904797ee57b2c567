#include "proving/engine_budget.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "formats/byte_size.hpp"
#include "formats/excerpt.hpp"
#include "memory/process_memory.hpp"

namespace zkpipe::proving {

BudgetSpec parse_budget(std::string_view text) {
  const std::string shown = "--budget '" + formats::excerpt(text, 40) + "'";
  const std::string forms = " (auto, a byte size such as 8GiB, 8G or 1.5GiB, or Nx working sets)";
  if (text == "auto") return {};
  if (text.ends_with('x')) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size() - 1, value);
    if (error != std::errc() || end != text.data() + text.size() - 1) {
      throw std::invalid_argument("bad " + shown + ": not a number of working sets" + forms);
    }
    if (!std::isfinite(value) || value <= 0) throw std::invalid_argument("bad " + shown + ": must be a positive number");
    if (value > kMaxBudgetWorkingSets) {
      throw std::invalid_argument("bad " + shown + ": at most " + std::to_string(kMaxBudgetWorkingSets) +
                                  " working sets");
    }
    return {BudgetSpec::Kind::working_sets, value};
  }
  const std::optional<std::size_t> bytes = formats::parse_byte_size(text);
  if (!bytes) throw std::invalid_argument("bad " + shown + ": not a byte size" + forms);
  if (*bytes < kMinBudgetBytes || *bytes > kMaxBudgetBytes) {
    throw std::invalid_argument("bad " + shown + ": a byte budget must lie between 1 MiB and 1 PiB");
  }
  return {BudgetSpec::Kind::bytes, static_cast<double>(*bytes)};
}

std::size_t resolve_budget(const BudgetSpec& spec, std::size_t loaded_parameter_bytes, std::size_t working_set_bytes) {
  switch (spec.kind) {
    case BudgetSpec::Kind::automatic: {
      const std::size_t available = memory::usable_memory().bytes;
      return available == 0 ? 0 : available + loaded_parameter_bytes;
    }
    case BudgetSpec::Kind::working_sets:
      return loaded_parameter_bytes + static_cast<std::size_t>(spec.value * static_cast<double>(working_set_bytes));
    case BudgetSpec::Kind::bytes:
      return static_cast<std::size_t>(spec.value);
  }
  return 0;
}

}  // namespace zkpipe::proving
