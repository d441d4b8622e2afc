#pragma once
// Helpers for the storage unit tests only: a scratch data directory that is
// removed when the test ends, and an open DurableStore over it.

#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "storage/durable_store.hpp"

namespace tandem::storage::testing {

class ScratchDir {
 public:
  ScratchDir()
      : path_((std::filesystem::temp_directory_path() /
               ("tandem-storage-test-" + std::to_string(std::random_device{}())))
                  .string()) {}
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// "prefix<n>" (spelled out to dodge a GCC 12 -Wrestrict false positive on
// `"literal" + std::to_string(n)` in inlined code).
inline std::string numbered(const char* prefix, uint64_t n) {
  std::string s(prefix);
  s += std::to_string(n);
  return s;
}

inline std::unique_ptr<DurableStore> open_durable(const std::string& path, bool sync = true) {
  auto store = DurableStore::open({path, sync});
  REQUIRE(store.ok());
  return std::move(*store);
}

}  // namespace tandem::storage::testing
