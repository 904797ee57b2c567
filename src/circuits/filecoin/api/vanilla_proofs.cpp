#include "circuits/filecoin/api/vanilla_proofs.hpp"

#include <stdexcept>
#include <string>

#include "circuits/filecoin/api/bincode.hpp"

namespace zkpipe::filecoin::api {

namespace {

// The fewest bytes each element can take, for bounding a sequence's length before it
// is read: a path element is its two u64s, a node 32 bytes, a Merkle proof at least
// the Single variant's tag, root, leaf and empty path, a sector proof its empty list
// and two commitments, a challenge proof three Merkle proofs.
constexpr std::uint64_t kMinPathElement = 16;
constexpr std::uint64_t kMinNode = 32;
constexpr std::uint64_t kMinMerkleProof = 4 + 32 + 32 + 8;
constexpr std::uint64_t kMinSectorProof = 8 + 32 + 32;
constexpr std::uint64_t kMinChallengeProof = 3 * kMinMerkleProof;

// ProofData's variant indexes.
constexpr std::uint32_t kSingleTag = 0;
constexpr std::uint32_t kSubTag = 1;
constexpr std::uint32_t kTopTag = 2;

// InclusionPath { path: Vec<PathElement { hashes: Vec<Domain>, index: usize }> }.
MerklePath read_path(BincodeReader& r, const std::string& what) {
  MerklePath path(r.length(what + " element", kMinPathElement));
  for (std::size_t level = 0; level < path.size(); ++level) {
    const std::string at = what + " level " + std::to_string(level);
    MerklePathElement& e = path[level];
    const std::string sibling = at + " sibling";
    e.hashes.resize(r.length(sibling, kMinNode));
    for (core::NodeBytes& h : e.hashes) h = r.field_element(sibling);
    const std::uint64_t index_at = r.offset();
    e.index = r.u64(at + " index");
    if (e.index > e.hashes.size()) {
      r.fail_at(index_at, at + " index " + std::to_string(e.index) + " is not among its " +
                              std::to_string(e.hashes.size() + 1) + " children");
    }
  }
  return path;
}

MerkleProof read_merkle_proof(BincodeReader& r, const std::string& what) {
  const std::uint64_t tag_at = r.offset();
  const std::uint32_t tag = r.u32(what + " variant");
  MerkleProof p;
  if (tag == kSingleTag) {
    p.kind = MerkleProof::Kind::kSingle;
    p.root = r.field_element(what + " root");
    p.leaf = r.field_element(what + " leaf");
    p.base = read_path(r, what + " path");
    return p;
  }
  if (tag != kSubTag && tag != kTopTag) {
    r.fail_at(tag_at, what + " variant tag " + std::to_string(tag) + " is none of Single (0), Sub (1), Top (2)");
  }
  p.kind = tag == kSubTag ? MerkleProof::Kind::kSub : MerkleProof::Kind::kTop;
  p.base = read_path(r, what + " base path");
  p.sub = read_path(r, what + " sub path");
  if (p.kind == MerkleProof::Kind::kTop) p.top = read_path(r, what + " top path");
  p.root = r.field_element(what + " root");
  p.leaf = r.field_element(what + " leaf");
  return p;
}

SectorProof read_sector_proof(BincodeReader& r, const std::string& what) {
  SectorProof s;
  s.inclusion_proofs.resize(r.length(what + " inclusion proof", kMinMerkleProof));
  for (std::size_t i = 0; i < s.inclusion_proofs.size(); ++i) {
    s.inclusion_proofs[i] = read_merkle_proof(r, what + " inclusion proof " + std::to_string(i));
  }
  s.comm_c = r.field_element(what + " comm_c");
  s.comm_r_last = r.field_element(what + " comm_r_last");
  return s;
}

void write_path(BincodeWriter& w, const MerklePath& path) {
  w.length(path.size());
  for (const MerklePathElement& e : path) {
    w.length(e.hashes.size());
    for (const core::NodeBytes& h : e.hashes) w.bytes(h);
    w.u64(e.index);
  }
}

void write_merkle_proof(BincodeWriter& w, const MerkleProof& p) {
  switch (p.kind) {
    case MerkleProof::Kind::kSingle:
      if (!p.sub.empty() || !p.top.empty()) {
        throw std::invalid_argument("merkle_proof_bytes: a Single proof with sub or top levels");
      }
      w.u32(kSingleTag);
      w.bytes(p.root);
      w.bytes(p.leaf);
      write_path(w, p.base);
      return;
    case MerkleProof::Kind::kSub:
    case MerkleProof::Kind::kTop:
      if (p.kind == MerkleProof::Kind::kSub && !p.top.empty()) {
        throw std::invalid_argument("merkle_proof_bytes: a Sub proof with top levels");
      }
      w.u32(p.kind == MerkleProof::Kind::kSub ? kSubTag : kTopTag);
      write_path(w, p.base);
      write_path(w, p.sub);
      if (p.kind == MerkleProof::Kind::kTop) write_path(w, p.top);
      w.bytes(p.root);
      w.bytes(p.leaf);
      return;
  }
}

// Runs `read` over the whole blob and refuses what it leaves over.
template <class Read>
auto parse_whole(std::span<const std::uint8_t> blob, std::string_view source, Read&& read) {
  BincodeReader r(blob, std::string(source));
  auto out = read(r);
  r.expect_end();
  return out;
}

}  // namespace

MerkleProof parse_merkle_proof(std::span<const std::uint8_t> blob, std::string_view source) {
  return parse_whole(blob, source, [](BincodeReader& r) { return read_merkle_proof(r, "merkle proof"); });
}

FallbackPostSectorProof parse_post_vanilla_proof(std::span<const std::uint8_t> blob, std::string_view source) {
  return parse_whole(blob, source, [](BincodeReader& r) {
    FallbackPostSectorProof p;
    p.sector_id = r.u64("sector_id");
    p.comm_r = r.field_element("comm_r");
    p.sectors.resize(r.length("sector proof", kMinSectorProof));
    for (std::size_t i = 0; i < p.sectors.size(); ++i) p.sectors[i] = read_sector_proof(r, "sector " + std::to_string(i));
    return p;
  });
}

UpdatePartitionProof parse_update_vanilla_proof(std::span<const std::uint8_t> blob, std::string_view source) {
  return parse_whole(blob, source, [](BincodeReader& r) {
    UpdatePartitionProof p;
    p.comm_c = r.field_element("comm_c");
    p.apex_leafs.resize(r.length("apex leaf", kMinNode));
    for (core::NodeBytes& leaf : p.apex_leafs) leaf = r.field_element("apex leaf");
    p.challenge_proofs.resize(r.length("challenge proof", kMinChallengeProof));
    for (std::size_t i = 0; i < p.challenge_proofs.size(); ++i) {
      const std::string at = "challenge " + std::to_string(i);
      UpdateChallengeProof& c = p.challenge_proofs[i];
      c.proof_r_old = read_merkle_proof(r, at + " proof_r_old");
      c.proof_d_new = read_merkle_proof(r, at + " proof_d_new");
      c.proof_r_new = read_merkle_proof(r, at + " proof_r_new");
    }
    return p;
  });
}

std::vector<std::uint8_t> merkle_proof_bytes(const MerkleProof& proof) {
  BincodeWriter w;
  write_merkle_proof(w, proof);
  return w.take();
}

std::vector<std::uint8_t> post_vanilla_proof_bytes(const FallbackPostSectorProof& proof) {
  BincodeWriter w;
  w.u64(proof.sector_id);
  w.bytes(proof.comm_r);
  w.length(proof.sectors.size());
  for (const SectorProof& s : proof.sectors) {
    w.length(s.inclusion_proofs.size());
    for (const MerkleProof& p : s.inclusion_proofs) write_merkle_proof(w, p);
    w.bytes(s.comm_c);
    w.bytes(s.comm_r_last);
  }
  return w.take();
}

std::vector<std::uint8_t> update_vanilla_proof_bytes(const UpdatePartitionProof& proof) {
  BincodeWriter w;
  w.bytes(proof.comm_c);
  w.length(proof.apex_leafs.size());
  for (const core::NodeBytes& leaf : proof.apex_leafs) w.bytes(leaf);
  w.length(proof.challenge_proofs.size());
  for (const UpdateChallengeProof& c : proof.challenge_proofs) {
    write_merkle_proof(w, c.proof_r_old);
    write_merkle_proof(w, c.proof_d_new);
    write_merkle_proof(w, c.proof_r_new);
  }
  return w.take();
}

}  // namespace zkpipe::filecoin::api
