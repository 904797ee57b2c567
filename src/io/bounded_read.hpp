// Whole-file reads of the small files a user names on the command line or in a
// request (proofs, public inputs, verification keys): refused before a byte is read
// when the file is not a regular one (a FIFO would block forever, /dev/zero would
// never end) or is larger than the caller's bound, so that no input can make the
// reader hang or take unbounded memory.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace zkpipe::io {

// The file's bytes. Throws FileError naming the file: cannot open, not a regular file,
// "<n> bytes, more than the <max_bytes> a <what> can hold", or one that grew while read.
std::string read_bounded_file(const std::filesystem::path& path, std::size_t max_bytes, const std::string& what);

}  // namespace zkpipe::io
