#include "gpu/sparse_product.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "gpu/cuda_error.hpp"
#include "gpu/device_profile.hpp"
#include "gpu/field.cuh"
#include "io/file_mapping.hpp"

namespace zkpipe::gpu {

namespace {

constexpr unsigned kThreads = launch::kElementwiseThreads;

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

// r1cs::Variable's encoding: bit 31 set for an aux variable, the index below it.
constexpr u32 kAuxFlag = u32{1} << 31;

// r1cs::coefficient_code's decoding (its helpers are host functions).
__device__ __forceinline__ bool is_small(u32 code) { return (code >> 31) == 0; }
__device__ __forceinline__ int small_value(u32 code) { return static_cast<int>(code << 1) >> 1; }
__device__ __forceinline__ u32 table_index(u32 code) { return code & ~(u32{1} << 31); }

// What the kernels read of a DeviceAssignment and of one matrix.
struct AssignmentView {
  const Fr* inputs;
  const u64* wide_mask;
  const u64* bits;
  const u32* wide_before;
  const Fr* wide_values;
};

// Rows from first_row on; their entries from first_entry on (a streamed chunk's).
struct MatrixView {
  const u64* row_offsets;
  const u32* columns;
  const u32* codes;
  u64 first_row;
  u64 first_entry;
};

// k (|k| < 2^63) into Montgomery form: the Montgomery product of |k| with R² is |k|·R.
__device__ __forceinline__ Fr fr_of(long long k, const Fr& r2) {
  const u64 magnitude = k < 0 ? 0 - static_cast<u64>(k) : static_cast<u64>(k);
  Fr m = Fr::zero();
  m.v[0] = static_cast<u32>(magnitude);
  m.v[1] = static_cast<u32>(magnitude >> 32);
  m = m * r2;
  return k < 0 ? -m : m;
}

// The rank of aux value i among the wide ones, given its word of the wide bitmap.
__device__ __forceinline__ u32 wide_rank(const AssignmentView& z, u64 i, u64 mask) {
  return z.wide_before[i / 64] + static_cast<u32>(__popcll(mask & ((u64{1} << (i % 64)) - 1)));
}

// One row of one matrix times z, as r1cs::evaluate_row: 0 terms skipped, small
// coefficients of 1s summed as integers, ±1 times a wide value added or subtracted.
__device__ Fr evaluate_row(const MatrixView& m, u64 row, const AssignmentView& z, const Fr* table, const Fr& r2) {
  const u64 begin = m.row_offsets[row - m.first_row] - m.first_entry;
  const u64 end = m.row_offsets[row + 1 - m.first_row] - m.first_entry;
  // |small| ≤ 2^30 per term, so 2^32 terms could not overflow it.
  long long small_sum = 0;
  Fr acc = Fr::zero();
  for (u64 k = begin; k < end; ++k) {
    const u32 column = m.columns[k];
    const u32 code = m.codes[k];
    const u32 index = column & ~kAuxFlag;
    Fr x = Fr::zero();  // the value when wide
    bool wide = false;
    if (column & kAuxFlag) {
      const u64 mask = z.wide_mask[index / 64];
      const u64 bit = u64{1} << (index % 64);
      if (mask & bit) {
        wide = true;
        x = z.wide_values[wide_rank(z, index, mask)];
      } else if ((z.bits[index / 64] & bit) == 0) {
        continue;
      }
    } else {
      x = z.inputs[index];
      if (x.is_zero()) continue;
      wide = !(x == Fr::one());
    }
    if (!wide) {
      if (is_small(code)) {
        small_sum += small_value(code);
      } else {
        acc += table[table_index(code)];
      }
      continue;
    }
    if (is_small(code)) {
      const int s = small_value(code);
      if (s == 1) {
        acc += x;
      } else if (s == -1) {
        acc -= x;
      } else {
        acc += fr_of(s, r2) * x;
      }
    } else {
      acc += table[table_index(code)] * x;
    }
  }
  if (small_sum != 0) acc += fr_of(small_sum, r2);
  return acc;
}

// One thread per row of [row_begin, row_end): a, b, c of a constraint and its
// a·b = c check (the first failing row by atomicMin), zeros past the constraints.
__global__ void __launch_bounds__(kThreads)
    product_kernel(Fr* a, Fr* b, Fr* c, u64 row_begin, u64 row_end, u64 constraints, MatrixView ma, MatrixView mb,
                   MatrixView mc, const Fr* table, AssignmentView z, Fr r2, unsigned long long* first_unsatisfied) {
  const u64 row = row_begin + blockIdx.x * u64{blockDim.x} + threadIdx.x;
  if (row >= row_end) return;
  if (row >= constraints) {
    a[row] = Fr::zero();
    b[row] = Fr::zero();
    c[row] = Fr::zero();
    return;
  }
  const Fr va = evaluate_row(ma, row, z, table, r2);
  const Fr vb = evaluate_row(mb, row, z, table, r2);
  const Fr vc = evaluate_row(mc, row, z, table, r2);
  a[row] = va;
  b[row] = vb;
  c[row] = vc;
  if (!(va * vb == vc)) atomicMin(first_unsatisfied, static_cast<unsigned long long>(row));
}

__global__ void expand_kernel(Fr* out, AssignmentView z, u64 n) {
  const u64 i = blockIdx.x * u64{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const u64 mask = z.wide_mask[i / 64];
  const u64 bit = u64{1} << (i % 64);
  if (mask & bit) {
    out[i] = z.wide_values[wide_rank(z, i, mask)];
  } else {
    out[i] = (z.bits[i / 64] & bit) ? Fr::one() : Fr::zero();
  }
}

Fr* dev(ff::Fr* p) { return reinterpret_cast<Fr*>(p); }
const Fr* dev(const ff::Fr* p) { return reinterpret_cast<const Fr*>(p); }

AssignmentView view(const DeviceAssignment& z) {
  return {dev(z.inputs()), z.wide_mask(), z.bits(), z.wide_before(), dev(z.wide_values())};
}

// R² mod p in Montgomery form's bytes, for fr_of.
Fr montgomery_r2() {
  const ff::Fr r2 = ff::Fr::from_mont(ff::Fr::kR2);
  Fr r;
  static_assert(sizeof(r) == sizeof(r2));
  std::memcpy(&r, &r2, sizeof(r));
  return r;
}

// A streamed evaluator's chunk: rows [first_row, end_row) of the three matrices,
// and where their entries begin and end in each.
struct RowChunk {
  std::size_t first_row;
  std::size_t end_row;
  std::size_t first_entry[3];
  std::size_t end_entry[3];
};

constexpr std::size_t kEntryBytes = sizeof(r1cs::Variable) + sizeof(std::uint32_t);

// Consecutive row ranges whose three matrices take at most chunk_bytes each (a row
// that alone takes more is a chunk of its own).
std::vector<RowChunk> plan_row_chunks(const r1cs::CompiledR1cs& c, std::size_t chunk_bytes) {
  const r1cs::CompiledMatrix* m[3] = {&c.a, &c.b, &c.c};
  const auto bytes = [&](std::size_t r0, std::size_t r1) {
    std::size_t total = 0;
    for (const auto* x : m) {
      total += (r1 - r0 + 1) * sizeof(std::uint64_t) + (x->row_offsets[r1] - x->row_offsets[r0]) * kEntryBytes;
    }
    return total;
  };
  std::vector<RowChunk> chunks;
  const std::size_t rows = c.num_constraints;
  for (std::size_t r0 = 0; r0 < rows;) {
    std::size_t lo = r0 + 1;  // fits, or is the one row a chunk must take
    std::size_t hi = rows;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo + 1) / 2;
      if (bytes(r0, mid) <= chunk_bytes) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    RowChunk chunk{r0, lo, {}, {}};
    for (int i = 0; i < 3; ++i) {
      chunk.first_entry[i] = m[i]->row_offsets[r0];
      chunk.end_entry[i] = m[i]->row_offsets[lo];
    }
    chunks.push_back(chunk);
    r0 = lo;
  }
  return chunks;
}

// The most rows and the most entries of each matrix in one chunk.
struct ChunkExtent {
  std::size_t rows = 0;
  std::size_t entries[3] = {};
};

ChunkExtent largest_chunk(const std::vector<RowChunk>& chunks) {
  ChunkExtent e;
  for (const RowChunk& c : chunks) {
    e.rows = std::max(e.rows, c.end_row - c.first_row);
    for (int i = 0; i < 3; ++i) e.entries[i] = std::max(e.entries[i], c.end_entry[i] - c.first_entry[i]);
  }
  return e;
}

std::size_t matrix_bytes(std::size_t rows, std::size_t entries) {
  return (rows + 1) * sizeof(std::uint64_t) + entries * kEntryBytes;
}

// count elements from page-locked memory, by the copy engine on stream.
template <class T>
void copy_up(T* to, const T* from, std::size_t count, cudaStream_t stream) {
  if (count == 0) return;
  check(cudaMemcpyAsync(to, from, count * sizeof(T), cudaMemcpyHostToDevice, stream), "copy a pinned matrix chunk");
}

// The kernel indexes row_offsets by constraint without bounds: refuse a
// structurally broken evaluator here.
const r1cs::CompiledMatrix& checked(const r1cs::CompiledMatrix& m, std::size_t rows, const char* name) {
  if (m.row_offsets.size() != rows + 1 || m.columns.size() != m.coefficients.size() ||
      m.row_offsets.front() != 0 || m.row_offsets.back() != m.nonzeros()) {
    throw std::invalid_argument(std::string("DeviceEvaluator: matrix ") + name + " is not a CSR matrix of " +
                                std::to_string(rows) + " rows");
  }
  return m;
}

}  // namespace

void DeviceAssignment::upload(std::span<const ff::Fr> inputs, const r1cs::CompactValues& aux,
                              PinnedStaging& staging, cudaStream_t stream) {
  num_inputs_ = inputs.size();
  num_aux_ = aux.size();
  inputs_.reserve(inputs.size());
  wide_mask_.reserve(aux.wide_mask().size());
  bits_.reserve(aux.bits().size());
  wide_before_.reserve(aux.wide_before().size());
  wide_values_.reserve(aux.wide_values().size());
  staging.upload(inputs_.data(), inputs, stream);
  staging.upload(wide_mask_.data(), aux.wide_mask(), stream);
  staging.upload(bits_.data(), aux.bits(), stream);
  staging.upload(wide_before_.data(), aux.wide_before(), stream);
  staging.upload(wide_values_.data(), aux.wide_values(), stream);
}

void DeviceAssignment::expand_aux(ff::Fr* out, cudaStream_t stream) const {
  if (num_aux_ == 0) return;
  expand_kernel<<<blocks_for(num_aux_), kThreads, 0, stream>>>(dev(out), view(*this), num_aux_);
  check_launch("expand_kernel");
}

DeviceEvaluator::Matrix::Matrix(const r1cs::CompiledMatrix& m, PinnedStaging& staging, cudaStream_t stream,
                                memory::BufferLedger& ledger)
    : row_offsets(ledger, m.row_offsets.size()),
      columns(ledger, m.columns.size()),
      codes(ledger, m.coefficients.size()) {
  static_assert(sizeof(r1cs::Variable) == sizeof(u32), "the kernel reads variables as their 32-bit encoding");
  staging.upload(row_offsets.data(), m.row_offsets, stream);
  staging.upload(columns.data(), m.columns, stream);
  staging.upload(codes.data(), m.coefficients, stream);
}

std::size_t DeviceEvaluator::Matrix::device_bytes() const {
  return row_offsets.capacity() * sizeof(std::uint64_t) + columns.capacity() * sizeof(r1cs::Variable) +
         codes.capacity() * sizeof(std::uint32_t);
}

// A matrix's arrays in page-locked memory.
struct PinnedMatrix {
  PinnedMatrix(const r1cs::CompiledMatrix& m, bool file_mapped, memory::BufferLedger& ledger)
      : row_offsets(copy(m.row_offsets, file_mapped, ledger)),
        columns(copy(m.columns, file_mapped, ledger)),
        codes(copy(m.coefficients, file_mapped, ledger)) {}

