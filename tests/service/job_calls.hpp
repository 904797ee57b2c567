// What the service tests do with a job: wait for its end or for a condition, take the
// refusal of a submit, look for a phrase in a message.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

#include "service/errors.hpp"
#include "service/proving_service.hpp"

namespace zkpipe::service::testing {

// The job's answer once it ended (at most 10 minutes: a 2 KiB key's load and proof on
// a loaded machine take a few).
inline v1::AwaitProofResponse finish(ProvingService& s, std::uint64_t id) {
  v1::AwaitProofResponse r;
  for (int i = 0; i < 600; ++i) {
    r = s.await(id, std::chrono::seconds(1));
    if (r.state() != v1::JOB_STATE_QUEUED && r.state() != v1::JOB_STATE_RUNNING) return r;
  }
  ADD_FAILURE() << "job " << id << " did not finish";
  return r;
}

// Polls: the last buffers of a finished request are freed by the engine's threads
// just after its completion is signalled. The 30 s only catch a hang: a loaded
// machine or a sanitizer build may take seconds for what is otherwise instant.
inline bool eventually(const std::function<bool()>& condition) {
  for (int i = 0; i < 3000; ++i) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return condition();
}

// The error a submit is refused with (a test failure when it is accepted).
inline ServiceError refusal(ProvingService& s, const v1::SubmitProofRequest& r) {
  try {
    s.submit(r);
  } catch (const ServiceError& e) {
    return e;
  }
  ADD_FAILURE() << "the submit was accepted";
  return ServiceError(ErrorKind::unavailable, "");
}

inline bool mentions(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

}  // namespace zkpipe::service::testing
