#include "proving/evaluator_cache.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "groth16/evaluator_file.hpp"
#include "groth16/synthesis.hpp"
#include "tiny_key.hpp"

namespace zkpipe::proving {
namespace {

using testing::ScratchDir;
using testing::tiny_circuit;
using testing::tiny_key;

void flip_byte(const std::filesystem::path& file, std::streamoff at) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(at);
  char c = 0;
  f.get(c);
  f.seekp(at);
  f.put(static_cast<char>(c ^ 0x5a));
}

TEST(EvaluatorPath, ReplacesTheKeysExtension) {
  EXPECT_EQ(evaluator_path("params/porep-like-tiny.zkpk"), std::filesystem::path("params/porep-like-tiny.zkpev"));
  EXPECT_EQ(evaluator_path("key"), std::filesystem::path("key.zkpev"));
}

TEST(EvaluatorCache, CompilesAndSavesThenLoadsWhatItSaved) {
  ScratchDir dir;
  const auto key = tiny_key(5);
  const auto circuit = tiny_circuit();
  const auto key_path = dir.path() / "key.zkp";
  const CachedEvaluator compiled = load_or_compile_evaluator(key_path, *key, *circuit);
  EXPECT_FALSE(compiled.loaded());
  EXPECT_TRUE(compiled.passed_over.empty());
  EXPECT_TRUE(compiled.not_cached.empty()) << compiled.not_cached;
  EXPECT_EQ(compiled.path, dir.path() / "key.zkpev");
  ASSERT_TRUE(std::filesystem::exists(compiled.path));
  // No half-written file is left beside it.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);

  const CachedEvaluator loaded = load_or_compile_evaluator(key_path, *key, *circuit);
  EXPECT_TRUE(loaded.loaded());
  EXPECT_TRUE(loaded.passed_over.empty());
  EXPECT_TRUE(loaded.evaluator->storage_is_file_mapping);
  EXPECT_EQ(groth16::shape_hash(*loaded.evaluator), groth16::shape_hash(*compiled.evaluator));
  // And it is this circuit's evaluator: the same as compiling it from scratch.
  EXPECT_EQ(groth16::shape_hash(*loaded.evaluator), groth16::shape_hash(groth16::compile_circuit(*circuit)));
}

TEST(EvaluatorCache, AnEvaluatorOfAnotherKeyIsPassedOverAndRebuilt) {
  ScratchDir dir;
  const auto circuit = tiny_circuit();
  load_or_compile_evaluator(dir.path() / "other.zkp", *tiny_key(6), *circuit);
  std::filesystem::copy_file(dir.path() / "other.zkpev", dir.path() / "key.zkpev");

  const CachedEvaluator rebuilt = load_or_compile_evaluator(dir.path() / "key.zkp", *tiny_key(5), *circuit);
  EXPECT_FALSE(rebuilt.loaded());
  EXPECT_NE(rebuilt.passed_over.find("key.zkpev"), std::string::npos) << rebuilt.passed_over;
  EXPECT_NE(rebuilt.passed_over.find("another proving key"), std::string::npos) << rebuilt.passed_over;
  // The cache now holds this key's evaluator.
  const CachedEvaluator again = load_or_compile_evaluator(dir.path() / "key.zkp", *tiny_key(5), *circuit);
  EXPECT_TRUE(again.loaded());
  EXPECT_TRUE(again.passed_over.empty()) << again.passed_over;
}

TEST(EvaluatorCache, ADamagedCacheIsNamedAndRebuilt) {
  ScratchDir dir;
  const auto key = tiny_key(5);
  const auto circuit = tiny_circuit();
  const auto key_path = dir.path() / "key.zkp";
  const CachedEvaluator first = load_or_compile_evaluator(key_path, *key, *circuit);
  // Inside the first section (sections start at 4096).
  flip_byte(first.path, 5000);

  const CachedEvaluator rebuilt = load_or_compile_evaluator(key_path, *key, *circuit);
  EXPECT_FALSE(rebuilt.loaded());
  EXPECT_NE(rebuilt.passed_over.find("key.zkpev"), std::string::npos) << rebuilt.passed_over;
  EXPECT_NE(rebuilt.passed_over.find("checksum mismatch"), std::string::npos) << rebuilt.passed_over;
  EXPECT_EQ(groth16::shape_hash(*rebuilt.evaluator), groth16::shape_hash(*first.evaluator));
  EXPECT_TRUE(load_or_compile_evaluator(key_path, *key, *circuit).loaded());
}

TEST(EvaluatorCache, ATruncatedCacheIsNamedAndRebuilt) {
  ScratchDir dir;
  const auto key = tiny_key(5);
  const auto circuit = tiny_circuit();
  const auto key_path = dir.path() / "key.zkp";
  const CachedEvaluator first = load_or_compile_evaluator(key_path, *key, *circuit);
  std::filesystem::resize_file(first.path, 100);

  const CachedEvaluator rebuilt = load_or_compile_evaluator(key_path, *key, *circuit);
  EXPECT_FALSE(rebuilt.loaded());
  EXPECT_NE(rebuilt.passed_over.find("key.zkpev"), std::string::npos) << rebuilt.passed_over;
  EXPECT_TRUE(load_or_compile_evaluator(key_path, *key, *circuit).loaded());
}

// A link in the cache's place is not followed (the cache lies where the key does):
// it is replaced by the rebuilt file, and what it pointed at is left alone.
TEST(EvaluatorCache, ALinkIsNotFollowed) {
  ScratchDir dir;
  const auto key = tiny_key(5);
  const auto circuit = tiny_circuit();
  load_or_compile_evaluator(dir.path() / "elsewhere.zkp", *key, *circuit);
  const auto target = dir.path() / "elsewhere.zkpev";
  const auto target_size = std::filesystem::file_size(target);
  std::filesystem::create_symlink(target, dir.path() / "key.zkpev");

  const CachedEvaluator rebuilt = load_or_compile_evaluator(dir.path() / "key.zkp", *key, *circuit);
  EXPECT_FALSE(rebuilt.loaded());
  EXPECT_NE(rebuilt.passed_over.find("key.zkpev"), std::string::npos) << rebuilt.passed_over;
  EXPECT_FALSE(std::filesystem::is_symlink(dir.path() / "key.zkpev"));
  EXPECT_EQ(std::filesystem::file_size(target), target_size);
  EXPECT_TRUE(load_or_compile_evaluator(dir.path() / "key.zkp", *key, *circuit).loaded());
}

TEST(EvaluatorCache, AnUnwritableDirectoryLeavesTheEvaluatorInMemory) {
  ScratchDir dir;
  // A regular file where the key's directory would be: nothing can be created there
  // (whoever runs the test, root included).
  std::ofstream(dir.path() / "not-a-dir") << "x";
  const CachedEvaluator compiled = load_or_compile_evaluator(dir.path() / "not-a-dir" / "key.zkp", *tiny_key(5),
                                                             *tiny_circuit());
  EXPECT_FALSE(compiled.loaded());
  ASSERT_NE(compiled.evaluator, nullptr);
  EXPECT_FALSE(compiled.evaluator->storage_is_file_mapping);
  EXPECT_NE(compiled.not_cached.find("key.zkpev"), std::string::npos) << compiled.not_cached;
}

}  // namespace
}  // namespace zkpipe::proving
