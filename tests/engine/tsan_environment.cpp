// Under ThreadSanitizer only (scripts/sanitize.sh): oneTBB's prebuilt libtbb.so is not
// instrumented, so a task that a TBB worker thread steals crosses threads without a
// happens-before edge TSan can see, and every parallel_for in the prover would be
// reported as racing. Held to one thread (no workers), each parallel region runs
// inline on the thread that calls it, in that thread's own implicit arena, and what
// TSan checks is the engine's own concurrency: its synthesis, device, finalizer,
// dealloc and completion threads, the channel and queues between them, the ledger,
// admission and cancellation, with the real CPU backend's work on those threads.
#include "sanitizer_build.hpp"

#if ZKPIPE_TEST_TSAN
#include <tbb/global_control.h>

namespace {
const tbb::global_control one_tbb_thread(tbb::global_control::max_allowed_parallelism, 1);
}  // namespace
#endif
