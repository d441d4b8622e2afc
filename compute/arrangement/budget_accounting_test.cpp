// What the memory budget counts: the memory builders and
// batchers hold, not what they use. A vector that doubled holds up to twice
// its entries, and a batcher's buffer is a run of an eighth of the limit
// (three with its sort's scratch): at 11.6M rows under 256 MB, counting the
// used bytes only let builders and batchers hold about 190 MB on top of the
// limit (bench/HISTORY.md). Reserving capacity is the deterministic way to
// make held and used differ, so the tests reserve and then push past one
// check (a spill block of growth). Runs against the real RocksDB spill family.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "compute/arrangement/batcher.hpp"
#include "compute/arrangement/builder.hpp"
#include "compute/arrangement/memory_budget.hpp"
#include "compute/arrangement/spilled_batch_storage.hpp"
#include "compute/testing/spill_budget.hpp"

namespace tandem::compute {
namespace {

using testing::SpillBudget;

constexpr std::uint64_t kKeys = 200000;
constexpr std::uint64_t kKeyBytes = 16;
constexpr std::uint64_t kValBytes = 48;

std::string key_of(std::uint64_t i) {
  std::string key = std::to_string(1000000000 + i);
  key.resize(kKeyBytes, 'k');
  return key;
}

// Pushes keys until more than two spill blocks of columns were added, so
// the builder looked at its budget at least once.
void push_past_a_check(BatchBuilder& builder, std::uint64_t* next_key) {
  const std::string val(kValBytes, 'v');
  const std::uint64_t keys = 2 * SpilledBatchStorage::kBlockBytes / (kKeyBytes + kValBytes + 48) + 1;
  for (std::uint64_t i = 0; i < keys; ++i, ++*next_key) builder.push(key_of(*next_key), val, 1, 1);
}

}  // namespace

TEST_CASE("a builder counts the capacity its columns hold", "[arrangement][spill][budget]") {
  SpillBudget spill(1ull << 40);  // never binds
  MemoryBudget& budget = spill.budget();
  std::uint64_t next_key = 0;
  {
    BatchBuilder builder;
    builder.reserve(kKeys, kKeys * kKeyBytes, kKeys, kKeys * kValBytes, kKeys);
    const std::uint64_t reserved = 16 * kKeys + kKeys * kKeyBytes + 16 * kKeys + kKeys * kValBytes + 16 * kKeys;
    push_past_a_check(builder, &next_key);
    const std::uint64_t used = next_key * (kKeyBytes + kValBytes + 48);
    INFO("building " << budget.stats().building_bytes << ", reserved " << reserved << ", used about " << used);
    CHECK(used < reserved / 4);
    CHECK(budget.stats().building_bytes >= reserved);
    BatchPtr batch = builder.done(Description{0, 2, 0});
    CHECK(batch->update_count() == next_key);
    CHECK(budget.stats().building_bytes == 0);
  }
  CHECK(budget.stats().building_bytes == 0);
}

TEST_CASE("a builder whose budget binds frees its columns as it streams them", "[arrangement][spill][budget]") {
  SpillBudget spill(1);  // binds at once
  MemoryBudget& budget = spill.budget();
  BatchBuilder builder;
  // Capped at a sixteenth of the limit: nothing reserved.
  builder.reserve(kKeys, kKeys * kKeyBytes, kKeys, kKeys * kValBytes, kKeys);
  std::uint64_t next_key = 0;
  for (int i = 0; i < 20; ++i) {
    push_past_a_check(builder, &next_key);
    // At most what was pushed since the last stream, in columns that grew
    // by doubling from empty.
    CHECK(budget.stats().building_bytes <= 8 * SpilledBatchStorage::kBlockBytes);
  }
  CHECK(builder.streamed_bytes() > 0);
  BatchPtr batch = builder.done(Description{0, 2, 0});
  CHECK(batch->update_count() == next_key);
  CHECK(budget.stats().building_bytes == 0);
}

TEST_CASE("a builder streams once building bytes alone pass half the limit, with nothing resident",
          "[arrangement][spill][budget]") {
  // Several builders of a hydration's last merges grew together until their
  // bytes alone reached the limit, on top of what was resident; now each
  // streams past half of it.
  const std::uint64_t held = [] {
    SpillBudget spill(1ull << 40);
    BatchBuilder builder;
    std::uint64_t k = 0;
    push_past_a_check(builder, &k);
    return spill.budget().stats().building_bytes;  // what the builder counts after a check
  }();
  REQUIRE(held > 0);
  // Two checks' worth is over half this limit, and under it.
  SpillBudget spill(held * 5 / 2);
  MemoryBudget& budget = spill.budget();
  BatchBuilder builder;
  std::uint64_t next_key = 0;
  push_past_a_check(builder, &next_key);
  push_past_a_check(builder, &next_key);
  CHECK(budget.stats().resident_bytes == 0);
  CHECK(builder.streamed_bytes() > 0);
  BatchPtr batch = builder.done(Description{0, 2, 0});
  CHECK(batch->update_count() == next_key);
  CHECK(batch->storage()->spilled());
  CHECK(budget.stats().building_bytes == 0);
}

TEST_CASE("a batcher counts its buffer in the budget and frees it when a seal empties it",
          "[arrangement][spill][budget]") {
  SpillBudget spill(1ull << 30);  // a run is 128 MiB: no run is cut here
  MemoryBudget& budget = spill.budget();
  constexpr std::uint64_t kUpdates = 100000;
  {
    Batcher batcher;
    batcher.reserve(kUpdates, kUpdates * (kKeyBytes + kValBytes));
    const std::uint64_t reserved = kUpdates * sizeof(Batcher::Record) + kUpdates * (kKeyBytes + kValBytes);
    const std::string val(kValBytes, 'v');
    std::uint64_t pushed = 0;
    // More than a spill block of buffer: the batcher counts it.
    for (; pushed * (sizeof(Batcher::Record) + kKeyBytes + kValBytes) <= 2 * SpilledBatchStorage::kBlockBytes;
         ++pushed) {
      batcher.push(key_of(kUpdates - pushed), val, 1, 1);
    }
    INFO("building " << budget.stats().building_bytes << ", reserved " << reserved);
    CHECK(budget.stats().building_bytes >= reserved);
    BatchPtr batch = batcher.seal(2);
    CHECK(batch->update_count() == pushed);
    CHECK(budget.stats().building_bytes == 0);
  }
  CHECK(budget.stats().building_bytes == 0);
}

TEST_CASE("a batcher's count is released when it is destroyed or moved", "[arrangement][spill][budget]") {
  SpillBudget spill(1ull << 30);
  MemoryBudget& budget = spill.budget();
  const std::string val(kValBytes, 'v');
  {
    Batcher first;
    for (std::uint64_t i = 0; i < 4000; ++i) first.push(key_of(i), val, 1, 1);
    const std::uint64_t counted = budget.stats().building_bytes;
    CHECK(counted > SpilledBatchStorage::kBlockBytes);
    Batcher second = std::move(first);
    CHECK(budget.stats().building_bytes == counted);  // counted once, by `second`
  }
  CHECK(budget.stats().building_bytes == 0);
}

// Several arrangements filling at once (the workers' hydrations, a
// Reduce's parts): each batcher's run is an eighth of the limit, so eight of
// them held the whole limit in unsorted buffers (twice that in capacity)
// before any spilled. Once building bytes pass half the limit, a batcher
// cuts an eighth of a run and frees its buffer.
TEST_CASE("batchers filling at once share the limit", "[arrangement][spill][budget]") {
  constexpr std::uint64_t kLimit = 16ull << 20;  // a run is 2 MiB
  SpillBudget spill(kLimit);
  MemoryBudget& budget = spill.budget();
  constexpr int kBatchers = 8;
  std::vector<Batcher> batchers(kBatchers);
  const std::string val(kValBytes, 'v');
  // Each batcher gets just under a run: none would cut one on its own.
  const std::uint64_t per_batcher = Batcher::run_bytes() / (sizeof(Batcher::Record) + kKeyBytes + kValBytes) - 16;
  std::uint64_t peak = 0;
  for (std::uint64_t i = 0; i < per_batcher; ++i) {
    for (int b = 0; b < kBatchers; ++b) batchers[b].push(key_of(per_batcher * b + i), val, 1, 1);
    peak = std::max(peak, budget.stats().building_bytes);
  }
  INFO("peak building " << peak << " of a limit of " << kLimit);
  CHECK(peak <= kLimit * 3 / 4);
  std::uint64_t runs = 0;
  for (const Batcher& b : batchers) runs += b.run_count();
  CHECK(runs > 0);
  for (int b = 0; b < kBatchers; ++b) CHECK(batchers[b].seal(2)->update_count() == per_batcher);
  CHECK(budget.stats().building_bytes == 0);
}

}  // namespace tandem::compute
