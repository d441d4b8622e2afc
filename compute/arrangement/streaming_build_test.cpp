// Streaming output under a binding budget: a builder whose
// budget binds writes finished keys to the spill as it goes, so merges and
// seals produce batches born spilled, equal to the in-memory result, while
// the builder holds no more than about a spill block. A failing spill write
// leaves the rest resident (partly spilled) and loses nothing. Runs against
// the real RocksDB spill family.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compute/arrangement/batcher.hpp"
#include "compute/arrangement/memory_budget.hpp"
#include "compute/arrangement/merger.hpp"
#include "compute/arrangement/test_support.hpp"
#include "compute/testing/spill_budget.hpp"

namespace tandem::compute {
namespace {

using testing::SpillBudget;
using testing::Update;

std::vector<Update> random_updates(std::mt19937_64& rng, int n, Timestamp lower, Timestamp upper) {
  std::vector<Update> out;
  for (int i = 0; i < n; ++i) {
    const std::string key = "key" + std::to_string(rng() % (n / 2 + 1));
    const std::string val = std::string(1 + rng() % 40, static_cast<char>('a' + rng() % 3));
    const Diff diff = rng() % 4 == 0 ? -1 : 1;
    out.emplace_back(key, val, lower + rng() % (upper - lower), diff);
  }
  return out;
}

BatchPtr seal(const std::vector<Update>& updates, Timestamp lower, Timestamp upper) {
  Batcher batcher(lower);
  for (const auto& [k, v, t, d] : updates) batcher.push(k, v, t, d);
  return batcher.seal(upper);
}

BatchPtr merge_all(const BatchPtr& a, const BatchPtr& b, Timestamp since, MemoryBudget* budget,
                   std::uint64_t* peak_building) {
  Merger merger(a, b, since);
  while (!merger.done()) {
    std::int64_t fuel = 5000;
    merger.work(fuel);
    if (budget != nullptr)
      *peak_building = std::max(*peak_building, budget->stats().building_bytes);
  }
  return merger.finish();
}

TEST_CASE("a merge under a binding budget streams its output and equals the in-memory merge",
          "[arrangement][spill]") {
  std::mt19937_64 rng(GENERATE(1, 2, 3));
  const int n = 20000 + static_cast<int>(rng() % 20000);
  const auto older = random_updates(rng, n, 0, 10);
  const auto newer = random_updates(rng, n, 10, 20);
  const Timestamp since = rng() % 25;

  std::vector<Update> expected;
  {
    SpillBudget unlimited(0);
    const BatchPtr merged = merge_all(seal(older, 0, 10), seal(newer, 10, 20), since, nullptr, nullptr);
    CHECK_FALSE(merged->storage()->spilled());
    expected = testing::dump(merged);
  }
  std::vector<Update> all = older;
  all.insert(all.end(), newer.begin(), newer.end());
  REQUIRE(expected == testing::consolidate(all, since));

  SpillBudget fixture(256 * 1024);  // the inputs alone exceed it
  const BatchPtr a = seal(older, 0, 10);
  const BatchPtr b = seal(newer, 10, 20);
  std::uint64_t peak = 0;
  const BatchPtr merged = merge_all(a, b, since, &fixture.budget(), &peak);
  CHECK(merged->storage()->spilled());
  CHECK(merged->source()->block_count() > 1);
  CHECK(merged->update_count() == expected.size());
  CHECK(testing::dump(merged) == expected);
  // The builder used at most the budget's room plus about one block (it
  // checks at key boundaries, every block's worth of growth).
  CHECK(peak <= 256 * 1024 + 2 * SpilledBatchStorage::kBlockBytes);
  CHECK(fixture.budget().stats().building_bytes == 0);
}

TEST_CASE("a seal under a binding budget is born spilled", "[arrangement][spill]") {
  std::mt19937_64 rng(11);
  const auto updates = random_updates(rng, 50000, 0, 5);
  SpillBudget fixture(64 * 1024);
  const BatchPtr batch = seal(updates, 0, 5);
  CHECK(batch->storage()->spilled());
  CHECK(testing::dump(batch) == testing::consolidate(updates));
  const auto stats = fixture.budget().stats();
  CHECK(stats.building_bytes == 0);
  CHECK(stats.resident_bytes <= 64 * 1024);
  CHECK(stats.spilled_bytes > 0);
}

TEST_CASE("without a binding budget the builder keeps its output resident", "[arrangement][spill]") {
  std::mt19937_64 rng(5);
  const auto updates = random_updates(rng, 20000, 0, 5);
  SpillBudget fixture(512ull << 20);
  const BatchPtr batch = seal(updates, 0, 5);
  CHECK_FALSE(batch->storage()->spilled());
  CHECK(batch->source()->block_count() == 1);
  CHECK(fixture.budget().stats().building_bytes == 0);
}

// Delegates to the real spill store and fails every write after `allowed`
// (a full disk, say).
class FailingAfter final : public SpillStore {
 public:
  FailingAfter(std::shared_ptr<SpillStore> store, int allowed) : store_(std::move(store)), allowed_(allowed) {}
  Status put_block(std::uint64_t id, std::uint32_t block, std::string_view bytes) override {
    if (allowed_.fetch_sub(1) <= 0) return Status::error(sqlstate::kIoError, "injected write failure");
    return store_->put_block(id, block, bytes);
  }
  Status get_block(std::uint64_t id, std::uint32_t block, std::string& out) const override {
    return store_->get_block(id, block, out);
  }
  Status erase(std::uint64_t id) override { return store_->erase(id); }

