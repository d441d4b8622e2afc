// Compaction: snapshots at times >= since are unchanged by compaction
// (randomized, against a naive model), including a snapshot that runs while
// compaction rewrites the history; reads below since fail cleanly; since
// and the stored counts survive a restart.

#include "storage/shard_store.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <map>
#include <random>
#include <thread>

#include <rocksdb/db.h>

#include "storage/shard_codec.hpp"
#include "storage/test_support.hpp"

using namespace tandem;
using namespace tandem::storage;
using tandem::storage::testing::numbered;
using tandem::storage::testing::open_durable;
using tandem::storage::testing::ScratchDir;
using tandem::storage::testing::Contents;
using tandem::storage::testing::model_at;
using tandem::storage::testing::open_shards;

namespace {


// Keys of `shard` stored at times < `time`.
size_t keys_below(const DurableStore& durable, ShardId shard, Timestamp time) {
  std::unique_ptr<rocksdb::Iterator> it(
      durable.db()->NewIterator(rocksdb::ReadOptions(), durable.handle(Family::kShards)));
  size_t n = 0;
  std::string end = shard_data_bound(shard, time);
  for (it->Seek(shard_data_bound(shard, 0)); it->Valid() && it->key().ToString() < end; it->Next()) {
    ++n;
  }
  return n;
}

// Appends `times` single-time batches of random updates, recording them.
void fill(ShardStore& store, ShardId shard, Timestamp times, std::mt19937_64& rng,
          std::vector<Update>* history) {
  for (Timestamp i = 0; i < times; ++i) {
    Timestamp t = *store.upper(shard);
    ShardAppend a{shard, {}, t, t + 1};
    for (int n = static_cast<int>(rng() % 4); n > 0; --n) {
      a.updates.push_back({numbered("r", rng() % 10), t, static_cast<Diff>(rng() % 5) - 2});
    }
    history->insert(history->end(), a.updates.begin(), a.updates.end());
    REQUIRE(store.append({a}).is_ok());
  }
}

}  // namespace

TEST_CASE("compaction preserves snapshots at times >= since") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable);
  std::mt19937_64 rng(1234);
  std::vector<Update> history;
  REQUIRE(store->create_shard(1, 0).is_ok());
  fill(*store, 1, 50, rng, &history);
  Timestamp since = 0;
  for (int round = 0; round < 25; ++round) {
    fill(*store, 1, 10, rng, &history);
    Timestamp upper = *store->upper(1);
    Timestamp target = since + rng() % (upper - since + 5);  // sometimes past upper
    REQUIRE(store->compact(1, target).is_ok());
    store->wait_for_compaction();
    Timestamp new_since = *store->since(1);
    CHECK(new_since >= since);  // never backwards
    CHECK(new_since == std::max(since, std::min(target, upper)));  // never past upper
    since = new_since;
    // The history below since is one consolidated batch (or none).
    CHECK(keys_below(*durable, 1, since + 1) <= 2);
    for (Timestamp t = since; t < upper; ++t) {
      auto snap = store->snapshot(1, t);
      REQUIRE(snap.ok());
      CHECK(*snap == model_at(history, t));
    }
    if (since > 0) {
      auto old = store->snapshot(1, since - 1);
      REQUIRE(!old.ok());
      CHECK(old.status().sqlstate() == "72000");
    }
  }
  CHECK(store->stats().compactions > 0);
  // Compacting backwards is a no-op.
  REQUIRE(store->compact(1, 0).is_ok());
  store->wait_for_compaction();
  CHECK(*store->since(1) == since);
}

TEST_CASE("a snapshot concurrent with compaction is exact or refused, never wrong") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable);
  std::mt19937_64 rng(99);
  std::vector<Update> history;
  REQUIRE(store->create_shard(1, 0).is_ok());
  fill(*store, 1, 400, rng, &history);
  const Timestamp upper = *store->upper(1);
  std::vector<Contents> expected;
  for (Timestamp t = 0; t < upper; ++t) expected.push_back(model_at(history, t));

  std::atomic<bool> done{false};
  std::atomic<int> exact{0};
  std::atomic<int> refused{0};
  std::atomic<int> wrong{0};
  // A reader at a fixed as_of that compaction never passes, and one whose
  // as_of compaction overtakes midway.
  auto reader = [&](bool chase) {
    Timestamp as_of = chase ? 0 : upper - 1;
    while (!done.load()) {
      auto snap = store->snapshot(1, as_of);
      if (snap.ok()) {
        ++exact;
        if (*snap != expected[as_of]) ++wrong;
      } else if (snap.status().sqlstate() == "72000") {
        ++refused;
        if (!chase) ++wrong;
      } else {
        ++wrong;
      }
      if (chase) as_of = std::min<Timestamp>(upper - 1, as_of + 3);
    }
  };
  std::thread steady(reader, false);
  std::thread chaser(reader, true);
  for (Timestamp since = 5; since < upper + 5; since += 5) {
    REQUIRE(store->compact(1, std::min(since, upper - 1)).is_ok());
    store->wait_for_compaction();
  }
  done = true;
  steady.join();
  chaser.join();
  INFO("exact " << exact << ", refused " << refused);
  CHECK(wrong == 0);
  CHECK(exact > 0);
  CHECK(*store->since(1) == upper - 1);
  CHECK(*store->snapshot(1, upper - 1) == expected.back());
}

TEST_CASE("since survives a restart, and the stored counts match a scan") {
  ScratchDir dir;
  std::mt19937_64 rng(7);
  std::vector<Update> history;
  // Rewrites only now and then, so most advances of since store no history.
  ShardCompactionOptions lazy;
  lazy.min_rewrite_bytes = size_t{1} << 30;
  lazy.min_rewrite_batches = 12;
  lazy.chunk_bytes = 64;  // a base of several chunks
  Timestamp since = 0;
  uint64_t rewrites = 0;
  for (int life = 0; life < 5; ++life) {
    auto durable = open_durable(dir.path(), /*sync=*/false);
    auto store = open_shards(*durable, lazy);
    if (life == 0) REQUIRE(store->create_shard(1, 0).is_ok());
    // Exactly where it was raised to before the restart, never lower, though
    // nothing was appended after the last advance.
    CHECK(*store->since(1) == since);
    for (int round = 0; round < 8; ++round) {
      fill(*store, 1, 1 + rng() % 9, rng, &history);
      const Timestamp upper = *store->upper(1);
      REQUIRE(store->compact(1, since + 1 + rng() % (upper - since)).is_ok());
      store->wait_for_compaction();
      since = *store->since(1);
      auto kept = store->stored(1);
      auto counted = store->storage_stats(1);
      REQUIRE(kept.ok());
      REQUIRE(counted.ok());
      CHECK(kept->stored_batches == counted->stored_batches);
      CHECK(kept->stored_bytes == counted->stored_bytes);
      CHECK(kept->frontiers.since == since);
    }
    CHECK(*store->snapshot(1, *store->upper(1) - 1) == model_at(history, *store->upper(1) - 1));
    rewrites += store->stats().compactions;
  }
  CHECK(rewrites > 0);
}
