#include "service/queue/local/job_id_floor.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "service/queue/job_record.hpp"

namespace zkpipe::service::queue::local {

namespace {

// Twenty digits hold any 64-bit id; one fixed width so that each write replaces the whole record.
constexpr std::size_t kRecordBytes = 21;

std::string describe_errno(const std::filesystem::path& path, const std::string& what) {
  return path.string() + ": " + what + ": " + std::strerror(errno);
}

int open_record(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) throw StoreError(describe_errno(path, "cannot open the job id record"));
  return fd;
}

}  // namespace

JobIdFloor::JobIdFloor(std::filesystem::path path) : path_(std::move(path)), fd_(open_record(path_)) {
  std::array<char, 64> buffer{};
  ssize_t n = 0;
  do {
    n = ::pread(fd_.get(), buffer.data(), buffer.size(), 0);
  } while (n < 0 && errno == EINTR);
  if (n < 0) throw StoreError(describe_errno(path_, "cannot read the job id record"));
  std::string_view text(buffer.data(), static_cast<std::size_t>(n));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  if (text.empty()) return;  // just created
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value_);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw StoreError(path_.string() +
                     ": damaged: expected the last job id given out, in decimal; it keeps ids from being reused "
                     "(restore it, or write into it the highest job id clients may still hold)");
  }
}

void JobIdFloor::raise(std::uint64_t id) {
  if (id <= value_) return;
  std::array<char, kRecordBytes + 1> record{};
  std::snprintf(record.data(), record.size(), "%020llu\n", static_cast<unsigned long long>(id));
  ssize_t n = 0;
  do {
    n = ::pwrite(fd_.get(), record.data(), kRecordBytes, 0);
  } while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(kRecordBytes)) {
    throw StoreError(n < 0 ? describe_errno(path_, "cannot record job id " + std::to_string(id))
                           : path_.string() + ": short write recording job id " + std::to_string(id));
  }
  value_ = id;
}

std::filesystem::path JobIdFloor::beside(const std::filesystem::path& journal) {
  return journal.parent_path() / (journal.stem().string() + ".last-id");
}

}  // namespace zkpipe::service::queue::local
