// Poseidon outside the circuit, as Filecoin computes it (neptune's Poseidon::hash,
// filecoin-hashers' PoseidonFunction): the state is (domain tag, preimage…), zero
// padded to the width, permuted; the digest is the first cell after the tag.
#pragma once

#include <span>

#include "circuits/filecoin/hashers/poseidon_constants.hpp"

namespace zkpipe::filecoin::hashers::poseidon {

// neptune HashType::MerkleTree: 2^arity − 1. The tag of every Filecoin tree node,
// column hash (hash_single_column) and hash2.
Fr merkle_tree_tag(std::size_t arity);

// neptune HashType::ConstantLength(length): length·2^64, independent of the arity.
Fr constant_length_tag(std::size_t length);

// One permutation of (tag, preimage, 0…); preimage.size() ≤ arity.
Fr hash_with_tag(const Constants& c, const Fr& tag, std::span<const Fr> preimage);

// The Merkle-tagged Standard hash of exactly preimage.size() elements, which must
// be a supported arity (filecoin-hashers' shared_hash_frs, hash2 for two elements,
// storage-proofs-porep's hash_single_column for 2 or 11).
Fr hash(std::span<const Fr> preimage);

// filecoin-hashers' PoseidonFunction::hash_md: a Merkle–Damgård chain of arity-36
// hashes, acc = H(acc, next 35 elements), starting from the first element; the
// last chunk is zero padded. Needs at least two elements.
Fr hash_md(std::span<const Fr> input);

}  // namespace zkpipe::filecoin::hashers::poseidon