  // A file mapping's pages leave the resident set before the page-locked copy is
  // allocated and again once copied (PinnedPoints does the same).
  template <class T>
  static PinnedBuffer<T> copy(std::span<const T> from, bool file_mapped, memory::BufferLedger& ledger) {
    if (file_mapped) io::release_mapped_pages(from.data(), from.size_bytes());
    PinnedBuffer<T> to(ledger, std::max<std::size_t>(from.size(), 1));
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, from.size(), std::size_t{1} << 20), [&](const auto& r) {
      std::copy(from.data() + r.begin(), from.data() + r.end(), to.data() + r.begin());
    });
    if (file_mapped) io::release_mapped_pages(from.data(), from.size_bytes());
    return to;
  }

  std::size_t bytes() const {
    return row_offsets.capacity() * sizeof(std::uint64_t) + columns.capacity() * sizeof(r1cs::Variable) +
           codes.capacity() * sizeof(std::uint32_t);
  }

  PinnedBuffer<std::uint64_t> row_offsets;
  PinnedBuffer<r1cs::Variable> columns;
  PinnedBuffer<std::uint32_t> codes;
};

struct DeviceEvaluator::Streamed {
  std::shared_ptr<const r1cs::CompiledR1cs> compiled;
  PinnedStaging* staging;
  std::vector<PinnedMatrix> pinned;  // A, B, C when copied
  std::vector<RowChunk> chunks;
  std::vector<Matrix> buffers;  // [turn · 3 + matrix], two turns
  CudaStream copy;
  CudaEvent uploaded[2];
  CudaEvent consumed[2];  // the product that last read the turn's buffers
};

