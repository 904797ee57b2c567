// The CUDA backend of the split prover: start() runs the h polynomial (NTTs), the
// four G1 MSMs and (by default) the B query's G2 MSM on one GPU; finish() only
// assembles the proof on the CPU. With the G2 MSM on the CPU instead, finish() runs
// it there, as CpuProver does. Either way both backends give the same proof for the
// same Blinding.
//
// A deferred witness (the pce path: inputs, compact aux and the compiled evaluator)
// is evaluated on the device (sparse_product.hpp): its inputs and compact aux go
// up, a, b, c and the full aux are computed there, and a·b = c is checked there
// (UnsatisfiedConstraint, as for any witness). The evaluator's matrices stay
// resident while witnesses of the same evaluator follow. The host expands the aux
// only when finish() runs the G2 MSM on the CPU, which reads it.
//
// Per key, the query points (G1: A, B, L, H; G2: B) are uploaded once and stay resident
// when they fit in the device's free memory beside the MSM scratch and the working
// vectors; a key that does not fit keeps its points in host memory and every MSM
// streams them to the device in chunks (StreamedMsm). Per domain, the NTT tables.
// Device vectors for a, b, c and the MSM scratch grow to the largest partition seen
// and are reused, so steady-state partitions allocate no device memory. One
// CudaProver drives one device (chosen by ordinal); start() may be called from
// several threads: their kernel regions are serialized, their witness uploads
// (two slots) and host-side ends are not. A CUDA runtime error in start() is the
// device's failure (groth16::DeviceFailure, naming the device): the engine moves
// the partition to another device; finish() runs on the host only. Running out of
// device memory is not: start() frees the working buffers, the NTT tables, the
// evaluator and the other keys' uploaded points, halves the MSM passes and tries
// again, then streams this key's points, and otherwise refuses the partition
// (groth16::DeviceOutOfMemory, the request's failure; the device stays in service).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "groth16/prover.hpp"
#include "memory/buffer_ledger.hpp"

namespace zkpipe::gpu {

struct CudaProverOptions {
  // The B query's G2 MSM in start() on the device (its bases resident, like the G1
  // ones), rather than in finish() on the host's threads.
  bool g2_msm_on_device = true;
  // A key's query points stay resident on the device when their bytes are at most
  // this; 0: when they, the MSM scratch and the working vectors fit in the free
  // device memory (less a margin) at the key's first start(). Otherwise they are
  // streamed from host memory at every MSM.
  std::size_t max_resident_base_bytes = 0;
  // A streamed key's points and a streamed evaluator's matrices are copied once
  // into page-locked host memory (the points in the device's layout), where the
  // copy engine takes every chunk at the link's speed with no host thread, when the
  // host's usable memory holds the copy with an eighth to spare; the copied pages of
  // a file-mapped key or evaluator leave the resident set. Off, or when it does not
  // fit: every chunk is read from where they are and staged by host threads.
  bool pin_streamed_sources = true;
  // Points per streamed chunk; 0: the largest that fits in free device memory.
  std::size_t stream_chunk_points = 0;
  // A streamed H query's MSM runs beside the L, A and B MSMs (on a stream and host
  // thread of its own) when any of those streams too and the device's memory holds
  // chunks for both: H's sum is bound by the multiprocessors, the others' streamed
  // sums by the link, so each uses what the other leaves idle. Off: one after the other.
  bool overlap_streamed_sums = true;
  // The most terms one MSM pass over resident points sums; longer MSMs add up
  // several passes. The sort's scratch grows with the terms (~250 bytes a term), so
  // at 2^27 one pass's would not fit beside a resident key; two passes of 2^26 cost
  // what one of 2^27 does.
  std::size_t max_msm_pass_terms = std::size_t{1} << 26;
  // The ledger every device and page-locked buffer of the prover charges: the
  // engine's (EngineConfig::ledger); null: the process-wide one.
  memory::BufferLedger* ledger = nullptr;
};

// Where a key's query points are kept, decided when it is placed (prepare(), or its
// first start()): all on the device, some (the others streamed), or none.
enum class BasePlacement { kNotLoaded, kResident, kPartlyResident, kStreamed };

class CudaProver final : public groth16::ProverBackend {
 public:
  explicit CudaProver(int device = 0, CudaProverOptions options = {});
  ~CudaProver() override;

