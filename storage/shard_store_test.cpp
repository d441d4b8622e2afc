// ShardStore: append/snapshot against a naive model, upper checks, group
// commit, reopen and drop. Listen and compaction have their own files.

#include "storage/shard_store.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include <rocksdb/db.h>

#include "storage/shard_codec.hpp"
#include "storage/shard_scan.hpp"
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


size_t count_keys(const DurableStore& durable, ShardId shard) {
  std::unique_ptr<rocksdb::Iterator> it(
      durable.db()->NewIterator(rocksdb::ReadOptions(), durable.handle(Family::kShards)));
  size_t n = 0;
  for (it->Seek(shard_data_bound(shard, 0)); it->Valid(); it->Next()) {
    auto key = decode_shard_data_key(std::string_view(it->key().data(), it->key().size()));
    if (!key || key->shard != shard) break;
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("shard append and snapshot agree with a naive model") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable);
  std::mt19937_64 rng(42);
  const std::vector<ShardId> ids = {7, 8, 300};
  std::map<ShardId, std::vector<Update>> history;
  for (ShardId id : ids) REQUIRE(store->create_shard(id, 10).is_ok());

  for (int step = 0; step < 300; ++step) {
    // One request may append to several shards at once.
    std::vector<ShardAppend> request;
    for (ShardId id : ids) {
      if (rng() % 2) continue;
      Timestamp upper = *store->upper(id);
      ShardAppend a{id, {}, upper, upper + 1 + rng() % 5};
      int n = static_cast<int>(rng() % 6);  // zero updates: advance only
      for (int i = 0; i < n; ++i) {
        Update u{numbered("row", rng() % 12), upper + rng() % (a.new_upper - upper),
                 static_cast<Diff>(rng() % 5) - 2};
        a.updates.push_back(u);
        history[id].push_back(u);
      }
      request.push_back(std::move(a));
    }
    if (request.empty()) continue;
    REQUIRE(store->append(std::move(request)).is_ok());
    ShardId id = ids[rng() % ids.size()];
    Timestamp upper = *store->upper(id);
    Timestamp as_of = rng() % upper;
    auto snap = store->snapshot(id, as_of);
    REQUIRE(snap.ok());
    CHECK(*snap == model_at(history[id], as_of));
  }
  for (ShardId id : ids) {
    Timestamp upper = *store->upper(id);
    for (Timestamp t = 0; t < upper; t += 7) {
      auto snap = store->snapshot(id, t);
      REQUIRE(snap.ok());
      CHECK(*snap == model_at(history[id], t));
    }
    auto unsealed = store->snapshot(id, upper);
    REQUIRE(!unsealed.ok());
    CHECK(unsealed.status().sqlstate() == "55000");
  }
}

TEST_CASE("pre-encoded appends (any order, unconsolidated) read like decoded ones") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable);
  std::mt19937_64 rng(7);
  std::vector<Update> history;
  REQUIRE(store->create_shard(1, 10).is_ok());
  for (int step = 0; step < 200; ++step) {
    Timestamp upper = *store->upper(1);
    ShardAppend a{1, {}, upper, upper + 1 + rng() % 3};
    a.encoded_time = upper + rng() % (a.new_upper - upper);
    int n = 1 + static_cast<int>(rng() % 6);
    for (int i = 0; i < n; ++i) {
      // Repeated rows and diffs that cancel stay as written.
      Update u{numbered("row", rng() % 5), a.encoded_time, static_cast<Diff>(rng() % 5) - 2};
      append_batch_entry(&a.encoded, u.row, u.diff);
      history.push_back(u);
    }
    REQUIRE(store->append({std::move(a)}).is_ok());
    Timestamp as_of = rng() % *store->upper(1);
    CHECK(*store->snapshot(1, as_of) == model_at(history, as_of));
  }
  SECTION("encoded updates outside [expected_upper, new_upper), or beside decoded ones, are rejected") {
    Timestamp upper = *store->upper(1);
    ShardAppend late{1, {}, upper, upper + 2};
    late.encoded_time = upper + 2;
    append_batch_entry(&late.encoded, "x", 1);
    CHECK(store->append({late}).sqlstate() == "XX000");
    ShardAppend both{1, {{"y", upper, 1}}, upper, upper + 2};
    both.encoded_time = upper;
    append_batch_entry(&both.encoded, "x", 1);
    CHECK(store->append({both}).sqlstate() == "XX000");
    CHECK(*store->upper(1) == upper);
    CHECK(*store->snapshot(1, upper - 1) == model_at(history, upper - 1));
  }
}

