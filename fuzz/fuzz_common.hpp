// What every fuzz target shares: the input written to a file of this process's own
// (for the readers that take a path), and TBB held to one thread so that a run is
// deterministic (libFuzzer's coverage feedback and a crash's replay see the same
// schedule) and leaves the other core to the next target or to other work.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <tbb/global_control.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace zkpipe::fuzz {

inline void init_single_thread() {
  static tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
}

// A temporary file unique to this process (mkstemp under $TMPDIR), rewritten with
// each input and removed at exit. A crash leaves it behind; the input that caused it
// is what libFuzzer saves as crash-<sha1>.
class InputFile {
 public:
  explicit InputFile(const char* tag) {
    std::string pattern = (std::filesystem::temp_directory_path() / (std::string("zkpipe-fuzz-") + tag + "-XXXXXX")).string();
    fd_ = ::mkstemp(pattern.data());
    if (fd_ < 0) {
      std::perror("zkpipe fuzz: mkstemp");
      std::abort();
    }
    path_ = pattern;
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }

  // The file now holds exactly `size` bytes of `data`.
  const std::filesystem::path& write(const std::uint8_t* data, std::size_t size) {
    if (::ftruncate(fd_, 0) != 0) fail("ftruncate");
    std::size_t done = 0;
    while (done < size) {
      const ssize_t n = ::pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail("pwrite");
      done += static_cast<std::size_t>(n);
    }
    return path_;
  }

 private:
  [[noreturn]] static void fail(const char* what) {
    std::perror(what);
    std::abort();
  }

  int fd_ = -1;
  std::filesystem::path path_;
};

// A property the reader documents was broken: stop the run so libFuzzer reports it.
#define ZKPIPE_FUZZ_CHECK(condition)                                                   \
  do {                                                                                 \
    if (!(condition)) {                                                                \
      std::fprintf(stderr, "zkpipe fuzz: check failed at %s:%d: %s\n", __FILE__, __LINE__, \
                   #condition);                                                        \
      std::abort();                                                                    \
    }                                                                                  \
  } while (0)

}  // namespace zkpipe::fuzz
