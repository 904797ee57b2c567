#include "io/strict_json.hpp"

#include <set>
#include <string>
#include <vector>

namespace zkpipe::io {

namespace {

// Input as an error shows it: a 100 MB key (or the token nlohmann's parse error
// quotes) must not become a 100 MB message.
std::string shown(std::string_view text, std::size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  return std::string(text.substr(0, max_chars)) + "… (" + std::to_string(text.size() - max_chars) +
         " more characters)";
}

}  // namespace

template <class Json>
Json parse_strict_json(std::string_view text, const JsonLimits& limits) {
  // The keys of each object open at the moment, innermost last.
  std::vector<std::set<std::string>> keys;
  auto check = [&](int depth, typename Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start:
        if (depth >= limits.max_depth) {
          throw StrictJsonError("JSON nested deeper than " + std::to_string(limits.max_depth) + " levels");
        }
        if (event == Json::parse_event_t::object_start) keys.emplace_back();
        break;
      case Json::parse_event_t::key: {
        std::set<std::string>& seen = keys.back();
        const std::string& key = parsed.template get_ref<const std::string&>();
        if (!seen.insert(key).second) throw StrictJsonError("key \"" + shown(key, 64) + "\" given twice in one object");
        if (seen.size() > limits.max_members) {
          throw StrictJsonError("a JSON object with more than " + std::to_string(limits.max_members) + " members");
        }
        break;
      }
      case Json::parse_event_t::object_end:
        keys.pop_back();
        break;
      default:
        break;
    }
    return true;
  };
  try {
    return Json::parse(text.begin(), text.end(), check);
  } catch (const typename Json::exception& e) {
    // parse_error, and out_of_range for a number beyond a double (1e400).
    throw StrictJsonError("not valid JSON: " + shown(e.what(), 300));
  }
}

template nlohmann::json parse_strict_json<nlohmann::json>(std::string_view, const JsonLimits&);
template nlohmann::ordered_json parse_strict_json<nlohmann::ordered_json>(std::string_view, const JsonLimits&);

}  // namespace zkpipe::io