TEST_CASE("a rejected append writes nothing") {
  ScratchDir dir;
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 5).is_ok());
  REQUIRE(store->create_shard(2, 5).is_ok());
  REQUIRE(store->append({{1, {{"a", 5, 1}}, 5, 6}}).is_ok());

  SECTION("upper mismatch on one shard of a multi-shard append") {
    Status s = store->append({{2, {{"b", 5, 1}}, 5, 9}, {1, {{"c", 5, 1}}, 5, 9}});
    REQUIRE(!s.is_ok());
    CHECK(s.sqlstate() == "40001");
    CHECK(s.message() == "upper mismatch on shard 1");
    CHECK(s.detail() == "expected upper 5, found 6");
  }
  SECTION("an update outside [expected_upper, new_upper)") {
    Status s = store->append({{2, {{"b", 5, 1}}, 5, 9}, {1, {{"c", 9, 1}}, 6, 9}});
    REQUIRE(!s.is_ok());
    CHECK(s.sqlstate() == "XX000");
  }
  SECTION("an upper that moves backwards") {
    Status s = store->append({{2, {}, 5, 4}});
    REQUIRE(!s.is_ok());
    CHECK(s.sqlstate() == "XX000");
  }
  SECTION("a missing shard") {
    Status s = store->append({{2, {{"b", 5, 1}}, 5, 9}, {99, {}, 0, 1}});
    REQUIRE(!s.is_ok());
    CHECK(s.sqlstate() == "42704");
  }
  CHECK(*store->upper(1) == 6);
  CHECK(*store->upper(2) == 5);
  CHECK(count_keys(*durable, 2) == 0);
  CHECK(*store->snapshot(1, 5) == Contents{{"a", 1}});
  // Two appends to the same shard in one request chain their uppers.
  REQUIRE(store->append({{2, {{"x", 5, 1}}, 5, 7}, {2, {{"y", 7, 1}}, 7, 8}}).is_ok());
  CHECK(*store->snapshot(2, 7) == Contents{{"x", 1}, {"y", 1}});
  // An empty append at the upper is a no-op.
  REQUIRE(store->append({{2, {}, 8, 8}}).is_ok());
  CHECK(*store->upper(2) == 8);
}

TEST_CASE("create, list, frontiers and errors for unknown shards") {
  ScratchDir dir;
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(3, 100).is_ok());
  Status dup = store->create_shard(3, 100);
  REQUIRE(!dup.is_ok());
  CHECK(dup.sqlstate() == "42710");
  REQUIRE(store->create_shard(1, 0).is_ok());
  CHECK(store->list_shards() == std::vector<ShardId>{1, 3});
  CHECK(store->frontiers(3)->since == 0);
  CHECK(store->frontiers(3)->upper == 100);
  // An empty shard is readable (empty) below its initial upper.
  CHECK(store->snapshot(3, 99)->empty());
  CHECK(store->upper(4).status().sqlstate() == "42704");
  CHECK(store->snapshot(4, 0).status().sqlstate() == "42704");
  CHECK(store->drop_shard(4).sqlstate() == "42704");
  CHECK(store->compact(4, 1).sqlstate() == "42704");
}

TEST_CASE("advance_uppers seals every lagging shard in one commit") {
  ScratchDir dir;
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 10).is_ok());
  REQUIRE(store->create_shard(2, 50).is_ok());
  uint64_t before = store->stats().write_batches;
  REQUIRE(store->advance_uppers(30).is_ok());
  CHECK(store->stats().write_batches == before + 1);
  CHECK(*store->upper(1) == 30);
  CHECK(*store->upper(2) == 50);
  CHECK(store->snapshot(1, 29)->empty());
}