  std::string name() const override { return "cuda"; }
  // a, b, c and the full aux of a deferred witness exist only on the device, but for
  // the full aux that finish() reads when the G2 MSM runs on the host.
  MaterializedBytes host_bytes_to_materialize(std::size_t domain_size, std::size_t aux) const override;
  // Throws groth16::DeviceFailure for a CUDA runtime error, and
  // groth16::DeviceOutOfMemory when the partition does not fit in the device's
  // memory with the prover's caches freed and the key's points streamed (if they
  // were uploaded); start_on_device()'s other exceptions as they are.
  std::unique_ptr<groth16::PendingProof> start(groth16::PartitionWitness witness, const groth16::ProvingKey& key,
                                               const groth16::Blinding& blinding) override;
  groth16::Proof finish(std::unique_ptr<groth16::PendingProof> pending) override;
  // From CUDA events on the proving stream around each start()'s device work: the
  // first upload to the last MSM (gaps inside that span included).
  std::optional<double> device_busy_seconds() const override;
  // start() locks its kernel region itself: a deferred witness's upload, the
  // witness checks' wait and the blinding run outside it, under another call's
  // kernels (the engine's gw > 1).
  bool locks_kernel_region() const override { return true; }
  void abort(std::unique_ptr<groth16::PendingProof> pending) override;

  // Device memory held by this prover (resident bases, chunk buffers, tables,
  // pools), in bytes.
  std::size_t device_bytes() const;

  const memory::BufferLedger* ledger() const override;
  // The scalars are gathered on the device and the page-locked staging is one per
  // prover, all charged to ledger(): nothing per partition for the caller to count.
  bool allocates_own_scratch() const override { return true; }
  // As the CUDA driver reports it (cudaMemGetInfo).
  std::optional<std::size_t> device_memory_used() const override;
  std::optional<std::size_t> device_memory_total() const override;

  BasePlacement base_placement(const groth16::ProvingKey& key) const;
  // The key's queries on the device: "all", "none", or their names ("L, A").
  std::string resident_queries(const groth16::ProvingKey& key) const;
  // Since construction: the bytes the streamed MSMs sent over the link (from a
  // page-locked copy every point; otherwise the non-zero terms' points and indices),
  // the terms they did not send (zero scalars), and how many MSMs streamed. Waits
  // for a start() in progress.
  struct StreamedTotals {
    std::size_t bytes = 0;
    std::size_t zero_terms = 0;
    std::size_t sums = 0;
    // Of streamed evaluators' matrices (deferred witnesses whose evaluator did not
    // fit on the device), and how many evaluations streamed them.
    std::size_t evaluator_bytes = 0;
    std::size_t evaluations = 0;
  };
  StreamedTotals streamed_totals() const;
  // Page-locked host memory held now by copies of streamed keys' points and a
  // streamed evaluator's matrices (CudaProverOptions::pin_streamed_sources). Waits
  // for a start() in progress.
  std::size_t pinned_copy_bytes() const;
  // The least device memory a partition of this key needs: its working vectors (a,
  // b, c holding aux and the query scalars after the h step, the NTT's tables) and
  // the smallest streamed MSM, its points coming from host memory; for a deferred
  // witness of `evaluator`, its streamed evaluator's buffers on top. Below it,
  // start() refuses at once (groth16::DeviceOutOfMemory).
  static std::size_t least_device_bytes(const groth16::ProvingKey& key,
                                        const r1cs::CompiledR1cs* evaluator = nullptr);
  // Why a device-memory budget of `budget` bytes cannot prove this key ("the budget,
  // X GiB, is below the least … needs, Y GiB, …"); nothing when it can. The
  // command line's early refusal and start()'s say the same.
  static std::optional<std::string> budget_shortfall(const groth16::ProvingKey& key, std::size_t budget,
                                                     const r1cs::CompiledR1cs* evaluator = nullptr);
  // The key's points are on the device (resident, or set up there): without the
  // kernel region's lock, so it answers at once while a start() runs.
  bool holds_key(const groth16::ProvingKey& key) const override;
  std::optional<int> device_ordinal() const override;
  std::optional<Placement> placement() const override;
  // The evaluator, then the key's points, placed as the first start() would; a
  // budget that start() would refuse, or a placement that fails, leaves them to it.
  void prepare(const groth16::ProvingKey& key,
               const std::shared_ptr<const r1cs::CompiledR1cs>& evaluator) override;

  // Frees the device memory a key's points hold (after its last proof, or before
  // the key itself is destroyed), and the resident evaluator's; a later start()
  // with the key places them again. Waits for a start() in progress.
  void release(const groth16::ProvingKey& key);

 private:
  struct State;
  // Leaves the witness as it was when it throws, so that start() can try again.
  std::unique_ptr<groth16::PendingProof> start_on_device(groth16::PartitionWitness& witness,
                                                         const groth16::ProvingKey& key,
                                                         const groth16::Blinding& blinding);
  std::string out_of_memory_message(const groth16::ProvingKey& key, const std::string& what) const;
  std::unique_ptr<State> state_;
};

}  // namespace zkpipe::gpu
