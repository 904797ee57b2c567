// circom's .wtns (version 2): the full assignment w[0..nWitness) over BLS12-381's Fr,
// w[0] = 1, in the wire order of the circuit's .r1cs.
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "ff/fr.hpp"
#include "io/read_only_file.hpp"

namespace zkpipe::formats {

// Throws FormatError for a malformed file, a prime other than r, a value not below r,
// or w[0] ≠ 1.
std::vector<ff::Fr> read_wtns(const std::filesystem::path& path);
// The same for a file already open (a job's, opened when it was checked).
std::vector<ff::Fr> read_wtns(std::shared_ptr<const io::ReadOnlyFile> file);

}  // namespace zkpipe::formats