TEST_CASE("group commit: one WriteBatch for everything queued behind a commit") {
  ScratchDir dir;
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 0).is_ok());
  REQUIRE(store->create_shard(2, 0).is_ok());
  uint64_t before = store->stats().write_batches;

  // Hold the committer inside the first request's completion, queue more
  // requests behind it (one invalid), then release: they form one group.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<Status> first;
  store->append_async({{1, {{"a", 0, 1}}, 0, 1}}, [&](Status s) {
    first.set_value(s);
    released.wait();
  });
  std::vector<std::future<Status>> results;
  std::vector<std::shared_ptr<std::promise<Status>>> promises;
  auto queue = [&](std::vector<ShardAppend> appends) {
    auto p = std::make_shared<std::promise<Status>>();
    results.push_back(p->get_future());
    store->append_async(std::move(appends), [p](Status s) { p->set_value(std::move(s)); });
  };
  REQUIRE(first.get_future().get().is_ok());
  queue({{1, {{"b", 1, 1}}, 1, 2}});
  queue({{2, {{"c", 0, 1}}, 7, 8}});  // wrong expected upper
  queue({{2, {{"d", 0, 1}}, 0, 3}});
  queue({{1, {{"b", 2, -1}}, 2, 4}});  // chains on the first queued append
  release.set_value();
  CHECK(results[0].get().is_ok());
  CHECK(results[1].get().sqlstate() == "40001");
  CHECK(results[2].get().is_ok());
  CHECK(results[3].get().is_ok());
  CHECK(store->stats().write_batches == before + 2);
  CHECK(*store->snapshot(1, 1) == Contents{{"a", 1}, {"b", 1}});
  CHECK(*store->snapshot(1, 3) == Contents{{"a", 1}});
  CHECK(*store->snapshot(2, 2) == Contents{{"d", 1}});
}

TEST_CASE("group commit: concurrent appenders share fsyncs") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/true);
  auto store = open_shards(*durable);
  constexpr int kThreads = 8;
  constexpr int kAppends = 25;
  for (int t = 0; t < kThreads; ++t) REQUIRE(store->create_shard(t, 0).is_ok());
  uint64_t before = store->stats().write_batches;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kAppends; ++i) {
        Timestamp ts = static_cast<Timestamp>(i);
        Status s = store->append({{static_cast<ShardId>(t), {{numbered("r", i), ts, 1}},
                                   ts, ts + 1}});
        if (!s.is_ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(failures == 0);
  uint64_t batches = store->stats().write_batches - before;
  INFO("write batches: " << batches << " for " << kThreads * kAppends << " appends");
  CHECK(batches < kThreads * kAppends);
  for (int t = 0; t < kThreads; ++t) {
    CHECK(*store->upper(t) == kAppends);
    CHECK(store->snapshot(t, kAppends - 1)->size() == kAppends);
  }
}

TEST_CASE("a lead commits on its own thread and holds back queued requests") {
  ScratchDir dir;
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 0).is_ok());
  // The committer holds the lane until it has completed create_shard's
  // group, which may be just after create_shard returned.
  auto claim = [&] {
    for (int i = 0; i < 100000; ++i) {
      if (ShardStore::Lead lead = store->try_lead()) return lead;
      std::this_thread::yield();
    }
    return ShardStore::Lead();
  };

  ShardStore::Lead lead = claim();
  REQUIRE(lead);
  CHECK_FALSE(store->try_lead());  // one claim at a time
  // Claimed before this append was queued, so it commits first although
  // its request arrives later: the queued append expects the lead's upper.
  std::promise<Status> queued;
  store->append_async({{1, {{"b", 1, 1}}, 1, 2}}, [&](Status s) { queued.set_value(std::move(s)); });
  std::thread::id ran_on;
  Status led = Status::error("XX000", "not run");
  lead.append({{1, {{"a", 0, 1}}, 0, 1}}, [&](Status s) {
    ran_on = std::this_thread::get_id();
    led = std::move(s);
  });
  CHECK(store->upper(1).value() == 0);  // nothing written until run()
  lead.run();
  CHECK(led.is_ok());
  CHECK(ran_on == std::this_thread::get_id());
  CHECK(queued.get_future().get().is_ok());
  CHECK(*store->snapshot(1, 1) == Contents{{"a", 1}, {"b", 1}});

  // A claim is refused while a request is queued or committing, and an
  // unused claim releases the lane when destroyed.
  {
    ShardStore::Lead idle = claim();
    CHECK(idle);
  }
  ShardStore::Lead again = claim();
  REQUIRE(again);
  again.append({{1, {{"c", 5, 1}}, 9, 10}}, [&](Status s) { led = std::move(s); });  // wrong upper
  again.run();
  CHECK(led.sqlstate() == "40001");
  CHECK(store->upper(1).value() == 2);
}

