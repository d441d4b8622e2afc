// Staged appends (see "Staged appends" in storage/shard_store.hpp): chunks
// staged before the append's time is chosen are invisible to snapshots,
// listeners and compaction until the commit, which makes all of them
// visible at its one time; an abort, a drop and a crash before the commit
// (a child process SIGKILLed mid-stage) leave nothing visible and nothing
// staged; compaction folds a committed stage and deletes its chunks.

#include "storage/shard_store.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include "storage/shard_codec.hpp"
#include "storage/shard_listener.hpp"
#include "storage/test_support.hpp"

using namespace tandem;
using namespace tandem::storage;
using tandem::storage::testing::Contents;
using tandem::storage::testing::numbered;
using tandem::storage::testing::open_durable;
using tandem::storage::testing::open_shards;
using tandem::storage::testing::ScratchDir;

extern char** environ;

namespace {

// `pieces` encoded pieces of `rows` rows each ("r<n>" for n counting from
// `first`), more than one stored chunk each.
std::string piece(uint64_t first, uint64_t rows) {
  std::string encoded;
  for (uint64_t i = 0; i < rows; ++i) {
    append_batch_entry(&encoded, numbered("r", first + i) + std::string(200, 'x'), 1);
  }
  return encoded;
}

Contents expected(uint64_t rows) {
  Contents out;
  for (uint64_t i = 0; i < rows; ++i) out.emplace_back(numbered("r", i) + std::string(200, 'x'), 1);
  std::sort(out.begin(), out.end());
  return out;
}

// Keys of `shard` at staged times, and markers of pending stages.
std::pair<size_t, size_t> staged_keys(const DurableStore& durable, ShardId shard) {
  size_t chunks = 0;
  std::unique_ptr<rocksdb::Iterator> it(durable.db()->NewIterator(rocksdb::ReadOptions(), durable.handle(Family::kShards)));
  for (it->Seek(shard_data_bound(shard, kStagedTimeBit)); it->Valid(); it->Next()) {
    auto key = decode_shard_data_key(std::string_view(it->key().data(), it->key().size()));
    if (!key || key->shard != shard) break;
    ++chunks;
  }
  size_t markers = 0;
  std::unique_ptr<rocksdb::Iterator> meta(durable.db()->NewIterator(rocksdb::ReadOptions(), durable.handle(Family::kMeta)));
  for (meta->Seek(std::string(kStagedMarkerPrefix)); meta->Valid() && meta->key().starts_with(std::string(kStagedMarkerPrefix));
       meta->Next()) {
    ++markers;
  }
  return {chunks, markers};
}

ShardAppend commit_at(ShardId shard, uint64_t stage, Timestamp expected_upper, Timestamp time) {
  ShardAppend a(shard, {}, expected_upper, time + 1);
  a.staged = stage;
  a.encoded_time = time;
  return a;
}

constexpr uint64_t kPieceRows = 6000;  // about 1.3 MB: two stored chunks

}  // namespace

TEST_CASE("staged chunks are invisible until the commit makes them visible at one time") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 10).is_ok());
  REQUIRE(store->append({ShardAppend(1, {Update{"before", 10, 1}}, 10, 11)}).is_ok());
  auto listener = store->listen(1, 10);
  REQUIRE(listener.ok());

  auto stage = store->begin_staged(1);
  REQUIRE(stage.ok());
  StageBuffer buffer;  // reused by each piece
  for (uint64_t p = 0; p < 3; ++p) REQUIRE(store->stage(1, *stage, piece(p * kPieceRows, kPieceRows), buffer).is_ok());
  CHECK(store->pending_stages() == 1);
  CHECK(store->storage_stats(1)->pending_chunks >= 3);
  // Uppers move past the staged rows' eventual time's predecessors: still
  // nothing of them anywhere.
  REQUIRE(store->append({ShardAppend(1, {}, 11, 20)}).is_ok());
  CHECK(*store->snapshot(1, 19) == Contents{{"before", 1}});
  auto idle = (*listener)->next_until(std::chrono::steady_clock::now());
  REQUIRE(idle.ok());
  REQUIRE(idle->has_value());
  CHECK((*idle)->upper == 20);
  CHECK((*idle)->updates.empty());

  REQUIRE(store->append({commit_at(1, *stage, 20, 20)}).is_ok());
  CHECK(store->pending_stages() == 0);
  CHECK(*store->snapshot(1, 19) == Contents{{"before", 1}});
  Contents at20 = expected(3 * kPieceRows);
  at20.emplace_back("before", 1);
  std::sort(at20.begin(), at20.end());
  CHECK(*store->snapshot(1, 20) == at20);
  // The listener gets every staged update in the one batch at time 20.
  auto batch = (*listener)->next();
  REQUIRE(batch.ok());
  CHECK(batch->lower == 20);
  CHECK(batch->upper == 21);
  CHECK(batch->updates.size() == 3 * kPieceRows);
  for (const Update& u : batch->updates) CHECK(u.time == 20);
  ShardStorage storage = *store->storage_stats(1);
  CHECK(storage.pending_chunks == 0);
  CHECK(storage.stored_batches >= 4);  // "before" and the staged chunks

  // A stage is committed once: naming it again fails and changes nothing.
  Status again = store->append({commit_at(1, *stage, 21, 21)});
  CHECK(again.sqlstate() == sqlstate::kUndefinedObject);
  CHECK(*store->upper(1) == 21);

  // Reopened, the committed stage reads the same; compaction past it
  // folds it into the base and deletes its chunks.
  listener->reset();
  store.reset();
  store = open_shards(*durable);
  CHECK(*store->snapshot(1, 20) == at20);
  // A new stage never takes the id of one whose chunks are stored.
  auto next = store->begin_staged(1);
  REQUIRE(next.ok());
  CHECK(*next > *stage);
  REQUIRE(store->abort_staged(1, *next).is_ok());
  REQUIRE(store->append({ShardAppend(1, {Update{"after", 25, 1}}, 21, 30)}).is_ok());
  REQUIRE(store->compact(1, 29).is_ok());
  store->wait_for_compaction();
  at20.emplace_back("after", 1);
  std::sort(at20.begin(), at20.end());
  CHECK(*store->snapshot(1, 29) == at20);
  CHECK(staged_keys(*durable, 1) == std::pair<size_t, size_t>{0, 0});
}

