// A real MemoryBudget for compute tests (*_test.cpp only): a scratch RocksDB
// data directory with the storage layer's spill family (RocksSpillStore),
// installed as the process's budget for the fixture's lifetime and the
// previous budget restored afterwards. Tests link tandem_storage for this;
// the compute library itself does not.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>

#include "compute/arrangement/memory_budget.hpp"
#include "storage/durable_store.hpp"
#include "storage/rocks_spill_store.hpp"

namespace tandem::compute::testing {

class SpillBudget {
 public:
  explicit SpillBudget(std::uint64_t limit_bytes,
                       std::uint64_t cache_bytes = MemoryBudget::kDefaultCacheBytes)
      : path_((std::filesystem::temp_directory_path() /
               ("tandem-spill-test-" + std::to_string(std::random_device{}())))
                  .string()),
        previous_(MemoryBudget::current()) {
    auto durable = storage::DurableStore::open({path_, false});
    if (!durable.ok()) throw std::runtime_error("spill test store: " + durable.status().message());
    // Spilled batches a test still holds keep the store and its database open.
    std::shared_ptr<storage::DurableStore> db(std::move(*durable));
    store_ = std::shared_ptr<storage::RocksSpillStore>(new storage::RocksSpillStore(*db),
                                                       [db](storage::RocksSpillStore* s) { delete s; });
    budget_ = std::make_shared<MemoryBudget>(store_, limit_bytes, cache_bytes);
    MemoryBudget::install(budget_);
  }
  ~SpillBudget() {
    MemoryBudget::install(previous_);
    budget_.reset();
    store_.reset();
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  SpillBudget(const SpillBudget&) = delete;
  SpillBudget& operator=(const SpillBudget&) = delete;

  MemoryBudget& budget() { return *budget_; }

 private:
  std::string path_;
  std::shared_ptr<MemoryBudget> previous_;
  std::shared_ptr<storage::RocksSpillStore> store_;
  std::shared_ptr<MemoryBudget> budget_;
};

}  // namespace tandem::compute::testing