TEST_CASE("the after-group hook runs once per committed group, after its callbacks, not for a lead") {
  ScratchDir dir;
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  std::mutex mu;
  std::condition_variable cv;
  int callbacks = 0;                // `done` callbacks run so far
  std::vector<int> hooks;           // `callbacks` at each hook call
  std::vector<std::thread::id> hook_threads;
  store->set_after_group([&] {
    std::lock_guard lock(mu);
    hooks.push_back(callbacks);
    hook_threads.push_back(std::this_thread::get_id());
    cv.notify_all();
  });
  auto done = [&](Status s) {
    CHECK(s.is_ok());
    std::lock_guard lock(mu);
    ++callbacks;
  };
  auto wait_hooks = [&](size_t n) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(10), [&] { return hooks.size() >= n; });
  };
  REQUIRE(store->create_shard(1, 0).is_ok());
  REQUIRE(wait_hooks(1));
  // Hold the committer in the first append's callback while three more
  // queue: they commit as one group, and the hook runs once after all three.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> holding;
  store->append_async({{1, {{"a", 0, 1}}, 0, 1}}, [&](Status s) {
    done(std::move(s));
    holding.set_value();
    released.wait();
  });
  holding.get_future().wait();
  store->append_async({{1, {{"b", 1, 1}}, 1, 2}}, done);
  store->append_async({{1, {{"c", 2, 1}}, 2, 3}}, done);
  store->append_async({{1, {{"d", 3, 1}}, 3, 4}}, done);
  release.set_value();
  REQUIRE(wait_hooks(3));
  {
    std::lock_guard lock(mu);
    CHECK(hooks == std::vector<int>{0, 1, 4});
    CHECK(hook_threads[1] != std::this_thread::get_id());
    CHECK(hook_threads[1] == hook_threads[2]);  // the committer's thread
  }
  // A lead's commit runs no hook: its caller acts after run().
  auto claim = [&] {
    for (int i = 0; i < 100000; ++i) {
      if (ShardStore::Lead lead = store->try_lead()) return lead;
      std::this_thread::yield();
    }
    return ShardStore::Lead();
  };
  ShardStore::Lead lead = claim();
  REQUIRE(lead);
  lead.append({{1, {{"e", 4, 1}}, 4, 5}}, done);
  lead.run();
  REQUIRE(store->append({{1, {{"f", 5, 1}}, 5, 6}}).is_ok());
  REQUIRE(wait_hooks(4));
  std::lock_guard lock(mu);
  CHECK(hooks.size() == 4);
  CHECK(hooks[3] == 5);  // after the lead's callback, for the queued append's group
  CHECK(*store->snapshot(1, 5) == Contents{{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}, {"e", 1}, {"f", 1}});
}

