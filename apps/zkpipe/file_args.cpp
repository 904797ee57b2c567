#include "file_args.hpp"

#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace zkpipe::cli {

namespace {

namespace fs = std::filesystem;

// The path a name stands for, symbolic links in its existing part followed: relative
// to the working directory, so that "x.json" and "./x.json" compare equal before either exists.
fs::path normalized(const std::string& name, std::error_code& ec) {
  const fs::path absolute = fs::absolute(name, ec);
  return ec ? fs::path() : fs::weakly_canonical(absolute, ec);
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec)) return true;
  std::error_code ec_b;
  const fs::path na = normalized(a, ec);
  return !ec && na == normalized(b, ec_b) && !ec_b;
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

CLI::Validator output_file() {
  return CLI::Validator(
      [](const std::string& name) -> std::string {
        if (name.empty()) return "an empty name: expected a file to write";
        std::error_code ec;
        if (fs::is_directory(name, ec) || name.back() == '/') return name + " names a directory: expected a file to write";
        return {};
      },
      "FILE");
}

}  // namespace zkpipe::cli
