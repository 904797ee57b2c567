#include "gpu/architectures.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace zkpipe::gpu {

namespace {

std::string capability(int major, int minor) { return std::to_string(major) + std::to_string(minor); }

CodeTarget parse_entry(std::string_view entry) {
  std::string_view number = entry;
  bool real = true;
  bool virt = true;
  if (const auto dash = entry.find('-'); dash != std::string_view::npos) {
    const std::string_view kind = entry.substr(dash + 1);
    number = entry.substr(0, dash);
    if (kind == "real") {
      virt = false;
    } else if (kind == "virtual") {
      real = false;
    } else {
      throw std::invalid_argument("CUDA architecture '" + std::string(entry) + "': expected -real or -virtual after " +
                                  std::string(number));
    }
  }
  CodeTarget t;
  t.machine_code = real;
  t.ptx = virt;
  if (!number.empty() && number.back() == 'a') {
    t.arch_specific = true;
    number.remove_suffix(1);
  }
  int value = 0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (error != std::errc{} || end != number.data() + number.size() || value < 10) {
    throw std::invalid_argument("CUDA architecture '" + std::string(entry) +
                                "': expected a compute capability such as 86, 90a-real or 120-virtual");
  }
  t.major = value / 10;
  t.minor = value % 10;
  return t;
}

}  // namespace

std::string CodeTarget::describe() const {
  const std::string cc = capability(major, minor) + (arch_specific ? "a" : "");
  if (machine_code && ptx) return "sm_" + cc + " + PTX";
  if (machine_code) return "sm_" + cc;
  return "PTX compute_" + cc;
}

std::vector<CodeTarget> parse_architectures(std::string_view cmake_list) {
  std::vector<CodeTarget> out;
  while (!cmake_list.empty()) {
    const auto sep = cmake_list.find_first_of(";,");
    const std::string_view entry = cmake_list.substr(0, sep);
    if (!entry.empty()) out.push_back(parse_entry(entry));
    if (sep == std::string_view::npos) break;
    cmake_list.remove_prefix(sep + 1);
  }
  std::sort(out.begin(), out.end(), [](const CodeTarget& a, const CodeTarget& b) {
    return a.major != b.major ? a.major < b.major : a.minor < b.minor;
  });
  return out;
}

const std::vector<CodeTarget>& built_architectures() {
#ifdef ZKPIPE_CUDA_ARCHITECTURES
  static const std::vector<CodeTarget> targets = parse_architectures(ZKPIPE_CUDA_ARCHITECTURES);
#else
  static const std::vector<CodeTarget> targets;
#endif
  return targets;
}

std::optional<CodeTarget> target_for(const std::vector<CodeTarget>& targets, int major, int minor) {
  std::optional<CodeTarget> sass;
  std::optional<CodeTarget> ptx;
  for (const CodeTarget& t : targets) {
    const bool exact = t.major == major && t.minor == minor;
    if (t.machine_code && (t.arch_specific ? exact : t.major == major && t.minor <= minor)) {
      if (!sass || t.minor > sass->minor) {
        sass = t;
        sass->ptx = false;
      }
    }
    const bool older = t.major < major || (t.major == major && t.minor <= minor);
    if (t.ptx && (t.arch_specific ? exact : older)) {
      if (!ptx || t.major > ptx->major || (t.major == ptx->major && t.minor > ptx->minor)) {
        ptx = t;
        ptx->machine_code = false;
      }
    }
  }
  if (sass) return sass;
  return ptx;
}

std::string describe_targets(const std::vector<CodeTarget>& targets) {
  if (targets.empty()) return "none";
  std::string out;
  for (const CodeTarget& t : targets) out += (out.empty() ? "" : ", ") + t.describe();
  return out;
}

std::string no_code_message(int major, int minor, const std::vector<CodeTarget>& targets) {
  const std::string cc = capability(major, minor);
  return "this build has no GPU code for compute capability " + std::to_string(major) + "." + std::to_string(minor) +
         " (it carries " + describe_targets(targets) + "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + cc +
         "-real (or native on this machine, or add " + cc + "-real to the list)";
}

}  // namespace zkpipe::gpu
