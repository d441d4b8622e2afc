// Spilling: a spilled batch reads back exactly (cursor walks and
// seeks equal the resident batch's), merges stream spilled inputs block by
// block, concurrent readers see consistent data while batches spill, the
// spill is deleted when the batch goes, and the budget picks coldest and
// largest first. Everything runs against the real RocksDB spill family.
#include <catch2/catch.hpp>

#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "compute/arrangement/batcher.hpp"
#include "compute/arrangement/memory_budget.hpp"
#include "compute/arrangement/merger.hpp"
#include "compute/arrangement/test_support.hpp"
#include "compute/arrangement/trace.hpp"
#include "compute/testing/spill_budget.hpp"

namespace tandem::compute {
namespace {

using testing::SpillBudget;
using testing::Update;

std::string key_of(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "k%07d", i);
  return buf;
}

// Keys 0, 2, 4, ... (2n of them), each with `vals` vals, some with several
// times: large enough for many 64 KiB blocks.
std::vector<Update> sample(int n, int vals, Timestamp upper) {
  std::vector<Update> out;
  for (int i = 0; i < n; ++i) {
    for (int v = 0; v < vals; ++v) {
      const std::string val = "val-" + std::to_string(v) + std::string(i % 13, 'x');
      out.emplace_back(key_of(2 * i), val, i % upper, 1);
      if (i % 5 == 0) out.emplace_back(key_of(2 * i), val, (i + 1) % upper, 2);
    }
  }
  return out;
}

BatchPtr build(const std::vector<Update>& updates, Timestamp lower, Timestamp upper) {
  Batcher batcher(lower);
  for (const auto& [k, v, t, d] : updates) batcher.push(k, v, t, d);
  return batcher.seal(upper);
}

bool spill(const BatchPtr& batch) { return batch->storage()->spill() > 0 || batch->storage()->spilled(); }

TEST_CASE("a spilled batch reads back like the resident one", "[arrangement][spill]") {
  SpillBudget fixture(0);  // unlimited: spill by hand
  const auto updates = sample(20000, 3, 10);
  const BatchPtr batch = build(updates, 0, 10);
  const auto resident = testing::dump(batch);
  const std::uint64_t resident_bytes = batch->memory_bytes();

  REQUIRE(spill(batch));
  CHECK(batch->storage()->spilled());
  CHECK(batch->source()->block_count() > 10);
  CHECK(batch->memory_bytes() < resident_bytes / 20);
  CHECK(fixture.budget().stats().spilled_bytes > 0);
  CHECK(testing::dump(batch) == resident);

  // Seeks: the same answers as a naive search over the resident dump.
  std::mt19937_64 rng(7);
  for (int round = 0; round < 50; ++round) {
    BatchCursor cursor(batch);
    int target = static_cast<int>(rng() % 100);
    while (target < 42000) {
      cursor.seek_key(key_of(target));
      const int expect = target % 2 == 0 ? target : target + 1;
      if (expect >= 40000) {
        CHECK_FALSE(cursor.key_valid());
        break;
      }
      REQUIRE(cursor.key_valid());
      REQUIRE(cursor.key() == key_of(expect));
      cursor.seek_val("val-2");
      REQUIRE(cursor.val_valid());
      CHECK(cursor.val().substr(0, 5) == "val-2");
      target += 1 + static_cast<int>(rng() % 3000);
    }
  }
  BatchCursor cursor(batch);
  cursor.seek_key(key_of(39000));
  cursor.rewind_keys();
  CHECK(cursor.key() == key_of(0));

  const auto stats = fixture.budget().stats();
  CHECK(stats.cache.misses > 0);
  CHECK(stats.cache.hits > 0);
  CHECK(stats.cache.cached_bytes <= stats.cache.capacity_bytes);
}

TEST_CASE("merges of spilled batches stream through a small block cache", "[arrangement][spill]") {
  SpillBudget fixture(0, 256 * 1024);  // a cache of four blocks
  const auto older = sample(15000, 2, 10);
  std::vector<Update> newer;
  for (const auto& [k, v, t, d] : sample(15000, 2, 10)) newer.emplace_back(k, v, 10 + t, -d);
  newer.emplace_back(key_of(1), "odd", 12, 1);
  const BatchPtr a = build(older, 0, 10);
  const BatchPtr b = build(newer, 10, 20);
  REQUIRE(spill(a));
  REQUIRE(spill(b));

  for (const Timestamp since : {Timestamp{0}, Timestamp{25}}) {
    Merger merger(a, b, since);
    while (!merger.done()) {
      std::int64_t fuel = 1000;
      merger.work(fuel);
      const auto stats = fixture.budget().stats();
      REQUIRE(stats.cache.cached_bytes <= stats.cache.capacity_bytes);
    }
    std::vector<Update> all = older;
    all.insert(all.end(), newer.begin(), newer.end());
    CHECK(testing::dump(merger.finish()) == testing::consolidate(all, since));
  }
}

TEST_CASE("spilled data is deleted when its batch is dropped", "[arrangement][spill]") {
  SpillBudget fixture(0);
  BatchPtr batch = build(sample(5000, 2, 4), 0, 4);
  REQUIRE(spill(batch));
  const std::uint64_t spilled = fixture.budget().stats().spilled_bytes;
  CHECK(spilled > 0);
  {
    BatchCursor reader(batch);  // a reader keeps it alive past the batch
    batch.reset();
    CHECK(fixture.budget().stats().spilled_bytes == spilled);
    reader.seek_key(key_of(9000));
    CHECK(reader.key() == key_of(9000));
  }
  CHECK(fixture.budget().stats().spilled_bytes == 0);
  CHECK(fixture.budget().stats().cache.cached_bytes == 0);
}

TEST_CASE("the budget spills the coldest and largest batches first", "[arrangement][spill]") {
  SpillBudget fixture(0);
  const BatchPtr cold = build(sample(3000, 1, 4), 0, 4);
  const BatchPtr small = build(sample(300, 1, 4), 4, 8);
  const BatchPtr hot = build(sample(3000, 1, 4), 8, 12);
  for (int i = 0; i < 3; ++i) (void)build(sample(10, 1, 4), 12, 16);  // ticks pass
  { BatchCursor touch(hot); }
  const std::uint64_t total = fixture.budget().stats().resident_bytes;
  // Room for all but about one large batch: the cold one goes.
  fixture.budget().set_limit(total - cold->memory_bytes() / 2);
  CHECK(cold->storage()->spilled());
  CHECK_FALSE(hot->storage()->spilled());
  CHECK_FALSE(small->storage()->spilled());
  CHECK(fixture.budget().stats().resident_bytes <= fixture.budget().limit());
  // A tiny limit spills everything; reads still answer.
  fixture.budget().set_limit(1);
  CHECK(hot->storage()->spilled());
  CHECK(small->storage()->spilled());
  CHECK(testing::dump(hot) == testing::consolidate(sample(3000, 1, 4)));
}

TEST_CASE("readers walk a trace while its batches spill and merge", "[arrangement][spill][concurrency]") {
  SpillBudget fixture(64 * 1024, 128 * 1024);  // spills almost everything
  Trace trace;
  TraceHandle hold = trace.handle();
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::atomic<int> walks{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&, handle = trace.handle()]() mutable {
      while (!stop.load(std::memory_order_acquire)) {
        const auto snapshot = handle.snapshot();
        if (snapshot->upper == 0) continue;
        // Every key inserted so far is present once with diff 1.
        CursorList cursor(snapshot->batches);
        std::int64_t n = 0;
        for_each_as_of(cursor, snapshot->upper - 1, [&](std::string_view, std::string_view, Diff d) {
          if (d != 1) bad.fetch_add(1);
          ++n;
        });
        if (n != static_cast<std::int64_t>(snapshot->upper) * 200) bad.fetch_add(1);
        walks.fetch_add(1);
      }
    });
  }
  for (Timestamp t = 0; t < 60; ++t) {
    Batcher batcher(t);
    for (int j = 0; j < 200; ++j) batcher.push(key_of(static_cast<int>(t) * 200 + j), "v", t, 1);
    trace.insert(batcher.seal(t + 1));
    hold.set_logical_compaction(t);
  }
  while (walks.load() < 6) std::this_thread::yield();
  stop.store(true);
  for (auto& reader : readers) reader.join();
  CHECK(bad.load() == 0);
  CHECK(fixture.budget().stats().spilled_batches > 0);
  CHECK(fixture.budget().stats().resident_bytes <= 64 * 1024 + 16 * 1024);
}

}  // namespace
}  // namespace tandem::compute
