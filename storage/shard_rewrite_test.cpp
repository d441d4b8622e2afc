// Bounded storage values and the streaming history rewrite: appends are cut
// into chunks; a rewrite with tiny chunks and runs equals a from-scratch
// consolidation and holds only a few chunks in memory; the geometric policy
// skips rewrites that would not pay; a data dir in the layout before chunks
// still loads; a process killed mid-rewrite leaves an exact shard.

#include "storage/shard_store.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "storage/shard_codec.hpp"
#include "storage/test_support.hpp"

using namespace tandem;
using namespace tandem::storage;
using tandem::storage::testing::Contents;
using tandem::storage::testing::eager_compaction;
using tandem::storage::testing::model_at;
using tandem::storage::testing::numbered;
using tandem::storage::testing::open_durable;
using tandem::storage::testing::open_shards;
using tandem::storage::testing::ScratchDir;

extern char** environ;

namespace {

struct KeyCount {
  size_t keys = 0;
  size_t largest = 0;  // of the chunks compaction wrote
  size_t largest_append = 0;
  size_t by_part[3] = {0, 0, 0};
};

KeyCount count(const DurableStore& durable, ShardId shard) {
  KeyCount c;
  std::unique_ptr<rocksdb::Iterator> it(
      durable.db()->NewIterator(rocksdb::ReadOptions(), durable.handle(Family::kShards)));
  std::string end = shard_data_end(shard);
  for (it->Seek(shard_data_bound(shard, 0)); it->Valid() && it->key().ToString() < end; it->Next()) {
    auto key = decode_shard_data_key(std::string_view(it->key().data(), it->key().size()));
    REQUIRE(key);
    ++c.keys;
    ++c.by_part[std::min<uint8_t>(key->part, 2)];
    size_t& largest = key->part == kAppendPart ? c.largest_append : c.largest;
    largest = std::max(largest, it->value().size());
  }
  return c;
}

// `times` appends of `per_time` updates over `rows` distinct rows of
// `row_bytes` bytes each (so later updates cancel earlier ones).
std::vector<Update> fill(ShardStore& store, ShardId shard, Timestamp times, int per_time, uint64_t rows,
                         size_t row_bytes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Update> history;
  for (Timestamp i = 0; i < times; ++i) {
    Timestamp t = *store.upper(shard);
    ShardAppend a{shard, {}, t, t + 1};
    for (int n = 0; n < per_time; ++n) {
      std::string row = numbered("r", rng() % rows);
      row.resize(row_bytes, 'x');
      a.updates.push_back({row, t, static_cast<Diff>(rng() % 3) - 1});
    }
    history.insert(history.end(), a.updates.begin(), a.updates.end());
    REQUIRE(store.append({a}).is_ok());
  }
  return history;
}

void check_reads(ShardStore& store, ShardId shard, const std::vector<Update>& history) {
  ShardFrontiers f = *store.frontiers(shard);
  for (Timestamp t = f.since; t < f.upper; t += std::max<Timestamp>(1, (f.upper - f.since) / 7)) {
    CHECK(*store.snapshot(shard, t) == model_at(history, t));
  }
  CHECK(*store.snapshot(shard, f.upper - 1) == model_at(history, f.upper - 1));
}

ShardCompactionOptions tiny() {
  ShardCompactionOptions o = eager_compaction();
  o.chunk_bytes = 4 << 10;
  o.run_bytes = 16 << 10;
  o.fan_in = 3;
  return o;
}

}  // namespace

TEST_CASE("an append is stored in chunks of bounded size, read back whole") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 0).is_ok());
  ShardAppend big{1, {}, 0, 1};
  big.encoded_time = 0;
  std::vector<Update> history;
  for (int i = 0; i < 40000; ++i) {
    std::string row = numbered("row", i);
    row.resize(90, 'y');
    append_batch_entry(&big.encoded, row, 1);
    history.push_back({row, 0, 1});
  }
  REQUIRE(big.encoded.size() > 3 * kMaxChunkBytes);
  REQUIRE(store->append({big}).is_ok());
  KeyCount c = count(*durable, 1);
  CHECK(c.keys >= 3);
  CHECK(c.keys <= big.encoded.size() / kMaxChunkBytes + 1);
  CHECK(c.largest_append <= kMaxChunkBytes + 128);
  CHECK(*store->snapshot(1, 0) == model_at(history, 0));
  CHECK(store->storage_stats(1)->stored_batches == c.keys);
}

