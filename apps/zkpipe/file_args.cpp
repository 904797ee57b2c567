#include "file_args.hpp"

#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace zkpipe::cli {

namespace {

namespace fs = std::filesystem;

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec)) return true;
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec) && !ec;
}

}  // namespace

void refuse_overwriting_inputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].empty()) continue;
    for (const std::string& in : inputs) {
      if (!in.empty() && same_file(outputs[i], in)) {
        throw std::invalid_argument("refusing to write " + outputs[i] + ": it is the input file " + in);
      }
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (!outputs[j].empty() && same_file(outputs[i], outputs[j])) {
        throw std::invalid_argument("two outputs name the same file: " + outputs[j] + " and " + outputs[i]);
      }
    }
  }
}

}  // namespace zkpipe::cli
