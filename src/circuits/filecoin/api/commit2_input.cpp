#include "circuits/filecoin/api/commit2_input.hpp"

#include <array>
#include <optional>

#include <nlohmann/json.hpp>

#include "io/strict_json.hpp"

namespace zkpipe::filecoin::api {
namespace {

using Json = nlohmann::json;

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> kValue = [] {
  std::array<std::int8_t, 256> t{};
  t.fill(-1);
  for (std::size_t i = 0; i < kAlphabet.size(); ++i) t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}();

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t group = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      group = (group << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    }
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kAlphabet[(group >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

// Standard base64 with padding (Go's base64.StdEncoding). On failure, `bad` is the
// offending character's offset.
std::optional<std::string> base64_decode(std::string_view text, std::size_t& bad) {
  if (text.size() % 4 != 0) {
    bad = text.size();
    return std::nullopt;
  }
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const std::size_t pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=' && text[i + 3] == '=') : 0;
    std::uint32_t group = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const std::int8_t v = k < 4 - pad ? kValue[static_cast<unsigned char>(text[i + k])] : 0;
      if (v < 0) {
        bad = i + k;
        return std::nullopt;
      }
      group = (group << 6) | static_cast<std::uint32_t>(v);
    }
    for (std::size_t k = 0; k < 3 - pad; ++k) out += static_cast<char>((group >> (16 - 8 * k)) & 0xff);
  }
  return out;
}

[[noreturn]] void fail(std::string_view source, const char* path, const std::string& problem) {
  throw C1OutputError(std::string(source), path, problem);
}

std::uint64_t unsigned_member(const Json& j, const char* key, std::string_view source) {
  const auto it = j.find(key);
  if (it == j.end()) fail(source, "", std::string("missing field \"") + key + "\"");
  if (!it->is_number_unsigned()) fail(source, key, "expected an unsigned integer");
  return it->get<std::uint64_t>();
}

}  // namespace

Commit2Input parse_commit2_input(std::string_view json, std::string_view source) {
  Json j;
  try {
    j = io::parse_strict_json<Json>(json);
  } catch (const io::StrictJsonError& e) {
    fail(source, "", e.what());
  }
  if (!j.is_object()) fail(source, "", "expected an object {SectorNum, Phase1Out, SectorSize}");
  Commit2Input input;
  input.sector_number = unsigned_member(j, "SectorNum", source);
  const std::uint64_t sector_size = unsigned_member(j, "SectorSize", source);
  const auto phase1 = j.find("Phase1Out");
  if (phase1 == j.end()) fail(source, "", "missing field \"Phase1Out\"");
  if (!phase1->is_string()) fail(source, "Phase1Out", "expected a base64 string");
  std::size_t bad = 0;
  const std::optional<std::string> bytes = base64_decode(phase1->get_ref<const std::string&>(), bad);
  if (!bytes) fail(source, "Phase1Out", "not standard base64 with padding at character " + std::to_string(bad));
  input.phase1_output = parse_c1_output(*bytes, std::string(source) + " Phase1Out");
  if (sector_size != input.phase1_output.registered_proof.sector_bytes) {
    fail(source, "SectorSize",
         "expected " + std::to_string(input.phase1_output.registered_proof.sector_bytes) + " for " +
             std::string(input.phase1_output.registered_proof.name) + ", got " + std::to_string(sector_size));
  }
  return input;
}

std::string commit2_input_to_json(const Commit2Input& input) {
  return "{\"SectorNum\":" + std::to_string(input.sector_number) + ",\"Phase1Out\":\"" +
         base64_encode(c1_output_to_json(input.phase1_output)) +
         "\",\"SectorSize\":" + std::to_string(input.phase1_output.registered_proof.sector_bytes) + "}";
}

}  // namespace zkpipe::filecoin::api
