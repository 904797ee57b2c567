// The stages a partition's buffers pass through in the engine, plus the kinds of
// memory that belong to no partition stage (parameters, backend scratch, device
// memory): the tags the ledger counts bytes under. The engine's lifecycle hooks, at
// which a partition moves from one stage to the next, are in engine/hook.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace zkpipe::memory {

enum class Stage : std::uint8_t {
  synthesizing,      // a synthesis worker is building the witness
  queued,            // synthesized, in (or waiting to enter) the device channel
  on_device,         // the prover's start(): a, b, c in use
  pending_finalize,  // start() returned, a/b/c freed; waiting for / inside finish()
  awaiting_dealloc,  // proof done; the dealloc thread has yet to free the witness
  parameters,        // proving keys resident for the engine
  scratch,           // backend working memory (pinned staging included: it is host memory)
  device,            // GPU memory held by a device backend (resident bases, pools)
};

inline constexpr std::size_t kStageCount = 8;

inline constexpr std::array<Stage, kStageCount> kAllStages = {
    Stage::synthesizing,     Stage::queued,     Stage::on_device, Stage::pending_finalize,
    Stage::awaiting_dealloc, Stage::parameters, Stage::scratch,   Stage::device};

// Whether a stage's bytes are host memory. Device memory is not in RSS, so it stays
// out of the ledger's host totals (tracked, count) that are reconciled with RSS
// and held under the memory budget; it has only its own stage totals.
inline constexpr bool is_host(Stage stage) { return stage != Stage::device; }

// Long names for tables and traces: "synthesizing", "on device", …
std::string_view stage_name(Stage stage);
// The short keys of the log_buffers line: synth, queued, gpu, finalize, dealloc, params, scratch, dev.
std::string_view stage_key(Stage stage);

inline constexpr std::size_t index_of(Stage stage) { return static_cast<std::size_t>(stage); }

}  // namespace zkpipe::memory