TEST_CASE("an aborted or dropped stage leaves nothing staged") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 10).is_ok());
  REQUIRE(store->create_shard(2, 10).is_ok());

  auto stage = store->begin_staged(1);
  REQUIRE(stage.ok());
  StageBuffer buffer;
  REQUIRE(store->stage(1, *stage, piece(0, kPieceRows), buffer).is_ok());
  CHECK(staged_keys(*durable, 1).first >= 2);
  CHECK(staged_keys(*durable, 1).second == 1);
  REQUIRE(store->abort_staged(1, *stage).is_ok());
  CHECK(staged_keys(*durable, 1) == std::pair<size_t, size_t>{0, 0});
  CHECK(store->pending_stages() == 0);
  // An aborted stage cannot be committed.
  CHECK(store->append({commit_at(1, *stage, 10, 10)}).sqlstate() == sqlstate::kUndefinedObject);
  CHECK(store->snapshot(1, 9)->empty());
  CHECK(*store->upper(1) == 10);

  // A shard dropped under a pending stage takes its chunks along; the
  // stage's owner then aborts (or a restart clears) the marker.
  auto other = store->begin_staged(2);
  REQUIRE(other.ok());
  REQUIRE(store->stage(2, *other, piece(0, kPieceRows), buffer).is_ok());
  REQUIRE(store->drop_shard(2).is_ok());
  CHECK(store->append({commit_at(2, *other, 10, 10)}).sqlstate() == sqlstate::kUndefinedObject);
  REQUIRE(store->abort_staged(2, *other).is_ok());
  CHECK(staged_keys(*durable, 2) == std::pair<size_t, size_t>{0, 0});
  CHECK(store->begin_staged(2).status().sqlstate() == sqlstate::kUndefinedObject);
}

// The child of the crash test: stages pieces into shard 1 of the data dir
// named by TANDEM_CRASH_DIR (synced store, so its marker and pieces reach
// the disk with the fsync of an unrelated commit) and SIGKILLs itself after
// TANDEM_CRASH_AFTER pieces, before any commit. Hidden: it runs only when
// named.
TEST_CASE("crash child: stage into shard 1", "[.crash-child]") {
  const char* path = std::getenv("TANDEM_CRASH_DIR");
  REQUIRE(path != nullptr);
  const uint64_t after = std::strtoull(std::getenv("TANDEM_CRASH_AFTER"), nullptr, 10);
  auto durable = open_durable(path, /*sync=*/true);
  auto store = open_shards(*durable);
  auto stage = store->begin_staged(1);
  REQUIRE(stage.ok());
  Timestamp upper = *store->upper(1);
  StageBuffer buffer;
  for (uint64_t p = 0; p < after; ++p) {
    REQUIRE(store->stage(1, *stage, piece(p * kPieceRows, kPieceRows), buffer).is_ok());
    // Another writer's synced commit makes the staged chunks durable too.
    REQUIRE(store->append({ShardAppend(1, {}, upper, upper + 1)}).is_ok());
    ++upper;
  }
  raise(SIGKILL);
}

TEST_CASE("a process killed before its staged append commits leaves nothing visible or staged") {
  ScratchDir dir;
  {
    auto durable = open_durable(dir.path(), /*sync=*/false);
    auto store = open_shards(*durable);
    REQUIRE(store->create_shard(1, 10).is_ok());
    REQUIRE(store->append({ShardAppend(1, {Update{"kept", 10, 1}}, 10, 11)}).is_ok());
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::string dir_env = "TANDEM_CRASH_DIR=" + dir.path();
    std::string after_env = "TANDEM_CRASH_AFTER=" + std::to_string(attempt + 2);
    std::vector<char*> envp;
    for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
    envp.push_back(dir_env.data());
    envp.push_back(after_env.data());
    envp.push_back(nullptr);
    std::string name = "crash child: stage into shard 1";
    char* argv[] = {self.data(), name.data(), nullptr};
    pid_t child = 0;
    REQUIRE(posix_spawn(&child, self.c_str(), nullptr, nullptr, argv, envp.data()) == 0);
    int status = 0;
    waitpid(child, &status, 0);
    REQUIRE(WIFSIGNALED(status));
    REQUIRE(WTERMSIG(status) == SIGKILL);

    auto durable = open_durable(dir.path(), /*sync=*/false);
    INFO("attempt " << attempt);
    // What the child left: its marker and durable chunks of every piece.
    auto left = staged_keys(*durable, 1);
    CHECK(left.first >= 2 * static_cast<size_t>(attempt + 2));
    CHECK(left.second == 1);
    // Opening the store deletes them: nothing visible, nothing staged.
    auto store = open_shards(*durable);
    CHECK(staged_keys(*durable, 1) == std::pair<size_t, size_t>{0, 0});
    CHECK(store->pending_stages() == 0);
    CHECK(store->storage_stats(1)->pending_chunks == 0);
    Timestamp upper = *store->upper(1);
    CHECK(upper > 11);
    CHECK(*store->snapshot(1, upper - 1) == Contents{{"kept", 1}});
  }
}
