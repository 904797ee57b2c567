#include "circuits/filecoin/api/sector_values.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/core/hex_bytes.hpp"
#include "io/strict_json.hpp"
#include "ff/fr.hpp"

namespace zkpipe::filecoin::api {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;
using Bytes32 = std::array<std::uint8_t, 32>;

std::string kind_of(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer: return "the negative number " + j.dump();
    case Json::value_t::number_unsigned: return "the number " + j.dump();
    case Json::value_t::number_float: return "the number " + j.dump();
    case Json::value_t::binary: return "binary data";
    case Json::value_t::discarded: break;
  }
  return "nothing";
}

bool is_canonical_fr(const Bytes32& bytes) {
  ff::Limbs<4> limbs{};
  for (std::size_t i = 0; i < bytes.size(); ++i) limbs[i / 8] |= std::uint64_t{bytes[i]} << (8 * (i % 8));
  return ff::limbs_less(limbs, ff::FrParams::kModulus);
}

class Reader {
 public:
  Reader(const Json& root, std::string_view source) : root_(root), source_(source) {}

  [[noreturn]] void fail(std::string field, const std::string& problem) const {
    throw C1OutputError(source_, std::move(field), problem);
  }

  const Json& member(const char* field) const {
    const auto it = root_.find(field);
    if (it == root_.end()) fail(field, "missing");
    return *it;
  }

  const std::string& string(const char* field, const char* expected) const {
    const Json& j = member(field);
    if (!j.is_string()) fail(field, std::string("expected ") + expected + ", got " + kind_of(j));
    return j.get_ref<const std::string&>();
  }

  std::uint64_t unsigned_number(const char* field) const {
    const Json& j = member(field);
    if (!j.is_number_unsigned()) fail(field, "expected an unsigned integer, got " + kind_of(j));
    return j.get<std::uint64_t>();
  }

  Bytes32 bytes32(const char* field) const {
    const std::string& hex = string(field, "64 hex digits (32 bytes)");
    try {
      const std::vector<std::uint8_t> bytes = core::bytes_from_hex(hex, 32);
      Bytes32 out{};
      std::copy(bytes.begin(), bytes.end(), out.begin());
      return out;
    } catch (const std::invalid_argument& e) {
      fail(field, e.what());
    }
  }

  // A commitment: the 32 little-endian bytes of an Fr element.
  core::NodeBytes commitment(const char* field) const {
    const core::NodeBytes bytes = bytes32(field);
    if (!is_canonical_fr(bytes)) {
      fail(field, "not a field element: the 32 little-endian bytes are not below the BLS12-381 scalar modulus r");
    }
    return bytes;
  }

 private:
  const Json& root_;
  std::string source_;
};

}  // namespace

porep::ReplicaId SectorValues::replica_id() const {
  if (registered_proof == nullptr) throw std::invalid_argument("SectorValues::replica_id: no registered proof");
  return filecoin::porep::replica_id(prover_id, sector_id, ticket, comm_d, registered_proof->porep_id());
}

SectorValues parse_sector_values(std::string_view json, std::string_view source) {
  Json root;
  try {
    root = io::parse_strict_json<Json>(json);
  } catch (const io::StrictJsonError& e) {
    throw C1OutputError(std::string(source), "", e.what());
  }
  if (!root.is_object()) throw C1OutputError(std::string(source), "", "expected an object, got " + kind_of(root));
  const Reader r(root, source);

  SectorValues v;
  const std::string& name = r.string("registered_proof", "a registered seal proof's name");
  try {
    v.registered_proof = &core::seal_proof(name);
  } catch (const std::invalid_argument& e) {
    r.fail("registered_proof", e.what());
  }
  const std::uint64_t sector_size = r.unsigned_number("sector_size");
  if (sector_size != v.registered_proof->sector_bytes) {
    r.fail("sector_size", "expected " + std::to_string(v.registered_proof->sector_bytes) + " for " +
                              std::string(v.registered_proof->name) + ", got " + std::to_string(sector_size));
  }
  v.prover_id = r.bytes32("prover_id");
  v.sector_id = r.unsigned_number("sector_id");
  v.ticket = r.bytes32("ticket");
  v.seed = r.bytes32("seed");
  v.comm_r = r.commitment("comm_r");
  v.comm_d = r.commitment("comm_d");
  return v;
}

std::string sector_values_to_json(const SectorValues& values) {
  if (values.registered_proof == nullptr) throw std::invalid_argument("sector_values_to_json: no registered proof");
  OrderedJson j;
  j["registered_proof"] = std::string(values.registered_proof->name);
  j["sector_size"] = values.registered_proof->sector_bytes;
  j["prover_id"] = core::hex_of(values.prover_id);
  j["sector_id"] = values.sector_id;
  j["ticket"] = core::hex_of(values.ticket);
  j["seed"] = core::hex_of(values.seed);
  j["comm_r"] = core::hex_of(values.comm_r);
  j["comm_d"] = core::hex_of(values.comm_d);
  return j.dump(2) + "\n";
}

}  // namespace zkpipe::filecoin::api
