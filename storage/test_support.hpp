#pragma once
// Helpers for the storage unit tests only: a scratch data directory that is
// removed when the test ends, and an open DurableStore over it.

#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "storage/durable_store.hpp"
#include "storage/shard_store.hpp"

#include <map>
#include <utility>
#include <vector>

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

using Contents = std::vector<std::pair<std::string, Diff>>;

// The naive model of a shard: the sum of diffs per row over the updates at
// times <= as_of, zero sums dropped, sorted by row.
inline Contents model_at(const std::vector<Update>& history, Timestamp as_of) {
  std::map<std::string, Diff> sums;
  for (const Update& u : history) {
    if (u.time <= as_of) sums[u.row] += u.diff;
  }
  Contents out;
  for (auto& [row, diff] : sums) {
    if (diff != 0) out.emplace_back(row, diff);
  }
  return out;
}

// Compaction that rewrites the history whenever since moves.
inline ShardCompactionOptions eager_compaction() {
  ShardCompactionOptions options;
  options.base_ratio = 0;
  options.min_rewrite_bytes = 0;
  options.min_rewrite_batches = 0;
  return options;
}

inline std::unique_ptr<ShardStore> open_shards(DurableStore& durable, ShardCompactionOptions options = eager_compaction()) {
  auto store = ShardStore::open(durable, options);
  REQUIRE(store.ok());
  return std::move(*store);
}

}  // namespace tandem::storage::testing