 private:
  std::shared_ptr<SpillStore> store_;
  std::atomic<int> allowed_;
};

TEST_CASE("a spill write failure mid-build leaves the rest resident and loses nothing",
          "[arrangement][spill]") {
  std::mt19937_64 rng(17);
  const auto updates = random_updates(rng, 60000, 0, 5);
  SpillBudget fixture(0);
  auto failing = std::make_shared<FailingAfter>(fixture.budget().store(), 3);
  auto budget = std::make_shared<MemoryBudget>(failing, 64 * 1024);
  MemoryBudget::install(budget);  // the fixture restores the one before it
  BatchBuilder builder;
  for (const auto& [k, v, t, d] : testing::consolidate(updates)) builder.push(k, v, t, d);
  const BatchPtr batch = builder.done(Description{0, 5, 0});
  CHECK_FALSE(batch->storage()->spilled());
  // Spilled blocks (up to three), then the resident rest.
  CHECK(batch->source()->block_count() >= 2);
  CHECK(batch->source()->block_count() <= 4);
  CHECK(batch->source()->spilled_bytes() > 0);
  CHECK(testing::dump(batch) == testing::consolidate(updates));
  CHECK(budget->stats().building_bytes == 0);
}

// Seals a sequence of pushes and seals under the current budget; returns
// every sealed batch's dump and the most runs seen.
struct SealLog {
  std::vector<std::vector<Update>> batches;
  std::size_t most_runs = 0;
};

SealLog run_batcher(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Batcher batcher(0);
  SealLog log;
  Timestamp upper = 0;
  for (int round = 0; round < 4; ++round) {
    // Pushes at times up to 30 ahead of the current lower: some stay
    // buffered across seals (and may have been cut into runs).
    for (const auto& [k, v, t, d] : random_updates(rng, 15000, batcher.lower(), batcher.lower() + 30))
      batcher.push(k, v, t, d);
    log.most_runs = std::max(log.most_runs, batcher.run_count());
    upper += 1 + rng() % 20;
    const Timestamp since = rng() % 2 == 0 ? batcher.lower() : upper - 1;
    log.batches.push_back(testing::dump(batcher.seal(upper, since)));
  }
  log.batches.push_back(testing::dump(batcher.seal(kMaxTimestamp)));
  return log;
}

TEST_CASE("a batcher under a binding budget seals from runs what it seals in memory",
          "[arrangement][spill]") {
  const std::uint64_t seed = GENERATE(21, 22, 23);
  SealLog in_memory;
  {
    SpillBudget unlimited(0);
    in_memory = run_batcher(seed);
  }
  CHECK(in_memory.most_runs == 0);
  SpillBudget fixture(256 * 1024);  // runs of 64 KiB of buffer
  const SealLog from_runs = run_batcher(seed);
  CHECK(from_runs.most_runs > 1);
  CHECK(from_runs.most_runs < 12);  // merged like a binary counter
  REQUIRE(from_runs.batches.size() == in_memory.batches.size());
  for (std::size_t i = 0; i < in_memory.batches.size(); ++i) CHECK(from_runs.batches[i] == in_memory.batches[i]);
  CHECK(fixture.budget().stats().building_bytes == 0);
}

}  // namespace
}  // namespace tandem::compute