DeviceEvaluator::DeviceEvaluator(const r1cs::CompiledR1cs& compiled, PinnedStaging& staging, cudaStream_t stream,
                                 memory::BufferLedger& ledger)
    : num_inputs_(compiled.num_inputs),
      num_aux_(compiled.num_aux),
      num_constraints_(compiled.num_constraints),
      a_(checked(compiled.a, compiled.num_constraints, "A"), staging, stream, ledger),
      b_(checked(compiled.b, compiled.num_constraints, "B"), staging, stream, ledger),
      c_(checked(compiled.c, compiled.num_constraints, "C"), staging, stream, ledger),
      table_(ledger, compiled.coefficient_table.size()),
      first_unsatisfied_(ledger, 1) {
  staging.upload(table_.data(), compiled.coefficient_table, stream);
  check(cudaStreamSynchronize(stream), "upload evaluator");
}

DeviceEvaluator::DeviceEvaluator(std::shared_ptr<const r1cs::CompiledR1cs> compiled, PinnedStaging& staging,
                                 std::size_t chunk_bytes, memory::BufferLedger& ledger, bool pinned_copy)
    : num_inputs_(compiled->num_inputs),
      num_aux_(compiled->num_aux),
      num_constraints_(compiled->num_constraints),
      a_(ledger),
      b_(ledger),
      c_(ledger),
      table_(ledger, compiled->coefficient_table.size()),
      first_unsatisfied_(ledger, 1) {
  checked(compiled->a, num_constraints_, "A");
  checked(compiled->b, num_constraints_, "B");
  checked(compiled->c, num_constraints_, "C");
  auto st = std::make_unique<Streamed>();
  st->chunks = plan_row_chunks(*compiled, chunk_bytes != 0 ? chunk_bytes : default_chunk_bytes(*compiled));
  const ChunkExtent most = largest_chunk(st->chunks);
  for (int turn = 0; turn < 2; ++turn) {
    for (int i = 0; i < 3; ++i) {
      Matrix& m = st->buffers.emplace_back(ledger);
      m.row_offsets.reserve(most.rows + 1);
      m.columns.reserve(most.entries[i]);
      m.codes.reserve(most.entries[i]);
    }
  }
  staging.upload(table_.data(), compiled->coefficient_table, st->copy.get());
  check(cudaStreamSynchronize(st->copy.get()), "upload evaluator table");
  if (pinned_copy) {
    for (const r1cs::CompiledMatrix* m : {&compiled->a, &compiled->b, &compiled->c}) {
      st->pinned.emplace_back(*m, compiled->storage_is_file_mapping, ledger);
    }
  }
  st->staging = &staging;
  st->compiled = std::move(compiled);
  streamed_ = std::move(st);
}

