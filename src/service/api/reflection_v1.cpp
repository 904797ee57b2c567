#include "service/api/reflection_v1.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

#include <memory>
#include <utility>

namespace zkpipe::service::api {

namespace {

namespace v1 = grpc::reflection::v1;
using google::protobuf::DescriptorPool;
using google::protobuf::FileDescriptor;

// One stream: reads a request, writes its answer, reads the next, until the client
// closes its side. Holds itself until gRPC is done with it.
class ReflectionStream final : public grpc::ServerBidiReactor<v1::ServerReflectionRequest, v1::ServerReflectionResponse>,
                               public std::enable_shared_from_this<ReflectionStream> {
 public:
  explicit ReflectionStream(const ReflectionV1& service) : service_(service) {}

  void start() {
    self_ = shared_from_this();
    StartRead(&request_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) {
      Finish(grpc::Status::OK);
      return;
    }
    response_ = service_.answer(request_, sent_);
    StartWrite(&response_);
  }

  void OnWriteDone(bool ok) override {
    if (!ok) {
      Finish(grpc::Status(grpc::StatusCode::CANCELLED, "the client went away"));
      return;
    }
    StartRead(&request_);
  }

  void OnDone() override { const auto last = std::move(self_); }

 private:
  const ReflectionV1& service_;
  std::shared_ptr<ReflectionStream> self_;
  v1::ServerReflectionRequest request_;
  v1::ServerReflectionResponse response_;
  std::set<std::string> sent_;
};

void not_found(v1::ServerReflectionResponse& out, const std::string& what) {
  v1::ErrorResponse& error = *out.mutable_error_response();
  error.set_error_code(static_cast<int>(grpc::StatusCode::NOT_FOUND));
  error.set_error_message(what);
}

// The file, then each file it depends on, that this stream has not sent yet.
void add_file(const FileDescriptor* file, std::set<std::string>& sent, v1::FileDescriptorResponse& out) {
  if (!sent.insert(file->name()).second) return;
  google::protobuf::FileDescriptorProto proto;
  file->CopyTo(&proto);
  proto.SerializeToString(out.add_file_descriptor_proto());
  for (int i = 0; i < file->dependency_count(); ++i) add_file(file->dependency(i), sent, out);
}

}  // namespace

ReflectionV1::ReflectionV1(std::vector<std::string> services) : services_(std::move(services)) {}

grpc::ServerBidiReactor<v1::ServerReflectionRequest, v1::ServerReflectionResponse>* ReflectionV1::ServerReflectionInfo(
    grpc::CallbackServerContext*) {
  auto stream = std::make_shared<ReflectionStream>(*this);
  stream->start();
  return stream.get();
}

v1::ServerReflectionResponse ReflectionV1::answer(const v1::ServerReflectionRequest& request,
                                                  std::set<std::string>& sent) const {
  const DescriptorPool& pool = *DescriptorPool::generated_pool();
  v1::ServerReflectionResponse out;
  out.set_valid_host(request.host());
  *out.mutable_original_request() = request;
  auto send_file = [&](const FileDescriptor* file, const std::string& asked) {
    if (file == nullptr) {
      not_found(out, asked);
      return;
    }
    // A file asked for again is sent again, its dependencies only once.
    sent.erase(file->name());
    add_file(file, sent, *out.mutable_file_descriptor_response());
  };
  switch (request.message_request_case()) {
    case v1::ServerReflectionRequest::kListServices:
      for (const std::string& name : services_) out.mutable_list_services_response()->add_service()->set_name(name);
      break;
    case v1::ServerReflectionRequest::kFileByFilename:
      send_file(pool.FindFileByName(request.file_by_filename()), "no file " + request.file_by_filename());
      break;
    case v1::ServerReflectionRequest::kFileContainingSymbol:
      send_file(pool.FindFileContainingSymbol(request.file_containing_symbol()),
                "no symbol " + request.file_containing_symbol());
      break;
    case v1::ServerReflectionRequest::kFileContainingExtension: {
      const auto& asked = request.file_containing_extension();
      const auto* type = pool.FindMessageTypeByName(asked.containing_type());
      const auto* extension = type != nullptr ? pool.FindExtensionByNumber(type, asked.extension_number()) : nullptr;
      send_file(extension != nullptr ? extension->file() : nullptr,
                "no extension " + std::to_string(asked.extension_number()) + " of " + asked.containing_type());
      break;
    }
    case v1::ServerReflectionRequest::kAllExtensionNumbersOfType: {
      const auto* type = pool.FindMessageTypeByName(request.all_extension_numbers_of_type());
      if (type == nullptr) {
        not_found(out, "no type " + request.all_extension_numbers_of_type());
        break;
      }
      std::vector<const google::protobuf::FieldDescriptor*> extensions;
      pool.FindAllExtensions(type, &extensions);
      v1::ExtensionNumberResponse& numbers = *out.mutable_all_extension_numbers_response();
      numbers.set_base_type_name(type->full_name());
      for (const auto* e : extensions) numbers.add_extension_number(e->number());
      break;
    }
    case v1::ServerReflectionRequest::MESSAGE_REQUEST_NOT_SET: {
      v1::ErrorResponse& error = *out.mutable_error_response();
      error.set_error_code(static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
      error.set_error_message("the request names nothing to reflect");
      break;
    }
  }
  return out;
}

}  // namespace zkpipe::service::api