TEST_CASE("commit callbacks of led and queued appends run one at a time, in commit order", "[concurrency]") {
  ScratchDir dir;
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 0).is_ok());
  // Writers take the next time under one lock (as the coordinator's write
  // lane does) and commit inline when they can claim the lane, else queue.
  std::mutex sequencing;
  Timestamp next = 0;
  std::mutex seen_mutex;
  std::vector<Timestamp> seen;
  std::atomic<int> inside{0};
  std::atomic<int> overlaps{0};
  std::vector<std::future<Status>> pending;
  auto callback = [&](Timestamp t, std::shared_ptr<std::promise<Status>> p) {
    return [&, t, p](Status s) {
      if (inside.fetch_add(1) != 0) ++overlaps;
      {
        std::lock_guard lock(seen_mutex);
        seen.push_back(t);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(50));  // widen any overlap
      inside.fetch_sub(1);
      p->set_value(std::move(s));
    };
  };
  std::vector<std::thread> writers;
  std::mutex pending_mutex;
  for (int w = 0; w < 4; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < 50; ++i) {
        auto p = std::make_shared<std::promise<Status>>();
        {
          std::lock_guard lock(pending_mutex);
          pending.push_back(p->get_future());
        }
        std::unique_lock lock(sequencing);
        Timestamp t = next++;
        std::string prefix = numbered("w", w) + "-";
        std::vector<ShardAppend> appends = {{1, {{numbered(prefix.c_str(), i), t, 1}}, t, t + 1}};
        if (ShardStore::Lead lead = store->try_lead()) {
          lead.append(std::move(appends), callback(t, p));
          lock.unlock();
          lead.run();
        } else {
          store->append_async(std::move(appends), callback(t, p));
        }
      }
    });
  }
  for (auto& t : writers) t.join();
  for (auto& f : pending) CHECK(f.get().is_ok());
  CHECK(overlaps == 0);
  REQUIRE(seen.size() == 200);
  for (size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == i);
}

TEST_CASE("an upper advance marked not durable is stored only with data") {
  ScratchDir dir;
  auto upper_only = [](ShardId shard, Timestamp from, Timestamp to) {
    ShardAppend a(shard, {}, from, to);
    a.durable_upper = false;
    return a;
  };
  {
    auto durable = open_durable(dir.path());
    auto store = open_shards(*durable);
    REQUIRE(store->create_shard(1, 0).is_ok());
    REQUIRE(store->create_shard(2, 0).is_ok());
    // Shard 1 gets rows at 3; shard 2 is only sealed along.
    REQUIRE(store->append({upper_only(1, 0, 3), upper_only(2, 0, 3)}).is_ok());
    ShardAppend rows(1, {{"a", 3, 1}}, 3, 4);
    rows.durable_upper = false;  // ignored: rows always store the upper
    REQUIRE(store->append({rows, upper_only(2, 3, 4)}).is_ok());
    // Nothing to store: no RocksDB write (no log record, no sync).
    const uint64_t writes = store->stats().write_batches;
    REQUIRE(store->append({upper_only(1, 4, 9), upper_only(2, 4, 9)}).is_ok());
    CHECK(store->stats().write_batches == writes);
    // In memory, both are sealed to 9 and readable there.
    CHECK(*store->upper(1) == 9);
    CHECK(*store->upper(2) == 9);
    CHECK(*store->snapshot(1, 8) == Contents{{"a", 1}});
    CHECK(store->snapshot(2, 8)->empty());
    store.reset();
    REQUIRE(durable->close().is_ok());
  }
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  // After the restart each is back at its last stored upper; no update lies
  // at or above it, so re-sealing it (as the coordinator does) is exact.
  CHECK(*store->upper(1) == 4);
  CHECK(*store->upper(2) == 0);
  CHECK(*store->snapshot(1, 3) == Contents{{"a", 1}});
  REQUIRE(store->append({{1, {}, 4, 20}, {2, {}, 0, 20}}).is_ok());
  CHECK(*store->snapshot(1, 19) == Contents{{"a", 1}});
  CHECK(store->snapshot(2, 19)->empty());
}

