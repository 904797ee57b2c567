// The JSON policy every input shares: duplicate keys, depth and members refused while
// parsing, errors that name the problem and stay short.
#include <gtest/gtest.h>

#include <string>

#include "io/strict_json.hpp"

namespace zkpipe::io {
namespace {

std::string refusal(const std::string& text, const JsonLimits& limits = {}) {
  try {
    parse_strict_json(text, limits);
  } catch (const StrictJsonError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(StrictJson, ParsesWhatThePolicyAllows) {
  const nlohmann::json j = parse_strict_json(R"({"a": [1, {"b": 2}], "c": {"a": 3}})");
  EXPECT_EQ(j["a"][1]["b"], 2);
  EXPECT_EQ(j["c"]["a"], 3);  // the same key in another object is another key
  const nlohmann::ordered_json o = parse_strict_json<nlohmann::ordered_json>(R"({"z": 1, "a": 2})");
  EXPECT_EQ(o.begin().key(), "z");
}

TEST(StrictJson, RefusesAKeyGivenTwice) {
  EXPECT_EQ(refusal(R"({"comm_r": "00", "x": 1, "comm_r": "01"})"), "key \"comm_r\" given twice in one object");
  EXPECT_EQ(refusal(R"([{"a": 1}, {"b": {"c": 1, "c": 2}}])"), "key \"c\" given twice in one object");
  const std::string long_key(100000, 'k');
  const std::string message = refusal("{\"" + long_key + "\": 1, \"" + long_key + "\": 2}");
  EXPECT_NE(message.find("given twice"), std::string::npos);
  EXPECT_LT(message.size(), 200u) << "the key is echoed cut short";
}

TEST(StrictJson, BoundsDepthAndMembers) {
  EXPECT_EQ(refusal(std::string(100000, '[') + std::string(100000, ']')), "JSON nested deeper than 64 levels");
  EXPECT_EQ(refusal("[[[1]]]", {.max_depth = 2}), "JSON nested deeper than 2 levels");
  EXPECT_EQ(refusal("[[1]]", {.max_depth = 2}), "accepted");
  EXPECT_EQ(refusal(R"({"a": 1, "b": 2, "c": 3})", {.max_members = 2}), "a JSON object with more than 2 members");
}

TEST(StrictJson, NotJsonIsNamedAndCutShort) {
  EXPECT_EQ(refusal("{\"a\": ").rfind("not valid JSON: ", 0), 0u);
  const std::string message = refusal("[\"" + std::string(1 << 20, 'x'));
  EXPECT_EQ(message.rfind("not valid JSON: ", 0), 0u) << message.substr(0, 200);
  EXPECT_LT(message.size(), 400u);
}

}  // namespace
}  // namespace zkpipe::io
