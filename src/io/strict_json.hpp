// One policy for every JSON file and request zkpipe reads from outside (sector.json,
// a C2 input's wrapper, snarkjs files): a key given twice in one object is refused —
// serde_json, which the Filecoin tools use, refuses it, where nlohmann keeps the last
// one, so a file whose first comm_r is wrong would pass for its second — and the
// nesting depth and the members of an object are bounded while parsing (linear
// time, bounded stack). The C1 output's reader applies the same rules in its own
// streaming parse.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

namespace zkpipe::io {

struct JsonLimits {
  int max_depth = 64;
  std::size_t max_members = 4096;  // of one object
};

// Why a text breaks the policy or is not JSON: the problem and where (a byte offset
// or the key). The caller adds the file's name.
class StrictJsonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class Json = nlohmann::json>
Json parse_strict_json(std::string_view text, const JsonLimits& limits = {});

extern template nlohmann::json parse_strict_json<nlohmann::json>(std::string_view, const JsonLimits&);
extern template nlohmann::ordered_json parse_strict_json<nlohmann::ordered_json>(std::string_view, const JsonLimits&);

}  // namespace zkpipe::io