TEST_CASE("appends of rows leave the shard's record; reopening recovers their upper and counts") {
  ScratchDir dir;
  auto record = [](const DurableStore& durable, ShardId shard) {
    auto value = durable.get(Family::kMeta, shard_meta_key(shard));
    REQUIRE(value.ok());
    REQUIRE(value->has_value());
    auto meta = decode_shard_meta(**value);
    REQUIRE(meta.has_value());
    return *meta;
  };
  ShardStorage before;
  {
    auto durable = open_durable(dir.path());
    auto store = open_shards(*durable);
    REQUIRE(store->create_shard(1, 0).is_ok());
    // Rows at t with new upper t + 1: their keys imply the upper.
    for (Timestamp t = 0; t < 10; ++t) {
      REQUIRE(store->append({{1, {{numbered("r", t), t, 1}}, t, t + 1}}).is_ok());
    }
    CHECK(record(*durable, 1).frontiers.upper == 0);
    // An upper beyond the rows' last time is stored with them.
    REQUIRE(store->append({{1, {{"s", 10, 1}}, 10, 15}}).is_ok());
    CHECK(record(*durable, 1).frontiers.upper == 15);
    // Rows that cancel store no key: the durable upper is stored.
    REQUIRE(store->append({{1, {{"x", 15, 1}, {"x", 15, -1}}, 15, 16}}).is_ok());
    CHECK(record(*durable, 1).frontiers.upper == 16);
    for (Timestamp t = 16; t < 20; ++t) {
      REQUIRE(store->append({{1, {{numbered("r", t), t, 1}}, t, t + 1}}).is_ok());
    }
    CHECK(record(*durable, 1).frontiers.upper == 16);
    CHECK(*store->upper(1) == 20);
    before = *store->stored(1);
    CHECK(before.stored_batches == 15);
    store.reset();
    REQUIRE(durable->close().is_ok());
  }
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  CHECK(*store->upper(1) == 20);
  ShardStorage after = *store->stored(1);
  CHECK(after.stored_batches == before.stored_batches);
  CHECK(after.stored_bytes == before.stored_bytes);
  Contents expected;
  for (Timestamp t : {0, 1, 10, 16, 17, 18, 19, 2, 3, 4, 5, 6, 7, 8, 9}) {
    expected.emplace_back(t == 10 ? std::string("s") : numbered("r", t), 1);
  }
  std::sort(expected.begin(), expected.end());
  CHECK(*store->snapshot(1, 19) == expected);
  // Writers go on from the recovered upper; the next reopen counts only
  // what is above the record again.
  REQUIRE(store->append({{1, {{"t", 20, 1}}, 20, 21}}).is_ok());
  store.reset();
  REQUIRE(durable->close().is_ok());
  durable = open_durable(dir.path());
  store = open_shards(*durable);
  CHECK(*store->upper(1) == 21);
  CHECK(store->stored(1)->stored_batches == before.stored_batches + 1);
  // The record is rewritten every kRecordEvery appends of rows, so an open
  // reads at most that many keys past it.
  CHECK(record(*durable, 1).frontiers.upper == 16);
  for (Timestamp t = 21; t < 21 + ShardStore::kRecordEvery; ++t) {
    REQUIRE(store->append({{1, {{numbered("r", t), t, 1}}, t, t + 1}}).is_ok());
  }
  const Timestamp recorded = record(*durable, 1).frontiers.upper;
  CHECK(recorded > 21);
  CHECK(recorded <= 21 + ShardStore::kRecordEvery);
}

TEST_CASE("shards, uppers, sinces and data survive a reopen") {
  ScratchDir dir;
  Contents before_reopen;
  {
    auto durable = open_durable(dir.path());
    auto store = open_shards(*durable);
    REQUIRE(store->create_shard(5, 0).is_ok());
    REQUIRE(store->create_shard(6, 40).is_ok());
    for (Timestamp t = 0; t < 20; ++t) {
      REQUIRE(store->append({{5, {{numbered("k", t % 4), t, 1}}, t, t + 1}}).is_ok());
    }
    REQUIRE(store->compact(5, 10).is_ok());
    store->wait_for_compaction();
    REQUIRE(*store->since(5) == 10);
    before_reopen = *store->snapshot(5, 15);
    store.reset();
    REQUIRE(durable->close().is_ok());
  }
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  CHECK(store->list_shards() == std::vector<ShardId>{5, 6});
  CHECK(store->frontiers(5)->upper == 20);
  CHECK(store->frontiers(5)->since == 10);
  CHECK(store->frontiers(6)->upper == 40);
  CHECK(*store->snapshot(5, 15) == before_reopen);
  CHECK(store->snapshot(5, 9).status().sqlstate() == "72000");
  // Appends continue from the persisted upper.
  REQUIRE(store->append({{5, {{"k9", 20, 1}}, 20, 21}}).is_ok());
  CHECK(store->snapshot(5, 20)->size() == 5);
}

