// Runs the whole compute test binary under a memory budget when
// TANDEM_TEST_MEMORY_LIMIT is set (e.g. "1MB"): every batch the tests seal is
// then admitted to a real MemoryBudget over a scratch RocksDB spill family and
// spilled as soon as the budget is exceeded, so every cursor, merge and peek
// in every test also runs over spilled batches (the CI job
// in scripts/test.sh). Tests that install their own budget (SpillBudget)
// restore this one when they finish.
#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "compute/testing/spill_budget.hpp"

namespace tandem::compute::testing {
namespace {

// "1MB", "512kB", "4GB" or plain bytes; 0 when absent or unparsable.
std::uint64_t limit_from_env() {
  const char* text = std::getenv("TANDEM_TEST_MEMORY_LIMIT");
  if (text == nullptr) return 0;
  std::size_t used = 0;
  const std::string s(text);
  std::uint64_t n = 0;
  try {
    n = std::stoull(s, &used);
  } catch (...) {
    return 0;
  }
  const std::string unit = s.substr(used);
  if (unit == "kB" || unit == "KB") return n << 10;
  if (unit == "MB") return n << 20;
  if (unit == "GB") return n << 30;
  return unit.empty() || unit == "B" ? n : 0;
}

struct SpillEnvListener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;

  void testRunStarting(Catch::TestRunInfo const&) override {
    const std::uint64_t limit = limit_from_env();
    if (limit == 0) return;
    // A small block cache too (1 MB), so reads really go back to RocksDB.
    budget = std::make_unique<SpillBudget>(limit, 1 << 20);
    std::cerr << "compute tests: memory budget " << limit << " bytes (TANDEM_TEST_MEMORY_LIMIT)\n";
  }
  void testRunEnded(Catch::TestRunStats const&) override {
    if (budget != nullptr) {
      const MemoryBudgetStats stats = budget->budget().stats();
      std::cerr << "compute tests: " << stats.spilled_batches << " batches spilled, block cache "
                << stats.cache.hits << " hits / " << stats.cache.misses << " misses\n";
    }
    budget.reset();
  }

  std::unique_ptr<SpillBudget> budget;
};

CATCH_REGISTER_LISTENER(SpillEnvListener)

}  // namespace
}  // namespace tandem::compute::testing
