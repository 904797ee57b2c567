#include "circuits/filecoin/api/vanilla_merkle.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace zkpipe::filecoin::api {

namespace {

std::string shape_name(const core::TreeShape& s) {
  return std::to_string(s.base) + "-" + std::to_string(s.sub) + "-" + std::to_string(s.top);
}

void check_levels(const MerklePath& path, const char* what, std::size_t levels, std::size_t arity) {
  if (path.size() != levels) {
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(path.size()) + " levels, " +
                                std::to_string(levels) + " expected");
  }
  for (std::size_t l = 0; l < levels; ++l) {
    const MerklePathElement& e = path[l];
    if (e.hashes.size() != arity - 1) {
      throw std::invalid_argument(std::string(what) + " level " + std::to_string(l) + " has " +
                                  std::to_string(e.hashes.size()) + " siblings, arity " + std::to_string(arity) +
                                  " takes " + std::to_string(arity - 1));
    }
    if (e.index >= arity) {
      throw std::invalid_argument(std::string(what) + " level " + std::to_string(l) + " index " +
                                  std::to_string(e.index) + " is not below the arity " + std::to_string(arity));
    }
  }
}

void append_levels(core::PoseidonPath& out, const MerklePath& levels) {
  for (const MerklePathElement& e : levels) {
    core::PathElement level{{}, static_cast<std::size_t>(e.index)};
    for (const core::NodeBytes& h : e.hashes) level.hashes.push_back(hashers::domain_to_fr(h));
    out.push_back(std::move(level));
  }
}

MerklePathElement element_of(const core::PathElement& e) {
  MerklePathElement out{{}, e.index};
  for (const Fr& h : e.hashes) out.hashes.push_back(hashers::fr_to_domain(h));
  return out;
}

}  // namespace

MerkleProof::Kind merkle_proof_kind(const core::TreeShape& shape) {
  return shape.top != 0 ? MerkleProof::Kind::kTop : shape.sub != 0 ? MerkleProof::Kind::kSub : MerkleProof::Kind::kSingle;
}

void check_merkle_proof_shape(const MerkleProof& proof, std::uint64_t leaves, const core::TreeShape& shape) {
  const MerkleProof::Kind kind = merkle_proof_kind(shape);
  if (proof.kind != kind) {
    throw std::invalid_argument(std::string("a ") + merkle_proof_kind_name(proof.kind) + " proof, the tree " +
                                shape_name(shape) + " of this sector size takes " + merkle_proof_kind_name(kind));
  }
  const std::vector<std::size_t> arities = core::path_arities(leaves, shape);
  const std::size_t upper = (shape.sub != 0 ? 1 : 0) + (shape.top != 0 ? 1 : 0);
  check_levels(proof.base, "its base path", arities.size() - upper, shape.base);
  check_levels(proof.sub, "its sub path", shape.sub != 0 ? 1 : 0, shape.sub);
  check_levels(proof.top, "its top path", shape.top != 0 ? 1 : 0, shape.top);
}

core::PoseidonPath merkle_proof_path(const MerkleProof& proof) {
  core::PoseidonPath path;
  append_levels(path, proof.base);
  append_levels(path, proof.sub);
  append_levels(path, proof.top);
  return path;
}

MerkleProof merkle_proof_from_path(const Fr& root, const Fr& leaf, const core::PoseidonPath& path,
                                   const core::TreeShape& shape) {
  const std::size_t upper = (shape.sub != 0 ? 1 : 0) + (shape.top != 0 ? 1 : 0);
  if (path.size() < upper) throw std::invalid_argument("merkle_proof_from_path: a path shorter than the tree's layers");
  const std::size_t base_levels = path.size() - upper;
  MerkleProof out;
  out.kind = merkle_proof_kind(shape);
  out.root = hashers::fr_to_domain(root);
  out.leaf = hashers::fr_to_domain(leaf);
  for (std::size_t l = 0; l < path.size(); ++l) {
    MerklePath& into = l < base_levels ? out.base : (l == base_levels && shape.sub != 0) ? out.sub : out.top;
    into.push_back(element_of(path[l]));
  }
  return out;
}

}  // namespace zkpipe::filecoin::api
