// Whole-file reads and writes for the files a user names on the command line or in
// a request. Reads refuse anything but a regular file (a FIFO would block forever,
// /dev/zero would never end) and anything larger than the caller's bound, before
// reading a byte of it; writes go through a temporary file renamed into place, so
// that a reader never sees half a file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace zkpipe::formats {

// The file's bytes. Throws FormatError naming the file: cannot open, not a regular
// file, or "<n> bytes, more than the <max_bytes> a <what> can hold".
std::string read_bounded_file(const std::filesystem::path& path, std::size_t max_bytes, const std::string& what);

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

// At most `max_chars` of `text`, with the number of characters left out: for echoing
// untrusted values in error messages.
std::string excerpt(std::string_view text, std::size_t max_chars = 64);

}  // namespace zkpipe::formats
