#include "engine/request.hpp"

namespace zkpipe::engine {

namespace {

// A query kept on a device (set up there) holds no host bytes: its device buffers
// charge the ledger's device stage themselves.
template <class Point>
std::size_t host_bytes(const groth16::PointArray<Point>& points) {
  return points.on_host() ? sizeof(Point) * points.size() : 0;
}

template <class Point>
void add_if_file_mapped(const groth16::PointArray<Point>& points, std::vector<memory::AddressRange>& out) {
  if (points.on_host() && points.is_file_mapped()) out.push_back({points.data(), sizeof(Point) * points.size()});
}

template <class T>
void add_span(std::span<const T> view, std::vector<memory::AddressRange>& out) {
  if (!view.empty()) out.push_back({view.data(), view.size_bytes()});
}

}  // namespace

std::vector<memory::AddressRange> file_mapped_ranges(const groth16::ProvingKey& key) {
  std::vector<memory::AddressRange> out;
  add_if_file_mapped(key.a, out);
  add_if_file_mapped(key.b_g1, out);
  add_if_file_mapped(key.h, out);
  add_if_file_mapped(key.l, out);
  add_if_file_mapped(key.b_g2, out);
  return out;
}

std::vector<memory::AddressRange> file_mapped_ranges(const r1cs::CompiledR1cs& evaluator) {
  std::vector<memory::AddressRange> out;
  if (!evaluator.storage_is_file_mapping) return out;
  for (const r1cs::CompiledMatrix* m : {&evaluator.a, &evaluator.b, &evaluator.c}) {
    add_span(m->row_offsets, out);
    add_span(m->columns, out);
    add_span(m->coefficients, out);
  }
  add_span(evaluator.coefficient_table, out);
  return out;
}

std::size_t parameter_bytes(const groth16::ProvingKey& key) {
  return host_bytes(key.a) + host_bytes(key.b_g1) + host_bytes(key.h) + host_bytes(key.l) + host_bytes(key.b_g2) +
         sizeof(groth16::G1Affine) * key.vk.ic.size();
}

std::size_t evaluator_bytes(const r1cs::CompiledR1cs& evaluator) {
  std::size_t bytes = evaluator.matrix_bytes();
  for (const r1cs::DensityBitmap* d : {&evaluator.a_aux_density, &evaluator.b_input_density, &evaluator.b_aux_density}) {
    bytes += d->words().size() * sizeof(std::uint64_t);
  }
  return bytes;
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
