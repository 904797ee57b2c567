// grpc.reflection.v1.ServerReflection, which grpcurl and current gRPC tools ask before
// v1alpha: the descriptors of the services this server registers, from the protobuf
// descriptors linked into the daemon. Debian 12's gRPC plugin answers v1alpha only;
// the daemon registers both.
#pragma once

#include <grpcpp/grpcpp.h>

#include <set>
#include <string>
#include <vector>

#include "grpc/reflection/v1/reflection.grpc.pb.h"

namespace zkpipe::service::api {

class ReflectionV1 final : public grpc::reflection::v1::ServerReflection::CallbackService {
 public:
  // `services`: the full names of the services the server registers (ListServices).
  explicit ReflectionV1(std::vector<std::string> services);

  grpc::ServerBidiReactor<grpc::reflection::v1::ServerReflectionRequest, grpc::reflection::v1::ServerReflectionResponse>*
  ServerReflectionInfo(grpc::CallbackServerContext* context) override;

  // The answer to one request; `sent` names the files this stream has sent already
  // (a file's dependencies go with it once per stream, as clients expect).
  grpc::reflection::v1::ServerReflectionResponse answer(const grpc::reflection::v1::ServerReflectionRequest& request,
                                                        std::set<std::string>& sent) const;

 private:
  std::vector<std::string> services_;
};

}  // namespace zkpipe::service::api
