// The memory budget every proving command takes (--budget, and the daemon's budget
// key as bytes): "auto" (what the process may take now), a byte size, or "Nx" (the
// parameters plus N partition working sets), resolved into the engine's budget_bytes.
#pragma once

#include <cstddef>
#include <string_view>

namespace zkpipe::proving {

struct BudgetSpec {
  enum class Kind { automatic, bytes, working_sets };
  Kind kind = Kind::automatic;
  double value = 0;
};
inline constexpr std::size_t kMinBudgetBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxBudgetBytes = std::size_t{1} << 50;
inline constexpr double kMaxBudgetWorkingSets = 1e6;

// Throws std::invalid_argument naming the problem: not a number, not finite or not
// positive, an unknown suffix, bytes outside [1 MiB, 1 PiB], more than 10^6 sets.
BudgetSpec parse_budget(std::string_view text);

// The engine's budget_bytes (0: the engine's own default, what the process may take).
// loaded_parameter_bytes: keys and evaluators already in this process's memory, which
// the engine charges again when it makes them resident (so auto adds them to what is
// available); working_set_bytes: one partition's working set (for Nx).
std::size_t resolve_budget(const BudgetSpec& spec, std::size_t loaded_parameter_bytes, std::size_t working_set_bytes);

}  // namespace zkpipe::proving