TEST_CASE("dropping a shard deletes its data") {
  ScratchDir dir;
  {
    auto durable = open_durable(dir.path());
    auto store = open_shards(*durable);
    REQUIRE(store->create_shard(9, 0).is_ok());
    REQUIRE(store->create_shard(10, 0).is_ok());
    for (Timestamp t = 0; t < 10; ++t) {
      REQUIRE(store->append({{9, {{"x", t, 1}}, t, t + 1}, {10, {{"y", t, 1}}, t, t + 1}}).is_ok());
    }
    CHECK(count_keys(*durable, 9) == 10);
    REQUIRE(store->drop_shard(9).is_ok());
    CHECK(count_keys(*durable, 9) == 0);
    CHECK(count_keys(*durable, 10) == 10);
    CHECK(store->snapshot(9, 5).status().sqlstate() == "42704");
    CHECK(store->list_shards() == std::vector<ShardId>{10});
    // The id can be reused; the new shard starts empty.
    REQUIRE(store->create_shard(9, 3).is_ok());
    CHECK(store->snapshot(9, 2)->empty());
    REQUIRE(store->drop_shard(9).is_ok());
  }
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  CHECK(store->list_shards() == std::vector<ShardId>{10});
  CHECK(store->snapshot(10, 9)->size() == 1);
}

// Shard 1 with three updates (some retractions) at each time 10..19, one
// append per time; returns them.
static std::vector<Update> append_history(ShardStore& store) {
  REQUIRE(store.create_shard(1, 10).is_ok());
  std::vector<Update> history;
  for (Timestamp t = 10; t < 20; ++t) {
    ShardAppend a{1, {}, t, t + 1};
    for (int i = 0; i < 3; ++i) {
      a.updates.push_back(Update{numbered("row", (t + i) % 4), t, (t + i) % 3 == 0 ? -1 : 1});
    }
    history.insert(history.end(), a.updates.begin(), a.updates.end());
    REQUIRE(store.append({std::move(a)}).is_ok());
  }
  return history;
}

TEST_CASE("scan_snapshot streams the updates that snapshot consolidates") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable);
  std::vector<Update> history = append_history(*store);
  std::vector<std::pair<std::string, Diff>> streamed;
  REQUIRE(store->scan_snapshot(1, 15, [&](std::string_view row, Diff diff) {
    streamed.emplace_back(std::string(row), diff);
  }).is_ok());
  CHECK(streamed.size() == 18);  // times 10..15, unconsolidated
  consolidate_rows(&streamed);
  CHECK(streamed == model_at(history, 15));
  CHECK(streamed == *store->snapshot(1, 15));

  auto ignore = [](std::string_view, Diff) {};
  CHECK(store->scan_snapshot(1, 20, ignore).sqlstate() == "55000");
  CHECK(store->scan_snapshot(2, 15, ignore).sqlstate() == "42704");
}

TEST_CASE("scan_history streams the contents at as_of, then each later update at its time") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable);
  std::vector<Update> history = append_history(*store);
  std::vector<std::pair<std::string, Diff>> at_as_of;
  std::vector<Update> later;
  Timestamp last = 0;
  REQUIRE(store->scan_history(1, 13, 18, [&](Timestamp time, std::string_view row, Diff diff) {
    CHECK(time >= last);  // time order
    last = time;
    if (time == 13) {
      at_as_of.emplace_back(std::string(row), diff);
    } else {
      later.push_back(Update{std::string(row), time, diff});
    }
  }).is_ok());
  consolidate_rows(&at_as_of);
  CHECK(at_as_of == model_at(history, 13));
  std::vector<Update> expected;
  for (const Update& u : history) {
    if (u.time > 13 && u.time < 18) expected.push_back(u);
  }
  consolidate_updates(&later);
  consolidate_updates(&expected);
  CHECK(later == expected);

  auto ignore = [](Timestamp, std::string_view, Diff) {};
  CHECK(store->scan_history(1, 13, 21, ignore).sqlstate() == "55000");  // past the upper
  CHECK(store->scan_history(1, 15, 15, ignore).sqlstate() == "55000");  // an empty range
  CHECK(store->scan_history(2, 13, 15, ignore).sqlstate() == "42704");
}