DeviceEvaluator::~DeviceEvaluator() = default;

std::size_t DeviceEvaluator::pinned_bytes() const {
  if (!streamed_) return 0;
  std::size_t total = 0;
  for (const PinnedMatrix& m : streamed_->pinned) total += m.bytes();
  return total;
}

std::size_t DeviceEvaluator::resident_bytes(const r1cs::CompiledR1cs& compiled) {
  return compiled.matrix_bytes() + sizeof(unsigned long long);
}

std::size_t DeviceEvaluator::default_chunk_bytes(const r1cs::CompiledR1cs& compiled) {
  return std::clamp(resident_bytes(compiled) / 8, std::size_t{1} << 20, std::size_t{128} << 20);
}

std::size_t DeviceEvaluator::streamed_bytes(const r1cs::CompiledR1cs& compiled, std::size_t chunk_bytes) {
  const ChunkExtent most =
      largest_chunk(plan_row_chunks(compiled, chunk_bytes != 0 ? chunk_bytes : default_chunk_bytes(compiled)));
  std::size_t per_turn = 0;
  for (int i = 0; i < 3; ++i) per_turn += matrix_bytes(most.rows, most.entries[i]);
  return 2 * per_turn + compiled.coefficient_table.size() * sizeof(ff::Fr) + sizeof(unsigned long long);
}

