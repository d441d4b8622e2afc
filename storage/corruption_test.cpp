// Damage to the data directory is reported, never read around: a corrupt
// SST block fails the read that reaches it (XX001) rather than returning
// fewer rows, a damaged or missing WAL stops the open unless
// recover_torn_wal is set, a damaged MANIFEST stops the open, and
// DurableStore::verify reports each.

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/table_properties.h>

#include "storage/shard_codec.hpp"
#include "storage/test_support.hpp"
#include "tests/support/file_damage.hpp"

using namespace tandem;
using namespace tandem::storage;
using namespace tandem::storage::testing;
using tandem::testing::flip_bytes;
using tandem::testing::largest_file;
namespace fs = std::filesystem;

namespace {

// A shard store with shards 1..count, empty.
std::unique_ptr<ShardStore> open_with_shards(DurableStore& durable, ShardId count) {
  auto store = open_shards(durable);
  for (ShardId shard = 1; shard <= count; ++shard) REQUIRE(store->create_shard(shard, 0).is_ok());
  return store;
}

// `batches` appends of `rows` rows (about 100 bytes each) to shard 1 from
// its upper on; each append is its own key, several SST blocks apart.
void append_rows(ShardStore& store, int batches, int rows, std::vector<Update>* history) {
  for (int b = 0; b < batches; ++b) {
    Timestamp t = *store.upper(1);
    ShardAppend a{1, {}, t, t + 1};
    for (int r = 0; r < rows; ++r) {
      std::string row = numbered("row", static_cast<uint64_t>(t) * 1000 + r);
      row.resize(100, 'x');
      a.updates.push_back({row, t, 1});
      history->push_back({row, t, 1});
    }
    REQUIRE(store.append({a}).is_ok());
  }
}

// Rewrites shard 1's history below `since` and drops shard 2: the deletes
// that used to be range tombstones.
void rewrite_and_drop(ShardStore& store, Timestamp since) {
  REQUIRE(store.compact(1, since).is_ok());
  store.wait_for_compaction();
  REQUIRE(store.drop_shard(2).is_ok());
}

uint64_t total_rows(const std::vector<std::pair<std::string, Diff>>& contents) {
  uint64_t n = 0;
  for (const auto& [row, diff] : contents) n += static_cast<uint64_t>(diff);
  return n;
}

}  // namespace

TEST_CASE("a corrupt SST block under a compacted, dropped history fails the read, never fewer rows") {
  ScratchDir dir;
  std::vector<Update> history;
  {
    auto durable = open_durable(dir.path());
    auto store = open_with_shards(*durable, 2);
    append_rows(*store, 100, 100, &history);
    // The old history on the last level, then a rewrite that deletes it
    // and a drop: what used to leave range tombstones over it.
    rocksdb::CompactRangeOptions bottom;
    bottom.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    REQUIRE(durable->db()->CompactRange(bottom, durable->handle(Family::kShards), nullptr, nullptr).ok());
    rewrite_and_drop(*store, 50);
    append_rows(*store, 200, 100, &history);
    store.reset();
    REQUIRE(durable->close().is_ok());
  }
  const uint64_t expected = history.size();
  const std::string sst = largest_file(dir.path(), ".sst");
  flip_bytes(sst, fs::file_size(sst) / 2, 64);

  auto durable = DurableStore::open({dir.path(), true});
  if (!durable.ok()) {
    CHECK(durable.status().sqlstate() == "XX001");
  } else {
    auto store = ShardStore::open(**durable, eager_compaction());
    if (store.ok()) {
      auto contents = (*store)->snapshot(1, *(*store)->upper(1) - 1);
      INFO("rows read: " << (contents.ok() ? total_rows(*contents) : 0) << " of " << expected);
      REQUIRE(!contents.ok());
      CHECK(contents.status().sqlstate() == "XX001");
      CHECK(contents.status().message().find("shard 1") != std::string::npos);
    } else {
      CHECK(store.status().sqlstate() == "XX001");
    }
    (*durable)->close();
  }
  VerifyReport report = DurableStore::verify(dir.path());
  CHECK(!report.damage.empty());
}

TEST_CASE("a clean data directory verifies clean and writes no range tombstones") {
  ScratchDir dir;
  std::vector<Update> history;
  {
    auto durable = open_durable(dir.path());
    auto store = open_with_shards(*durable, 2);
    append_rows(*store, 20, 10, &history);
    rewrite_and_drop(*store, 10);
    REQUIRE(*store->snapshot(1, 19) == model_at(history, 19));
    REQUIRE(durable->db()->Flush(rocksdb::FlushOptions(), durable->handle(Family::kShards)).ok());
    rocksdb::TablePropertiesCollection tables;
    REQUIRE(durable->db()->GetPropertiesOfAllTables(durable->handle(Family::kShards), &tables).ok());
    for (const auto& [file, props] : tables) CHECK(props->num_range_deletions == 0);
    store.reset();
    REQUIRE(durable->close().is_ok());
  }
  VerifyReport report = DurableStore::verify(dir.path());
  CHECK(report.damage.empty());
  CHECK(report.keys > 0);
}

