#include "io/mapping_faults.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>

namespace zkpipe::io {

namespace {

constexpr std::size_t kNoDamage = std::numeric_limits<std::size_t>::max();

// One guarded mapping. The handler reads `start` and `bytes` between two reads of
// `version`; a writer makes it odd while it changes them (a sequence lock).
struct Slot {
  std::atomic<std::uint64_t> version{0};
  std::atomic<std::uintptr_t> start{0};
  std::atomic<std::size_t> bytes{0};  // 0: free
  std::atomic<std::size_t> first_damage{kNoDamage};
};

// Process-wide (see the header): constant-initialized, so valid before main and in
// the handler at any time.
std::array<Slot, kMaxGuardedMappings> g_slots;
std::mutex g_writers;
std::atomic<std::size_t> g_page_bytes{0};  // set by install, read by the handler
std::atomic<bool> g_installed{false};
struct sigaction g_previous {};           // written once, before the handler can run
std::once_flag g_install_once;

static_assert(std::atomic<std::uintptr_t>::is_always_lock_free && std::atomic<std::size_t>::is_always_lock_free &&
              std::atomic<std::uint64_t>::is_always_lock_free);

void write_slot(Slot& slot, std::uintptr_t start, std::size_t bytes) {
  const std::uint64_t v = slot.version.load(std::memory_order_relaxed);
  slot.version.store(v + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  slot.start.store(start, std::memory_order_relaxed);
  slot.bytes.store(bytes, std::memory_order_relaxed);
  slot.first_damage.store(kNoDamage, std::memory_order_relaxed);
  slot.version.store(v + 2, std::memory_order_release);
}

void lower_to(std::atomic<std::size_t>& value, std::size_t candidate) {
  std::size_t now = value.load(std::memory_order_relaxed);
  while (candidate < now && !value.compare_exchange_weak(now, candidate, std::memory_order_release)) {
  }
}

// Async-signal-safe: lock-free atomics and one mmap system call.
bool repair(const siginfo_t* info) {
  if (info->si_code != BUS_ADRERR) return false;  // not a read past the end of a file
  const std::size_t page = g_page_bytes.load(std::memory_order_relaxed);
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (Slot& slot : g_slots) {
    const std::uint64_t v = slot.version.load(std::memory_order_acquire);
    if (v % 2 != 0) continue;
    const std::uintptr_t start = slot.start.load(std::memory_order_relaxed);
    const std::size_t bytes = slot.bytes.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (slot.version.load(std::memory_order_relaxed) != v) continue;
    if (bytes == 0 || address < start || address - start >= bytes) continue;
    // Every page past the new end faults alike: one mapping from here to the end
    // answers them all (a later fault lower down replaces part of it).
    const std::uintptr_t from = address / page * page;
    const std::uintptr_t end = start + (bytes + page - 1) / page * page;
    void* zeros = ::mmap(reinterpret_cast<void*>(from), end - from, PROT_READ,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros == MAP_FAILED) return false;
    lower_to(slot.first_damage, from - start);
    return true;
  }
  return false;
}

void on_bus_error(int signal, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  if (repair(info)) {
    errno = saved_errno;
    return;  // the read is retried and finds zeros
  }
  if ((g_previous.sa_flags & SA_SIGINFO) != 0 && g_previous.sa_sigaction != nullptr) {
    g_previous.sa_sigaction(signal, info, context);
    return;
  }
  if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(signal);
    return;
  }
  // The default action: pending until this handler returns (SIGBUS is blocked in it).
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  ::sigaction(SIGBUS, &fallback, nullptr);
  ::raise(SIGBUS);
}

}  // namespace

void install_mapping_fault_handler() {
  std::call_once(g_install_once, [] {
    g_page_bytes.store(static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)), std::memory_order_relaxed);
    struct sigaction action {};
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    if (::sigaction(SIGBUS, &action, &g_previous) != 0) {
      throw std::system_error(errno, std::generic_category(), "installing the SIGBUS handler");
    }
    g_installed.store(true);
  });
}

bool mapping_fault_handler_installed() { return g_installed.load(); }

FaultGuard::FaultGuard(const void* start, std::size_t bytes) {
  if (bytes == 0) return;
  std::lock_guard lock(g_writers);
  for (std::size_t i = 0; i < g_slots.size(); ++i) {
    if (g_slots[i].bytes.load(std::memory_order_relaxed) != 0) continue;
    write_slot(g_slots[i], reinterpret_cast<std::uintptr_t>(start), bytes);
    slot_ = i;
    return;
  }
  throw std::length_error("more than " + std::to_string(kMaxGuardedMappings) + " files mapped at once");
}

FaultGuard::~FaultGuard() {
  if (!slot_) return;
  std::lock_guard lock(g_writers);
  write_slot(g_slots[*slot_], 0, 0);
}

std::optional<std::size_t> FaultGuard::damage() const {
  if (!slot_) return std::nullopt;
  const std::size_t at = g_slots[*slot_].first_damage.load(std::memory_order_acquire);
  if (at == kNoDamage) return std::nullopt;
  return at;
}

}  // namespace zkpipe::io