std::size_t DeviceEvaluator::device_bytes() const {
  std::size_t total = a_.device_bytes() + b_.device_bytes() + c_.device_bytes() + table_.capacity() * sizeof(ff::Fr) +
                      first_unsatisfied_.capacity() * sizeof(unsigned long long);
  if (streamed_) {
    for (const Matrix& m : streamed_->buffers) total += m.device_bytes();
  }
  return total;
}

void DeviceEvaluator::check_arguments(const DeviceAssignment& z, std::size_t n) const {
  if (z.num_inputs() != num_inputs_ || z.num_aux() != num_aux_) {
    throw std::invalid_argument("DeviceEvaluator: the assignment has " + std::to_string(z.num_inputs()) +
                                " inputs and " + std::to_string(z.num_aux()) + " aux values, the circuit " +
                                std::to_string(num_inputs_) + " and " + std::to_string(num_aux_));
  }
  if (n < num_constraints_) {
    throw std::invalid_argument("DeviceEvaluator: " + std::to_string(n) + " rows cannot hold " +
                                std::to_string(num_constraints_) + " constraints");
  }
}

void DeviceEvaluator::launch_product(const DeviceAssignment& z, ff::Fr* a, ff::Fr* b, ff::Fr* c,
                                     std::size_t first_row, std::size_t end_row, const Matrix* const (&m)[3],
                                     const std::size_t (&first_entry)[3], cudaStream_t stream) {
  if (end_row <= first_row) return;
  auto view_of = [&](int i) {
    return MatrixView{m[i]->row_offsets.data(), reinterpret_cast<const u32*>(m[i]->columns.data()),
                      m[i]->codes.data(), first_row, first_entry[i]};
  };
  product_kernel<<<blocks_for(end_row - first_row), kThreads, 0, stream>>>(
      dev(a), dev(b), dev(c), first_row, end_row, num_constraints_, view_of(0), view_of(1), view_of(2),
      dev(table_.data()), view(z), montgomery_r2(), first_unsatisfied_.data());
  check_launch("product_kernel");
}

