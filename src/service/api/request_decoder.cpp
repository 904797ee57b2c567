#include "service/api/request_decoder.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/unknown_field_set.h>

#include <cstdint>
#include <optional>

#include "service/errors.hpp"

namespace zkpipe::service::api {

namespace {

namespace pb = google::protobuf;

// Deeper than any request of zkpipe.v1 nests.
constexpr int kMaxDepth = 16;

// Why `bytes` cannot be a `type`, or nullopt when the wire format holds no problem
// this walk sees. Fields the type does not know are skipped, as protobuf skips them.
std::optional<std::string> wire_problem(const pb::Descriptor& type, const std::string& bytes, int depth) {
  pb::UnknownFieldSet fields;
  if (depth > kMaxDepth || !fields.ParseFromString(bytes)) return "the bytes are not a protobuf encoding";
  for (int i = 0; i < fields.field_count(); ++i) {
    const pb::UnknownField& field = fields.field(i);
    const pb::FieldDescriptor* declared = type.FindFieldByNumber(field.number());
    if (declared == nullptr || field.type() != pb::UnknownField::TYPE_LENGTH_DELIMITED) continue;
    if (declared->type() == pb::FieldDescriptor::TYPE_STRING && !valid_utf8(field.length_delimited())) {
      return "field " + declared->full_name() + " is not valid UTF-8";
    }
    if (declared->type() == pb::FieldDescriptor::TYPE_MESSAGE) {
      if (auto problem = wire_problem(*declared->message_type(), field.length_delimited(), depth + 1)) return problem;
    }
  }
  return std::nullopt;
}

// What a lead byte starts: the sequence's length, the least code point it may
// encode (less is an overlong form) and the lead's payload bits; length 0 for a byte
// that starts none.
struct Utf8Sequence {
  std::size_t length;
  std::uint32_t min;
  std::uint32_t bits;
};

Utf8Sequence sequence_of(unsigned char lead) {
  if ((lead & 0xe0) == 0xc0) return {2, 0x80, lead & 0x1fu};
  if ((lead & 0xf0) == 0xe0) return {3, 0x800, lead & 0x0fu};
  if ((lead & 0xf8) == 0xf0) return {4, 0x10000, lead & 0x07u};
  return {0, 0, 0};
}

}  // namespace

bool valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) {
      ++i;
      continue;
    }
    const auto [length, min, bits] = sequence_of(lead);
    if (length == 0) return false;
    std::uint32_t code = bits;
    if (text.size() - i < length) return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xc0) != 0x80) return false;
      code = (code << 6) | (next & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    i += length;
  }
  return true;
}

void decode_request(const std::string& bytes, pb::Message& out) {
  const pb::Descriptor& type = *out.GetDescriptor();
  auto refuse = [&](const std::string& why) {
    return ServiceError(ErrorKind::invalid_argument, "not a valid " + type.full_name() + ": " + why);
  };
  if (auto problem = wire_problem(type, bytes, 0)) throw refuse(*problem);
  if (!out.ParseFromString(bytes)) throw refuse("protobuf cannot decode it");
}

}  // namespace zkpipe::service::api
