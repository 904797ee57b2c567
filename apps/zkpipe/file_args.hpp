// Checks on the files named by a command's arguments, before any work is done.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace zkpipe::cli {

// Throws std::invalid_argument when an output names an input (the same file by any
// path, hard links included) or two outputs name the same file: a proof written over
// its key would destroy the key. Files that do not exist yet are compared by their
// absolute, normalized paths (x.json and ./x.json are one file). Empty names are skipped.
void refuse_overwriting_inputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs);

// Why `name` cannot be written, or "": an empty name, a directory, a directory that
// does not exist, an existing file that is not a regular one, or a directory that
// does not take a new file (tried: a probe file is created and removed there).
std::string output_problem(const std::string& name);

// For an option that names a file to write: output_problem when the command line is
// parsed, so that no work is done (and no `.partial` file written) for an output that
// cannot be written.
CLI::Validator output_file();

}  // namespace zkpipe::cli
