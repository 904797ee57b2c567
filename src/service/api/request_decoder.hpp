// A request's bytes as the gRPC front receives them, decoded only after the caller
// is authenticated, and refused with the reason: bytes that are no protobuf
// encoding, or a string field (named) that is not UTF-8. Checked on the wire format
// first, so that a hostile request costs no protobuf error log line.
#pragma once

#include <string>
#include <string_view>

namespace google::protobuf {
class Message;
}

namespace zkpipe::service::api {

// Throws ServiceError invalid_argument naming the message type and the problem.
void decode_request(const std::string& bytes, google::protobuf::Message& out);

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points
// above U+10FFFF), as protobuf requires of a string field.
bool valid_utf8(std::string_view text);

}  // namespace zkpipe::service::api