void DeviceEvaluator::evaluate_streamed(const DeviceAssignment& z, ff::Fr* a, ff::Fr* b, ff::Fr* c,
                                        cudaStream_t stream) {
  Streamed& st = *streamed_;
  const r1cs::CompiledMatrix* host[3] = {&st.compiled->a, &st.compiled->b, &st.compiled->c};
  last_sent_bytes_ = 0;
  for (std::size_t k = 0; k < st.chunks.size(); ++k) {
    const RowChunk& chunk = st.chunks[k];
    const std::size_t turn = k % 2;
    // The buffers are refilled once the product two chunks back has read them.
    check(cudaStreamWaitEvent(st.copy.get(), st.consumed[turn].get()), "wait for the chunk's reader");
    const Matrix* buffers[3];
    for (int i = 0; i < 3; ++i) {
      Matrix& buf = st.buffers[turn * 3 + i];
      const std::size_t rows = chunk.end_row - chunk.first_row;
      const std::size_t entries = chunk.end_entry[i] - chunk.first_entry[i];
      if (st.pinned.empty()) {
        st.staging->upload(buf.row_offsets.data(), host[i]->row_offsets.subspan(chunk.first_row, rows + 1),
                           st.copy.get());
        st.staging->upload(buf.columns.data(), host[i]->columns.subspan(chunk.first_entry[i], entries),
                           st.copy.get());
        st.staging->upload(buf.codes.data(), host[i]->coefficients.subspan(chunk.first_entry[i], entries),
                           st.copy.get());
      } else {
        const PinnedMatrix& from = st.pinned[i];
        copy_up(buf.row_offsets.data(), from.row_offsets.data() + chunk.first_row, rows + 1, st.copy.get());
        copy_up(buf.columns.data(), from.columns.data() + chunk.first_entry[i], entries, st.copy.get());
        copy_up(buf.codes.data(), from.codes.data() + chunk.first_entry[i], entries, st.copy.get());
      }
      last_sent_bytes_ += matrix_bytes(rows, entries);
      buffers[i] = &buf;
    }
    check(cudaEventRecord(st.uploaded[turn].get(), st.copy.get()), "record chunk upload");
    check(cudaStreamWaitEvent(stream, st.uploaded[turn].get()), "wait for chunk upload");
    launch_product(z, a, b, c, chunk.first_row, chunk.end_row, buffers, chunk.first_entry, stream);
    check(cudaEventRecord(st.consumed[turn].get(), stream), "record chunk product");
  }
}

std::size_t DeviceEvaluator::evaluate(const DeviceAssignment& z, ff::Fr* a, ff::Fr* b, ff::Fr* c, std::size_t n,
                                      cudaStream_t stream) {
  check_arguments(z, n);
  if (n == 0) return 0;
  // All ones: above every row, so "none failed" unless a row lowers it.
  check(cudaMemsetAsync(first_unsatisfied_.data(), 0xff, sizeof(unsigned long long), stream), "reset check");
  const Matrix* resident[3] = {&a_, &b_, &c_};
  const std::size_t from_start[3] = {0, 0, 0};
  if (streamed_) {
    evaluate_streamed(z, a, b, c, stream);
    // The rows past the constraints are zeros: no matrix entry is read.
    launch_product(z, a, b, c, num_constraints_, n, resident, from_start, stream);
  } else {
    launch_product(z, a, b, c, 0, n, resident, from_start, stream);
  }
  unsigned long long first = 0;
  check(cudaMemcpyAsync(&first, first_unsatisfied_.data(), sizeof(first), cudaMemcpyDeviceToHost, stream),
        "download check");
  check(cudaStreamSynchronize(stream), "sparse product");
  return first < num_constraints_ ? static_cast<std::size_t>(first) : num_constraints_;
}

}  // namespace zkpipe::gpu
