#include "proving/prove_on_engine.hpp"

#include <sstream>
#include <utility>

#include "engine/run_recorder.hpp"
#include "proving/hand_off.hpp"

namespace zkpipe::proving {

ProofNotVerified::ProofNotVerified(std::size_t partition, std::size_t partitions)
    : std::runtime_error(partitions == 1 ? std::string("the proof does not verify")
                                         : "partition " + std::to_string(partition) + "'s proof does not verify"),
      partition_(partition) {}

ProofInputs preset_inputs(std::shared_ptr<const groth16::ProvingKey> key,
                          std::shared_ptr<const r1cs::CompiledR1cs> evaluator,
                          std::shared_ptr<const r1cs::PartitionedCircuit> circuit) {
  ProofInputs inputs;
  inputs.key = std::move(key);
  inputs.evaluator = std::move(evaluator);
  inputs.request = [circuit = std::move(circuit)](const RequestBasis& basis) { return preset_request(basis, circuit); };
  return inputs;
}

EngineRunResult prove_on_engine(const std::vector<std::shared_ptr<groth16::ProverBackend>>& backends,
                                const EngineRun& run, const ProofInputs& inputs) {
  engine::Engine eng(run.engine, backends);
  for (const auto& listener : run.listeners) eng.add_listener(listener);
  const auto recorder = std::make_shared<engine::RunRecorder>();
  if (run.trace) eng.add_listener(recorder);

  const RequestBasis basis = request_basis(eng.make_resident(inputs.key, inputs.evaluator, inputs.companion_bytes),
                                           *backends.front(), inputs.insecure);
  PreparedRequest prepared = inputs.request(basis);
  const std::size_t partitions = prepared.request.partitions;
  HandedRequest handed = hand_off(prepared, {.label = {}, .priority = engine::Priority::normal, .partitions = {},
                                             .verify = run.verify});
  EngineRunResult out;
  try {
    out.result = eng.submit(std::move(handed.request)).get();
  } catch (const engine::RequestFailed&) {
    if (inputs.expect_inputs_undamaged) inputs.expect_inputs_undamaged();
    if (const std::size_t p = handed.first_failed->load(); p < partitions) throw ProofNotVerified(p, partitions);
    throw;
  }
  if (inputs.expect_inputs_undamaged) inputs.expect_inputs_undamaged();
  out.devices = eng.device_status();
  eng.shutdown(engine::ShutdownMode::drain);
  out.public_signals = std::move(prepared.public_signals);
  if (run.trace) {
    std::ostringstream trace;
    recorder->write_chrome_trace(trace);
    out.chrome_trace = trace.str();
  }
  return out;
}

}  // namespace zkpipe::proving
