// Request bytes the gRPC front decodes: well-formed requests, bytes that are no
// protobuf encoding, and string fields (nested ones too) that are not UTF-8, each
// refused with the reason.
#include <gtest/gtest.h>

#include "service/api/request_decoder.hpp"
#include "service/errors.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service {
namespace {

std::string refusal(const std::string& bytes) {
  v1::SubmitProofRequest out;
  try {
    api::decode_request(bytes, out);
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
    return e.what();
  }
  return "";
}

TEST(RequestDecoder, DecodesRequestsAndNamesWhatIsWrong) {
  v1::SubmitProofRequest request;
  request.set_label("größe ✓");
  request.mutable_porep()->set_preset("tiny");
  v1::SubmitProofRequest decoded;
  api::decode_request(request.SerializeAsString(), decoded);
  EXPECT_EQ(decoded.label(), "größe ✓");
  EXPECT_EQ(decoded.porep().preset(), "tiny");

  EXPECT_NE(refusal("\x0a\xff\xff\xff\xff\x0f garbage").find("not a valid zkpipe.v1.SubmitProofRequest: the bytes "
                                                          "are not a protobuf encoding"),
            std::string::npos);
  request.set_label("bad \xc3\x28 byte");
  EXPECT_NE(refusal(request.SerializeAsString()).find("field zkpipe.v1.SubmitProofRequest.label is not valid UTF-8"),
            std::string::npos);
  request.set_label("");
  request.mutable_porep()->set_preset("\xed\xa0\x80");  // a surrogate
  EXPECT_NE(refusal(request.SerializeAsString()).find("field zkpipe.v1.PorepInstance.preset is not valid UTF-8"),
            std::string::npos);
}

TEST(RequestDecoder, Utf8AsProtobufRequiresIt) {
  EXPECT_TRUE(api::valid_utf8(""));
  EXPECT_TRUE(api::valid_utf8("ascii"));
  EXPECT_TRUE(api::valid_utf8("\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80"));  // é ✓ 😀
  EXPECT_TRUE(api::valid_utf8("\xf4\x8f\xbf\xbf"));                      // U+10FFFF
  EXPECT_FALSE(api::valid_utf8("\xc0\xaf"));                             // overlong '/'
  EXPECT_FALSE(api::valid_utf8("\xe0\x80\xaf"));                         // overlong, 3 bytes
  EXPECT_FALSE(api::valid_utf8("\xed\xbf\xbf"));                         // surrogate
  EXPECT_FALSE(api::valid_utf8("\xf4\x90\x80\x80"));                     // above U+10FFFF
  EXPECT_FALSE(api::valid_utf8("\xe2\x9c"));                             // truncated
  EXPECT_FALSE(api::valid_utf8("\x80"));                                 // a continuation byte first
  EXPECT_FALSE(api::valid_utf8("\xff"));
}

}  // namespace
}  // namespace zkpipe::service
