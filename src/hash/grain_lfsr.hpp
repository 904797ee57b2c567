// The Grain LFSR in self-shrinking mode, as the Poseidon paper (Appendix E) and its
// reference script generate_parameters_grain.sage use it to derive round constants
// and MDS matrices from the instance parameters ("nothing up my sleeve").
#pragma once

#include <array>
#include <cstdint>

#include "ff/fr.hpp"

namespace zkpipe::hash::poseidon {

class GrainLfsr {
 public:
  // What the seed's 4-bit S-box field holds. The paper's script writes 0 for x^α;
  // neptune (Filecoin's Poseidon) writes 1 for its x^5 S-box, so its constants are
  // a different stream.
  static constexpr unsigned kSboxPaper = 0;
  static constexpr unsigned kSboxNeptune = 1;

  // Seeds the 80-bit state with: field type (2 bits, 1 = prime field), S-box
  // (4 bits), field size n (12), width t (12), R_F (10), R_P (10), then thirty 1s;
  // the first 160 bits are discarded.
  GrainLfsr(unsigned field_bits, unsigned t, unsigned full_rounds, unsigned partial_rounds,
            unsigned sbox_field = kSboxPaper);

  // The next output bit: bits are drawn in pairs and the second one is output only
  // when the first is 1.
  bool next_bit();

  // An n-bit integer, most significant bit first, kept only if below r (the
  // reference's sampling of round constants).
  ff::Fr next_fr_rejection_sampled();

  // An n-bit integer, most significant bit first, reduced mod r (the reference's
  // sampling of the Cauchy matrix points).
  ff::Fr next_fr_reduced();

 private:
  bool step();
  ff::Limbs<4> next_integer();

  std::array<std::uint8_t, 80> state_{};
  unsigned head_ = 0;  // state_[head_] is the oldest bit, b_i in the paper's recurrence
  unsigned field_bits_;
};

}  // namespace zkpipe::hash::poseidon
