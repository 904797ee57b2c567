// Filecoin's Poseidon in a circuit: neptune's circuit::poseidon_hash, the gadget
// filecoin-hashers (hash2, tree nodes, hash_md) and storage-proofs-porep
// (hash_single_column) synthesize. Same variables in the same order, same
// constraints in the same order, so that the R1CS is the one Filecoin's parameters
// were generated for:
//  - the tag cell's first S-box is computed natively (a constant);
//  - each other S-box is x² (one constraint), x⁴, and x⁵ plus the next compressed
//    round constant; in the first round the round constant is folded into the
//    first and last of them, since the inputs are already variables;
//  - an S-box whose input is a linear combination first allocates it (one more
//    constraint, lc·1 = x);
//  - linear layers are free: the full MDS in full rounds, neptune's pre-sparse
//    matrix before and its sparse factors in the partial rounds;
//  - the digest (the second cell) is allocated at the end (one constraint).
// So 3·arity + 4·(t·(R_F − 1) + R_P) + 1 constraints: 311 for arity 2, 377 for 4,
// 505 for 8, 598 for 11.
#pragma once

#include <span>

#include "circuits/filecoin/hashers/poseidon_constants.hpp"
#include "gadgets/num.hpp"

namespace zkpipe::filecoin::hashers::poseidon {

using gadgets::AllocatedNum;
using r1cs::ConstraintSystem;

// The Merkle-tagged hash of exactly c.arity() variables.
AllocatedNum hash(ConstraintSystem& cs, const Constants& c, std::span<const AllocatedNum> preimage);

// The same with another domain tag in the first cell (a custom hash type's, as
// storage-proofs-update's randomness hash), the same constraints.
AllocatedNum hash_with_tag(ConstraintSystem& cs, const Constants& c, const Fr& tag,
                           std::span<const AllocatedNum> preimage);

// With the Standard instance of arity preimage.size().
AllocatedNum hash(ConstraintSystem& cs, std::span<const AllocatedNum> preimage);

// filecoin-hashers' hash_md_circuit: the arity-36 chain, the last chunk padded with
// newly allocated (unconstrained) zeros.
AllocatedNum hash_md(ConstraintSystem& cs, std::span<const AllocatedNum> elements);

// What hash(cs, c, …) adds to a system.
std::size_t hash_constraint_count(const Constants& c);

}  // namespace zkpipe::filecoin::hashers::poseidon
