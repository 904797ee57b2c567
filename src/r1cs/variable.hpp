// A variable of a rank-1 constraint system: either a public input or a private
// (auxiliary) witness value. Packed into 32 bits because the CSR matrices hold one
// per non-zero entry, and a 2^27-constraint partition has billions of them.
#pragma once

#include <compare>
#include <cstdint>

namespace zkpipe::r1cs {

class Variable {
 public:
  enum class Kind : std::uint8_t { kInput, kAux };

  static constexpr std::uint32_t kMaxIndex = (std::uint32_t{1} << 31) - 1;

  constexpr Variable() = default;

  static constexpr Variable input(std::uint32_t index) { return Variable(index); }
  static constexpr Variable aux(std::uint32_t index) { return Variable(index | kAuxFlag); }

  // The constant 1 is always public input 0.
  static constexpr Variable one() { return input(0); }

  constexpr Kind kind() const { return (raw_ & kAuxFlag) ? Kind::kAux : Kind::kInput; }
  constexpr bool is_aux() const { return (raw_ & kAuxFlag) != 0; }
  constexpr bool is_input() const { return !is_aux(); }
  constexpr std::uint32_t index() const { return raw_ & ~kAuxFlag; }

  // Inputs order before aux variables; the full assignment z is inputs ‖ aux.
  constexpr auto operator<=>(const Variable&) const = default;

 private:
  static constexpr std::uint32_t kAuxFlag = std::uint32_t{1} << 31;

  constexpr explicit Variable(std::uint32_t raw) : raw_(raw) {}

  std::uint32_t raw_ = 0;
};

}  // namespace zkpipe::r1cs
