// Checks on the files named by a command's arguments, before any work is done.
#pragma once

#include <string>
#include <vector>

namespace zkpipe::cli {

// Throws std::invalid_argument when an output names an input (the same file by any
// path, hard links included) or two outputs name the same file: a proof written over
// its key would destroy the key. Empty names are skipped.
void refuse_overwriting_inputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs);

}  // namespace zkpipe::cli
