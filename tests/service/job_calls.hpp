// What the service tests do with a job: wait for its end or for a condition, take the
// refusal of a submit, look for a phrase in a message.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <thread>

#include "groth16/parameter_file.hpp"
#include "groth16/proof.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/partitioned_circuit.hpp"
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

// The submit is refused INVALID_ARGUMENT and its message names `what`.
inline void expect_invalid(ProvingService& s, const v1::SubmitProofRequest& r, const std::string& what) {
  const ServiceError e = refusal(s, r);
  EXPECT_EQ(e.kind(), ErrorKind::invalid_argument) << e.what();
  EXPECT_TRUE(mentions(e.what(), what)) << e.what();
}

// `proof` holds one 192-byte proof per partition of `circuit`, each verifying with the
// key in `key_file` against the partition's public inputs (the test's own check, not
// the daemon's).
inline bool proofs_verify(const std::string& proof, const std::filesystem::path& key_file,
                          const r1cs::PartitionedCircuit& circuit) {
  const groth16::ProvingKey key = groth16::load_parameter_file(key_file);
  const auto proofs =
      groth16::decode_proofs(std::span(reinterpret_cast<const std::uint8_t*>(proof.data()), proof.size()));
  if (proofs.size() != circuit.partitions()) return false;
  const groth16::PreparedVerifyingKey pvk(key.vk);
  for (std::size_t p = 0; p < proofs.size(); ++p) {
    if (!groth16::verify(pvk, proofs[p], circuit.public_inputs(p))) return false;
  }
  return true;
}

}  // namespace zkpipe::service::testing
