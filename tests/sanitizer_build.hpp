// Which sanitizer this test program is built with (scripts/sanitize.sh): g++ defines
// __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__, clang answers through __has_feature.
// ZKPIPE_TEST_ASAN and ZKPIPE_TEST_TSAN are 1 or 0.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define ZKPIPE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZKPIPE_TEST_ASAN 1
#endif
#endif
#ifndef ZKPIPE_TEST_ASAN
#define ZKPIPE_TEST_ASAN 0
#endif

#if defined(__SANITIZE_THREAD__)
#define ZKPIPE_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ZKPIPE_TEST_TSAN 1
#endif
#endif
#ifndef ZKPIPE_TEST_TSAN
#define ZKPIPE_TEST_TSAN 0
#endif
