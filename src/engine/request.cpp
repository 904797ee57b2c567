#include "engine/request.hpp"

namespace zkpipe::engine {

std::size_t parameter_bytes(const groth16::ProvingKey& key) {
  return sizeof(groth16::G1Affine) * (key.a.size() + key.b_g1.size() + key.h.size() + key.l.size() +
                                      key.vk.ic.size()) +
         sizeof(groth16::G2Affine) * key.b_g2.size();
}

double PartitionTimeline::seconds_in(Stage stage) const {
  auto span = [&](Hook from, Hook to) { return when(to) - when(from); };
  switch (stage) {
    case Stage::synthesizing: return span(Hook::synth_start, Hook::synth_done);
    case Stage::queued: return span(Hook::synth_done, Hook::gpu_start);
    case Stage::on_device: return span(Hook::gpu_start, Hook::abc_freed);
    case Stage::pending_finalize: return span(Hook::abc_freed, Hook::finalize_done);
    case Stage::awaiting_dealloc: return span(Hook::finalize_done, Hook::dealloc_done);
    case Stage::parameters:
    case Stage::scratch:
    case Stage::device: break;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace zkpipe::engine