namespace {

// A store whose last writes are only in the WAL (the process "crashed":
// the database is not closed, so nothing is flushed).
void write_unflushed(const std::string& path, std::vector<Update>* history) {
  auto durable = open_durable(path);
  auto store = open_with_shards(*durable, 1);
  append_rows(*store, 200, 20, history);
  store.reset();
  // Leaked on purpose: RocksDB's destructor would flush the memtables.
  (void)durable.release();
}

// Writes rows in a child process that exits without closing its database
// (so they live only in the WAL); returns the WAL's path.
std::string crash_after_unflushed_writes(const std::string& path) {
  pid_t child = fork();
  if (child == 0) {
    std::vector<Update> h;
    write_unflushed(path, &h);
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  return largest_file(path, ".log");
}

// The open fails with XX001 naming `wal`, and --verify reports damage.
void check_open_refused(const std::string& path, const std::string& wal) {
  auto refused = DurableStore::open({path, true});
  REQUIRE(!refused.ok());
  CHECK(refused.status().sqlstate() == "XX001");
  CHECK(refused.status().message().find(fs::path(wal).filename().string()) != std::string::npos);
  CHECK(!DurableStore::verify(path).damage.empty());
}

}  // namespace

TEST_CASE("a corrupt WAL record stops the open, naming the file, unless the torn tail is dropped") {
  ScratchDir dir;
  const std::string wal = crash_after_unflushed_writes(dir.path());
  REQUIRE(fs::file_size(wal) > 100000);
  flip_bytes(wal, 60000, 16);
  check_open_refused(dir.path(), wal);

  auto recovered = DurableStore::open({dir.path(), true, /*recover_torn_wal=*/true});
  REQUIRE(recovered.ok());
  REQUIRE(!(*recovered)->recovery_report().empty());
  CHECK((*recovered)->recovery_report().front().find(fs::path(wal).filename().string()) != std::string::npos);
  REQUIRE((*recovered)->close().is_ok());
  // Recovered and closed cleanly: it opens and verifies clean again.
  CHECK(DurableStore::verify(dir.path()).damage.empty());
  REQUIRE(DurableStore::open({dir.path(), true}).ok());
}

TEST_CASE("a deleted WAL that held acknowledged writes stops the open") {
  ScratchDir dir;
  const std::string wal = crash_after_unflushed_writes(dir.path());
  fs::remove(wal);
  check_open_refused(dir.path(), wal);
  auto recovered = DurableStore::open({dir.path(), true, /*recover_torn_wal=*/true});
  REQUIRE(recovered.ok());
  CHECK(!(*recovered)->recovery_report().empty());
  // The WAL the recovered store writes is listed: losing it is detected too.
  std::ifstream list(fs::path(dir.path()) / "TANDEM_WALS");
  std::string listed((std::istreambuf_iterator<char>(list)), std::istreambuf_iterator<char>());
  CHECK(listed == fs::path(largest_file(dir.path(), ".log")).filename().string() + "\n");
}

TEST_CASE("a clean close leaves nothing a deleted WAL could lose") {
  ScratchDir dir;
  {
    auto durable = open_durable(dir.path());
    REQUIRE(durable->put(Family::kCatalog, "u1", "CREATE TABLE t (a int)").is_ok());
    REQUIRE(durable->close().is_ok());
  }
  for (const auto& e : fs::directory_iterator(dir.path())) {
    if (e.path().extension() == ".log") fs::remove(e.path());
  }
  auto durable = DurableStore::open({dir.path(), true});
  REQUIRE(durable.ok());
  CHECK(**(*durable)->get(Family::kCatalog, "u1") == "CREATE TABLE t (a int)");
}

TEST_CASE("a corrupt MANIFEST stops the open and is reported by verify") {
  ScratchDir dir;
  {
    auto durable = open_durable(dir.path());
    REQUIRE(durable->put(Family::kCatalog, "u1", "CREATE TABLE t (a int)").is_ok());
    REQUIRE(durable->close().is_ok());
  }
  const std::string found = largest_file(dir.path(), "MANIFEST-");
  flip_bytes(found, fs::file_size(found) / 2, 16);
  auto refused = DurableStore::open({dir.path(), true});
  REQUIRE(!refused.ok());
  CHECK(refused.status().sqlstate() == "XX001");
  CHECK(!DurableStore::verify(dir.path()).damage.empty());
}

TEST_CASE("open compacts away the range tombstones an older version wrote") {
  ScratchDir dir;
  {
    auto durable = open_durable(dir.path());
    rocksdb::ColumnFamilyHandle* shards = durable->handle(Family::kShards);
    for (int i = 0; i < 10; ++i) REQUIRE(durable->db()->Put(rocksdb::WriteOptions(), shards, numbered("k", i), "v").ok());
    REQUIRE(durable->db()->DeleteRange(rocksdb::WriteOptions(), shards, "k2", "k5").ok());
    REQUIRE(durable->close().is_ok());
  }
  auto durable = open_durable(dir.path());
  REQUIRE(durable->recovery_report().size() == 1);
  CHECK(durable->recovery_report().front().find("removed 1 range tombstone") != std::string::npos);
  rocksdb::TablePropertiesCollection tables;
  REQUIRE(durable->db()->GetPropertiesOfAllTables(durable->handle(Family::kShards), &tables).ok());
  for (const auto& [file, props] : tables) CHECK(props->num_range_deletions == 0);
  CHECK(!durable->get(Family::kShards, "k3")->has_value());
  CHECK(durable->get(Family::kShards, "k5")->has_value());
}