TEST_CASE("a streaming rewrite equals a from-scratch consolidation and holds a few chunks") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable, tiny());
  REQUIRE(store->create_shard(1, 0).is_ok());
  // ~1.3 MB of updates over 3000 rows of 40 bytes: many runs, several
  // merge passes, a base of many chunks.
  std::vector<Update> history = fill(*store, 1, 150, 200, 3000, 40, 7);
  size_t history_bytes = 0;
  for (const Update& u : history) history_bytes += u.row.size() + 2;
  Timestamp since = 0;
  for (int round = 0; round < 3; ++round) {
    since += 50;
    REQUIRE(store->compact(1, since).is_ok());
    store->wait_for_compaction();
    REQUIRE(*store->since(1) == since);
    check_reads(*store, 1, history);
    KeyCount c = count(*durable, 1);
    CHECK(c.by_part[kRunPart] == 0);  // runs are gone once committed
    CHECK(c.largest <= (4 << 10) + 64);
    std::vector<Update> more = fill(*store, 1, 10, 50, 3000, 40, 100 + round);
    history.insert(history.end(), more.begin(), more.end());
  }
  ShardStoreStats stats = store->stats();
  CHECK(stats.compactions == 3);
  CHECK(stats.staged_chunks > 20);
  INFO("peak " << stats.rewrite_peak_bytes << " of " << history_bytes << " bytes of history");
  // The run buffer plus one chunk per merged cursor and the output chunk.
  CHECK(stats.rewrite_peak_bytes <= (16 << 10) + 6 * ((4 << 10) + 64) + 3000);
  CHECK(stats.rewrite_peak_bytes * 20 < history_bytes);
}

TEST_CASE("a rewrite waits until the appended bytes reach the base's size") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  ShardCompactionOptions o;
  o.min_rewrite_bytes = 0;
  o.min_rewrite_batches = 1;
  auto store = open_shards(*durable, o);
  REQUIRE(store->create_shard(1, 0).is_ok());
  std::vector<Update> history = fill(*store, 1, 20, 100, 500, 20, 1);
  REQUIRE(store->compact(1, 20).is_ok());
  store->wait_for_compaction();
  REQUIRE(store->stats().compactions == 1);
  const uint64_t base = store->storage_stats(1)->stored_bytes;
  // Small appends: since advances, the history is not rewritten yet.
  uint64_t appended = 0;
  uint64_t rewrites = 1;
  for (int i = 0; i < 60; ++i) {
    std::vector<Update> more = fill(*store, 1, 1, 20, 500, 20, 50 + i);
    for (const Update& u : more) appended += u.row.size() + 2;
    history.insert(history.end(), more.begin(), more.end());
    REQUIRE(store->compact(1, *store->upper(1) - 1).is_ok());
    store->wait_for_compaction();
    CHECK(*store->since(1) == *store->upper(1) - 1);
    if (appended < base) CHECK(store->stats().compactions == rewrites);
    rewrites = store->stats().compactions;
  }
  CHECK(rewrites > 1);
  CHECK(rewrites < 30);
  check_reads(*store, 1, history);
}

TEST_CASE("a data dir with the layout before chunks loads and compacts") {
  ScratchDir dir;
  std::vector<Update> history;
  {
    auto durable = open_durable(dir.path(), /*sync=*/false);
    rocksdb::WriteBatch batch;
    auto legacy_key = [](Timestamp t, uint8_t part) { return shard_data_key(3, t, part).substr(0, 17); };
    for (Timestamp t = 0; t < 10; ++t) {
      std::string value;
      append_batch_entry(&value, numbered("k", t % 3), 1);
      history.push_back({numbered("k", t % 3), t, 1});
      batch.Put(durable->handle(Family::kShards), legacy_key(t, kAppendPart), value);
    }
    std::string meta(16, '\0');
    meta[7] = 10;  // be64 upper = 10, be64 since = 0
    batch.Put(durable->handle(Family::kMeta), shard_meta_key(3), meta);
    REQUIRE(durable->db()->Write(rocksdb::WriteOptions(), &batch).ok());
  }
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable);
  REQUIRE(store->frontiers(3)->upper == 10);
  // The old record has no stored counts: the shard was counted at open.
  CHECK(store->stored(3)->stored_batches == 10);
  CHECK(store->stored(3)->stored_bytes == store->storage_stats(3)->stored_bytes);
  check_reads(*store, 3, history);
  REQUIRE(store->compact(3, 6).is_ok());
  store->wait_for_compaction();
  check_reads(*store, 3, history);
  CHECK(count(*durable, 3).keys == 1 + 4);  // the base at 6 and the appends at 6..9
  CHECK(store->stored(3)->stored_batches == 1 + 4);
  CHECK(store->stored(3)->stored_bytes == store->storage_stats(3)->stored_bytes);
}

