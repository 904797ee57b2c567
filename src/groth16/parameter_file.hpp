// zkpipe's native parameter (proving key) file, built to be memory-mapped and used
// in place: a fixed header, a section table, then page-aligned sections holding the
// points exactly as they lie in memory (Montgomery-form limbs, little-endian,
// x86-64), each with an xxHash64 checksum.
//
//   offset 0    Header        magic "ZKPIPEPK", version, curve, point sizes, counts
//   …           SectionEntry  × kSectionCount: id, offset, bytes, xxh64
//   4096·k      sections      vk_points, ic, density, a, b_g1, b_g2, h, l
//
// Loading maps the file read-only and hands out spans into the mapping; nothing is
// copied. Every check names the section and offset it failed at. The file must not
// change while a key views it: io/file_mapping.hpp says how a change is noticed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "groth16/keys.hpp"
#include "io/file_mapping.hpp"

namespace zkpipe::groth16 {

class ParameterFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LoadOptions {
  // Hashing a 2^27-constraint key reads ~70 GiB; callers that just wrote or
  // already checked the file may skip it.
  bool verify_checksums = true;
  // Every point of the bulk queries well formed (stored_points.hpp), on all cores.
  // The verifying key's points are checked (curve, subgroup, never infinity where
  // that would let forged proofs verify) whatever this says.
  bool check_points = true;
  // A verifying key that lets proofs be forged (key_validation.hpp) only with kAllow.
  InsecureKey insecure_key = InsecureKey::kRefuse;
};

// Streams the key to `path` through io::AtomicFile: readers see the old file or the
// whole new one, on disk. Throws ParameterFileError naming the file on an I/O failure.
// subgroup_checked: whether the key's points are known to lie in the prime-order
// subgroup (set up here, or read with the check).
void write_parameter_file(const std::filesystem::path& path, const ProvingKey& key, bool subgroup_checked = true);

// A bulk query produced in order for a key that is never whole in memory (a
// bellperson .params converted chunk by chunk): it calls `put` with consecutive runs
// of its points, `count` in all.
template <class T>
struct QueryProducer {
  using PointType = T;
  std::uint64_t count = 0;
  std::function<void(const std::function<void(std::span<const T>)>& put)> produce;
};

struct StreamedKey {
  // Whether every point of the bulk queries was checked to lie in the prime-order
  // subgroup before it was written (a bellperson .params converted without the
  // check: false). Recorded in the file: points_subgroup_checked reads it back.
  bool subgroup_checked = false;
  VerifyingKey vk;
  QueryDensity density;
  HQuery h_query = HQuery::kMonomial;
  QueryProducer<G1Affine> a;
  QueryProducer<G1Affine> b_g1;
  QueryProducer<G2Affine> b_g2;
  QueryProducer<G1Affine> h;
  QueryProducer<G1Affine> l;
};

// The same file from producers, holding one run of points at a time; the header and
// its checksums are written last. A producer that puts more or fewer points than its
// count is a ParameterFileError naming the query (nothing is left at `path`).
void write_parameter_file(const std::filesystem::path& path, const StreamedKey& key);

// Whether the file (loaded once without error) records every bulk query's points as
// checked in the prime-order subgroup when written: false for a bellperson .params
// converted with --no-subgroup-check, whose points a checking run must not trust.
bool points_subgroup_checked(const io::FileMapping& mapping);

// Whether `path` begins as a zkpipe parameter file does (its magic), sound or not:
// what may be replaced as a damaged one. False for a file that cannot be read.
bool is_parameter_file(const std::filesystem::path& path);

// Throws ParameterFileError naming the file, section and offset of the first problem.
ProvingKey load_parameter_file(const std::filesystem::path& path, const LoadOptions& options = {});
// The same from a mapping the caller keeps, to ask it afterwards whether the file
// changed under the key's points (io::FileMapping::change, damage).
ProvingKey load_parameter_file(const std::shared_ptr<const io::FileMapping>& mapping,
                               const LoadOptions& options = {});

}  // namespace zkpipe::groth16
