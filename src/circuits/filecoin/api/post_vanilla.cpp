#include "circuits/filecoin/api/post_vanilla.hpp"

#include <tbb/parallel_for.h>

#include <stdexcept>
#include <string>

#include "circuits/filecoin/api/vanilla_merkle.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"

namespace zkpipe::filecoin::api {

namespace {

std::string proof_name(std::size_t i) { return "vanilla proof " + std::to_string(i); }

// Challenges in one vanilla sector proof: Winning PoSt's sector holds all 66 of the
// circuit's one-challenge sectors.
std::size_t vanilla_challenges(const post::PostProof& proof) {
  return proof.kind == post::PostKind::kWinning ? proof.sector_count : proof.challenge_count;
}

Fr comm_r_of(const Fr& comm_c, const Fr& comm_r_last) {
  const Fr children[] = {comm_c, comm_r_last};
  return hashers::poseidon::hash(children);
}

// One vanilla proof as a circuit sector with all its challenges.
post::PostSector sector_of(const post::PostProof& proof, const FallbackPostSectorProof& vanilla) {
  if (vanilla.sectors.size() != 1) {
    throw std::invalid_argument("holds " + std::to_string(vanilla.sectors.size()) +
                                " sector proofs; filecoin-proofs writes one a sector");
  }
  const SectorProof& s = vanilla.sectors[0];
  const std::size_t challenges = vanilla_challenges(proof);
  if (s.inclusion_proofs.size() != challenges) {
    throw std::invalid_argument(std::to_string(s.inclusion_proofs.size()) + " inclusion proofs, " + proof.name() +
                                " challenges a sector " + std::to_string(challenges) + " times");
  }
  post::PostSector out;
  out.comm_c = hashers::domain_to_fr(s.comm_c);
  out.comm_r_last = hashers::domain_to_fr(s.comm_r_last);
  out.comm_r = hashers::domain_to_fr(vanilla.comm_r);
  if (out.comm_r != comm_r_of(out.comm_c, out.comm_r_last)) {
    throw std::invalid_argument("comm_r is not Poseidon(comm_c, comm_r_last)");
  }
  const core::TreeShape shape = proof.tree_shape();
  for (std::size_t n = 0; n < challenges; ++n) {
    const MerkleProof& p = s.inclusion_proofs[n];
    try {
      check_merkle_proof_shape(p, proof.leaves(), shape);
      if (p.root != s.comm_r_last) throw std::invalid_argument("its root is not the sector's comm_r_last");
      post::PostChallenge c{p.leaf_index(shape.base, shape.sub), hashers::domain_to_fr(p.leaf), merkle_proof_path(p)};
      if (core::root_from_path(c.leaf, c.path) != out.comm_r_last) {
        throw std::invalid_argument("its path does not lead from its leaf to comm_r_last");
      }
      out.challenges.push_back(std::move(c));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("challenge " + std::to_string(n) + ": " + e.what());
    }
  }
  return out;
}

}  // namespace

post::PostPartition post_partition_from_vanilla(const post::PostProof& proof,
                                                std::span<const FallbackPostSectorProof> vanilla) {
  const bool winning = proof.kind == post::PostKind::kWinning;
  if (vanilla.empty()) throw std::invalid_argument(proof.name() + ": no vanilla proofs");
  if (winning && vanilla.size() != 1) {
    throw std::invalid_argument(proof.name() + ": " + std::to_string(vanilla.size()) +
                                " vanilla proofs, Winning PoSt proves one sector");
  }
  if (!winning && vanilla.size() > proof.sector_count) {
    throw std::invalid_argument(proof.name() + ": " + std::to_string(vanilla.size()) +
                                " vanilla proofs, more sectors than a partition's " +
                                std::to_string(proof.sector_count));
  }
  // A 32 GiB partition's 23,490 paths are some 235,000 Poseidon hashes: checked in
  // parallel, the first failing proof reported.
  std::vector<post::PostSector> sectors(vanilla.size());
  std::vector<std::string> errors(vanilla.size());
  tbb::parallel_for(std::size_t{0}, vanilla.size(), [&](std::size_t i) {
    try {
      sectors[i] = sector_of(proof, vanilla[i]);
    } catch (const std::invalid_argument& e) {
      errors[i] = proof_name(i) + " (sector " + std::to_string(vanilla[i].sector_id) + "): " + e.what();
    }
  });
  for (const std::string& e : errors) {
    if (!e.empty()) throw std::invalid_argument(proof.name() + ": " + e);
  }
  post::PostPartition out;
  if (winning) {
    const post::PostSector& whole = sectors[0];
    for (const post::PostChallenge& c : whole.challenges) {
      out.sectors.push_back(post::PostSector{whole.comm_r, whole.comm_c, whole.comm_r_last, {c}});
    }
    return out;
  }
  out.sectors = std::move(sectors);
  out.sectors.resize(proof.sector_count, out.sectors.back());
  return out;
}

post::PostPartition post_partition_from_bytes(const post::PostProof& proof,
                                              std::span<const std::vector<std::uint8_t>> blobs) {
  std::vector<FallbackPostSectorProof> vanilla;
  vanilla.reserve(blobs.size());
  for (std::size_t i = 0; i < blobs.size(); ++i) vanilla.push_back(parse_post_vanilla_proof(blobs[i], proof_name(i)));
  return post_partition_from_vanilla(proof, vanilla);
}

void check_post_challenges(const post::PostProof& proof, std::span<const FallbackPostSectorProof> vanilla,
                           const post::PostRandomness& randomness, core::ApiVersion api, std::size_t partition) {
  const core::TreeShape shape = proof.tree_shape();
  const std::size_t challenges = vanilla_challenges(proof);
  for (std::size_t i = 0; i < vanilla.size(); ++i) {
    const std::uint64_t sector_index = partition * proof.sector_count + i;
    std::size_t n = 0;
    for (const SectorProof& s : vanilla[i].sectors) {
      for (const MerkleProof& p : s.inclusion_proofs) {
        const std::uint64_t expected =
            post::post_leaf_challenge(randomness, vanilla[i].sector_id,
                                      post::post_challenge_index(api, sector_index, challenges, n), proof.leaves());
        const std::uint64_t proven = p.leaf_index(shape.base, shape.sub);
        if (proven != expected) {
          throw std::invalid_argument(proof.name() + ": " + proof_name(i) + " (sector " +
                                      std::to_string(vanilla[i].sector_id) + "): challenge " + std::to_string(n) +
                                      " proves leaf " + std::to_string(proven) + ", the randomness draws leaf " +
                                      std::to_string(expected));
        }
        ++n;
      }
    }
  }
}

std::vector<FallbackPostSectorProof> post_vanilla_proofs(const post::PostProof& proof,
                                                         const post::PostPartition& partition,
                                                         std::span<const std::uint64_t> sector_ids) {
  const core::TreeShape shape = proof.tree_shape();
  auto sector_proof = [&](const post::PostSector& sector, SectorProof& into) {
    for (const post::PostChallenge& c : sector.challenges) {
      into.inclusion_proofs.push_back(merkle_proof_from_path(sector.comm_r_last, c.leaf, c.path, shape));
    }
  };
  auto vanilla_of = [&](const post::PostSector& sector, std::uint64_t id) {
    return FallbackPostSectorProof{
        id,
        hashers::fr_to_domain(sector.comm_r),
        {SectorProof{{}, hashers::fr_to_domain(sector.comm_c), hashers::fr_to_domain(sector.comm_r_last)}}};
  };
  const bool winning = proof.kind == post::PostKind::kWinning;
  const std::size_t ids = winning ? 1 : partition.sectors.size();
  if (partition.sectors.empty() || sector_ids.size() != ids) {
    throw std::invalid_argument(proof.name() + ": " + std::to_string(sector_ids.size()) + " sector ids for " +
                                std::to_string(ids) + " vanilla proofs of a partition of " +
                                std::to_string(partition.sectors.size()) + " sectors");
  }
  std::vector<FallbackPostSectorProof> out;
  if (winning) {
    const post::PostSector& first = partition.sectors[0];
    out.push_back(vanilla_of(first, sector_ids[0]));
    for (const post::PostSector& s : partition.sectors) {
      if (s.comm_r != first.comm_r || s.comm_c != first.comm_c || s.comm_r_last != first.comm_r_last) {
        throw std::invalid_argument(proof.name() + ": a Winning PoSt partition whose sectors differ");
      }
      sector_proof(s, out[0].sectors[0]);
    }
    return out;
  }
  for (std::size_t i = 0; i < partition.sectors.size(); ++i) {
    out.push_back(vanilla_of(partition.sectors[i], sector_ids[i]));
    sector_proof(partition.sectors[i], out.back().sectors[0]);
  }
  return out;
}

}  // namespace zkpipe::filecoin::api