// The child of the crash test: rewrites the history of shard 1 in the data
// dir named by TANDEM_CRASH_DIR and kills itself once the rewrite has staged
// TANDEM_CRASH_AFTER chunks durably (exit code 3 if the rewrite committed
// first). Hidden: it runs only when named.
TEST_CASE("crash child: rewrite shard 1", "[.crash-child]") {
  const char* path = std::getenv("TANDEM_CRASH_DIR");
  REQUIRE(path != nullptr);
  const uint64_t after = std::strtoull(std::getenv("TANDEM_CRASH_AFTER"), nullptr, 10);
  auto durable = open_durable(path, /*sync=*/true);
  auto store = open_shards(*durable, tiny());
  REQUIRE(store->compact(1, std::atoll(std::getenv("TANDEM_CRASH_SINCE"))).is_ok());
  // Watches the rewrite from this thread (a test child, not tandemd): each
  // staged chunk is an fsynced write, far slower than this loop.
  for (;;) {
    ShardStoreStats stats = store->stats();
    if (stats.staged_chunks >= after) raise(SIGKILL);
    if (stats.compactions > 0) std::_Exit(3);
    std::this_thread::yield();
  }
}

TEST_CASE("a process killed during a rewrite leaves the shard exact") {
  ScratchDir dir;
  std::vector<Update> history;
  {
    auto durable = open_durable(dir.path(), /*sync=*/false);
    auto store = open_shards(*durable, tiny());
    REQUIRE(store->create_shard(1, 0).is_ok());
    history = fill(*store, 1, 100, 200, 3000, 40, 11);
  }
  std::mt19937_64 rng(5);
  int interrupted = 0;
  for (int attempt = 0; attempt < 5; ++attempt) {
    Timestamp since = 20 + 15 * static_cast<Timestamp>(attempt);
    std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::string dir_env = "TANDEM_CRASH_DIR=" + dir.path();
    std::string since_env = "TANDEM_CRASH_SINCE=" + std::to_string(since);
    // Killed after the first staged chunk, or a few later.
    std::string after_env = "TANDEM_CRASH_AFTER=" + std::to_string(attempt == 0 ? 1 : 1 + rng() % 6);
    std::vector<char*> envp;
    for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
    envp.push_back(dir_env.data());
    envp.push_back(since_env.data());
    envp.push_back(after_env.data());
    envp.push_back(nullptr);
    std::string name = "crash child: rewrite shard 1";
    char* argv[] = {self.data(), name.data(), nullptr};
    pid_t child = 0;
    REQUIRE(posix_spawn(&child, self.c_str(), nullptr, nullptr, argv, envp.data()) == 0);
    int status = 0;
    waitpid(child, &status, 0);
    if (WIFSIGNALED(status)) ++interrupted;

    auto durable = open_durable(dir.path(), /*sync=*/false);
    auto store = open_shards(*durable, tiny());
    INFO("attempt " << attempt << ": since " << *store->since(1));
    check_reads(*store, 1, history);
  }
  INFO("interrupted " << interrupted << " of 5");
  CHECK(interrupted > 0);
  // A later rewrite clears what the interrupted ones staged.
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable, tiny());
  REQUIRE(store->compact(1, 99).is_ok());
  store->wait_for_compaction();
  check_reads(*store, 1, history);
  KeyCount c = count(*durable, 1);
  CHECK(c.by_part[kRunPart] == 0);
  CHECK(c.keys == store->storage_stats(1)->stored_batches);
}

TEST_CASE("with the default policy, many small appends are rewritten once since passes them") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable, ShardCompactionOptions{});
  REQUIRE(store->create_shard(1, 100).is_ok());
  std::vector<Update> history;
  for (Timestamp t = 100; t < 200; ++t) {
    ShardAppend a{1, {}, t, t + 1};
    a.encoded_time = t;
    append_batch_entry(&a.encoded, "row", 1);
    history.push_back({"row", t, 1});
    REQUIRE(store->append({a}).is_ok());
  }
  REQUIRE(store->compact(1, 190).is_ok());
  store->wait_for_compaction();
  CHECK(store->stats().compactions == 1);
  CHECK(store->storage_stats(1)->stored_batches == 11);  // the base at 190, the appends at 190..199
  check_reads(*store, 1, history);
}
