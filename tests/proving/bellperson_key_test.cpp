// A .params through its key cache (proving/bellperson_key): converted once and mapped
// afterwards, a damaged cache converted again with the reason kept, and a file at the
// cache's place that is not this .params's cache left as it is while the key is read
// whole. Every path gives the key the .params holds.
#include "proving/bellperson_key.hpp"

#include <gtest/gtest.h>
#include <sys/mount.h>

#include <cerrno>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "ec/ec_test_util.hpp"
#include "ec/serialization.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/format_error.hpp"
#include "groth16/parameter_file.hpp"
#include "io/file_mapping.hpp"
#include "tiny_key.hpp"

namespace zkpipe::proving {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;
using testing::tiny_circuit;
using testing::tiny_key;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class BellpersonKeyCache : public ::testing::Test {
 protected:
  void SetUp() override {
    params_ = dir_.path() / "tiny.params";
    cache_ = default_key_cache(params_);
    formats::write_bellperson_params(params_, *tiny_key(5));
  }

  CachedBellpersonKey load() const {
    return load_bellperson_key(io::FileMapping::open(params_), params_.string(), requirements_, cache_);
  }

  ScratchDir dir_;
  fs::path params_;
  fs::path cache_;
  const formats::CircuitRequirements requirements_ = bellperson_requirements(*tiny_circuit());
};

TEST_F(BellpersonKeyCache, TheCacheLiesBesideTheParams) {
  EXPECT_EQ(cache_, dir_.path() / "tiny.params.zkp");
}

TEST_F(BellpersonKeyCache, ConvertedOnceThenMapped) {
  const CachedBellpersonKey first = load();
  EXPECT_TRUE(first.converted);
  ASSERT_NE(first.cache_mapping, nullptr);
  EXPECT_TRUE(first.passed_over.empty()) << first.passed_over;
  EXPECT_TRUE(first.not_cached.empty()) << first.not_cached;
  EXPECT_TRUE(groth16::is_parameter_file(cache_));
  EXPECT_EQ(first.key, *tiny_key(5));

  const CachedBellpersonKey second = load();
  EXPECT_FALSE(second.converted);
  ASSERT_NE(second.cache_mapping, nullptr);
  EXPECT_TRUE(second.passed_over.empty()) << second.passed_over;
  EXPECT_TRUE(second.not_cached.empty()) << second.not_cached;
  EXPECT_EQ(second.key, *tiny_key(5));
}

TEST_F(BellpersonKeyCache, ADamagedCacheIsConvertedAgain) {
  load();
  fs::resize_file(cache_, fs::file_size(cache_) / 2);
  const CachedBellpersonKey again = load();
  EXPECT_TRUE(again.converted);
  EXPECT_NE(again.passed_over.find("truncated"), std::string::npos) << again.passed_over;
  EXPECT_TRUE(again.not_cached.empty()) << again.not_cached;
  EXPECT_EQ(again.key, *tiny_key(5));
  EXPECT_FALSE(load().converted);  // sound again
}

// A cache its file system has no room for is not attempted (a conversion that fills the
// disk fails only after writing for minutes): the key is read whole and not_cached says
// what the cache needs and what is free. Where this machine lets the test mount a tmpfs.
TEST_F(BellpersonKeyCache, NoRoomForTheCacheReadsTheKeyWhole) {
  const fs::path small = dir_.path() / "small";
  fs::create_directories(small);
  if (::mount("zkpipe-test", small.c_str(), "tmpfs", 0, "size=16k") != 0) {
    GTEST_SKIP() << "no tmpfs can be mounted here: " << std::strerror(errno);
  }
  struct Unmount {
    fs::path at;
    ~Unmount() { ::umount(at.c_str()); }
  } unmount{small};
  const fs::path cache = small / "tiny.params.zkp";
  const CachedBellpersonKey got =
      load_bellperson_key(io::FileMapping::open(params_), params_.string(), requirements_, cache);
  EXPECT_FALSE(got.converted);
  EXPECT_EQ(got.cache_mapping, nullptr);
  EXPECT_NE(got.not_cached.find(cache.string() + ": not written: the key cache needs about "), std::string::npos)
      << got.not_cached;
  EXPECT_NE(got.not_cached.find(" free"), std::string::npos) << got.not_cached;
  EXPECT_FALSE(fs::exists(cache));
  EXPECT_EQ(got.key, *tiny_key(5));
}

// A cache converted with --no-subgroup-check is not trusted by a run that checks: it
// converts again, with the check, which names a point outside the subgroup.
TEST_F(BellpersonKeyCache, ACacheConvertedWithoutTheSubgroupCheckIsCheckedByACheckingRun) {
  const formats::BellpersonReadOptions unchecked{.check_subgroup = false};
  auto load_with = [&](const formats::BellpersonReadOptions& options) {
    return load_bellperson_key(io::FileMapping::open(params_), params_.string(), requirements_, cache_, options);
  };
  EXPECT_TRUE(load_with(unchecked).converted);
  EXPECT_FALSE(groth16::points_subgroup_checked(*io::FileMapping::open(cache_)));
  EXPECT_FALSE(load_with(unchecked).converted) << "an unchecking run uses it as it is";
  const CachedBellpersonKey checked = load();
  EXPECT_TRUE(checked.converted);
  EXPECT_NE(checked.passed_over.find("without the subgroup check"), std::string::npos) << checked.passed_over;
  EXPECT_EQ(checked.key, *tiny_key(5));
  EXPECT_TRUE(groth16::points_subgroup_checked(*io::FileMapping::open(cache_)));
  EXPECT_FALSE(load().converted);

  // H's first point replaced by one of the whole curve group: the unchecking run
  // caches it, the checking run after it names it.
  std::string bytes = read_text(params_);
  const groth16::ProvingKey& key = *tiny_key(5);
  const std::size_t g1 = ec::kUncompressedSize<ec::G1Curve>;
  const std::size_t first_h = 3 * g1 + 3 * ec::kUncompressedSize<ec::G2Curve> + 4 + key.vk.ic.size() * g1 + 4;
  ec::test::Rng rng(7);
  const auto outside = ec::test::random_curve_point<ec::G1Curve>(rng);
  ASSERT_FALSE(ec::test::in_subgroup_by_order(outside));
  const auto encoded = ec::encode_uncompressed(outside);
  std::copy(encoded.begin(), encoded.end(), bytes.begin() + static_cast<std::ptrdiff_t>(first_h));
  fs::remove(cache_);
  std::ofstream(params_, std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_TRUE(load_with(unchecked).converted);
  try {
    load();
    ADD_FAILURE() << "a cached point outside the subgroup was trusted by a checking run";
  } catch (const formats::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("h point 0: point is not in the prime-order subgroup"), std::string::npos)
        << e.what();
  }
}

TEST_F(BellpersonKeyCache, AFileThatIsNoCacheIsLeftAsItIs) {
  std::ofstream(cache_, std::ios::binary) << "not a key";
  const CachedBellpersonKey key = load();
  EXPECT_FALSE(key.converted);
  EXPECT_EQ(key.cache_mapping, nullptr);
  EXPECT_EQ(key.not_cached, cache_.string() + " is not a zkpipe parameter file, left as it is");
  EXPECT_EQ(key.key, *tiny_key(5));
  EXPECT_EQ(read_text(cache_), "not a key");
}

TEST_F(BellpersonKeyCache, TheCacheOfOtherParamsIsLeftAsItIs) {
  load();
  const std::string others = read_text(cache_);
  formats::write_bellperson_params(params_, *tiny_key(6));
  const CachedBellpersonKey key = load();
  EXPECT_FALSE(key.converted);
  EXPECT_EQ(key.cache_mapping, nullptr);
  EXPECT_NE(key.not_cached.find("holds another key (its verifying key is not the .params's"), std::string::npos)
      << key.not_cached;
  EXPECT_EQ(key.key, *tiny_key(6));
  EXPECT_EQ(read_text(cache_), others);
}

TEST_F(BellpersonKeyCache, ParamsOfAnotherCircuitAreRefusedBeforeAnyConversion) {
  formats::CircuitRequirements larger = requirements_;
  larger.num_constraints *= 4;
  EXPECT_THROW(load_bellperson_key(io::FileMapping::open(params_), params_.string(), larger, cache_),
               formats::FormatError);
  EXPECT_FALSE(fs::exists(cache_));
}

}  // namespace
}  // namespace zkpipe::proving
