// ShardListener: exactly-once, in-order delivery; blocking next() woken by
// appends (no polling); try_next/next_until/cancel/drop; wakeup hooks; and
// the since hold a listener keeps.

#include "storage/shard_listener.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <future>
#include <map>
#include <random>
#include <thread>

#include "storage/shard_store.hpp"
#include "storage/test_support.hpp"

using namespace tandem;
using namespace tandem::storage;
using tandem::storage::testing::numbered;
using tandem::storage::testing::open_durable;
using tandem::storage::testing::ScratchDir;
using namespace std::chrono_literals;

namespace {

std::unique_ptr<ShardStore> open_shards(DurableStore& durable) {
  auto store = ShardStore::open(durable);
  REQUIRE(store.ok());
  return std::move(*store);
}

// (time, row) -> diff, zero sums dropped: what a listener must deliver.
using PerTime = std::map<std::pair<Timestamp, std::string>, Diff>;

void add(PerTime* m, const Update& u) {
  auto key = std::make_pair(u.time, u.row);
  if (((*m)[key] += u.diff) == 0) m->erase(key);
}

}  // namespace

TEST_CASE("a listener delivers every update exactly once, in time order") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 0).is_ok());
  // History before the listener's as_of is the snapshot's business.
  REQUIRE(store->append({{1, {{"old", 0, 1}, {"older", 3, 1}}, 0, 5}}).is_ok());
  constexpr Timestamp kAsOf = 3;
  constexpr Timestamp kFinal = 400;
  auto listener = store->listen(1, kAsOf);
  REQUIRE(listener.ok());

  std::thread writer([&] {
    std::mt19937_64 rng(7);
    Timestamp upper = 5;
    while (upper < kFinal) {
      Timestamp next = std::min(kFinal, upper + 1 + rng() % 4);
      ShardAppend a{1, {}, upper, next};
      for (int i = static_cast<int>(rng() % 4); i > 0; --i) {
        a.updates.push_back({numbered("r", rng() % 6), upper + rng() % (next - upper),
                             static_cast<Diff>(rng() % 3) - 1});
      }
      REQUIRE(store->append({a}).is_ok());
      upper = next;
    }
  });
  std::vector<ListenBatch> batches;
  Timestamp position = kAsOf + 1;
  while (position < kFinal) {
    auto batch = (*listener)->next();
    REQUIRE(batch.ok());
    CHECK(batch->lower == position);
    CHECK(batch->upper > batch->lower);
    position = batch->upper;
    batches.push_back(std::move(*batch));
  }
  writer.join();
  CHECK(position == kFinal);
  CHECK((*listener)->as_of() == kFinal - 1);

  // Compare with the store's own history: snapshots differ exactly by the
  // listened updates.
  PerTime delivered;
  Timestamp last_time = 0;
  for (const ListenBatch& b : batches) {
    for (const Update& u : b.updates) {
      CHECK(u.time >= b.lower);
      CHECK(u.time < b.upper);
      CHECK(u.time >= last_time);
      CHECK(u.diff != 0);
      last_time = u.time;
      CHECK(delivered.count({u.time, u.row}) == 0);  // consolidated per time
      add(&delivered, u);
    }
  }
  std::map<std::string, Diff> replay;
  auto start = store->snapshot(1, kAsOf);
  REQUIRE(start.ok());
  for (auto& [row, diff] : *start) replay[row] += diff;
  for (auto& [key, diff] : delivered) replay[key.second] += diff;
  std::vector<std::pair<std::string, Diff>> replayed;
  for (auto& [row, diff] : replay) {
    if (diff != 0) replayed.emplace_back(row, diff);
  }
  CHECK(replayed == *store->snapshot(1, kFinal - 1));
}

TEST_CASE("a blocked next() is woken by an append") {
  ScratchDir dir;
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 10).is_ok());
  auto listener = store->listen(1, 9);
  REQUIRE(listener.ok());
  CHECK((*listener)->try_next()->has_value() == false);
  auto pending = std::async(std::launch::async, [&] { return (*listener)->next(); });
  // Nothing is sealed past 10 yet: the consumer stays asleep.
  CHECK(pending.wait_for(100ms) == std::future_status::timeout);
  REQUIRE(store->append({{1, {{"a", 10, 1}, {"b", 11, 2}}, 10, 12}}).is_ok());
  REQUIRE(pending.wait_for(10s) == std::future_status::ready);
  auto batch = pending.get();
  REQUIRE(batch.ok());
  CHECK(batch->lower == 10);
  CHECK(batch->upper == 12);
  CHECK(batch->updates == std::vector<Update>{{"a", 10, 1}, {"b", 11, 2}});

  // Progress without data is delivered too.
  REQUIRE(store->advance_uppers(20).is_ok());
  auto progress = (*listener)->try_next();
  REQUIRE(progress.ok());
  REQUIRE(progress->has_value());
  CHECK((*progress)->lower == 12);
  CHECK((*progress)->upper == 20);
  CHECK((*progress)->updates.empty());

  auto timed = (*listener)->next_until(std::chrono::steady_clock::now() + 20ms);
  REQUIRE(timed.ok());
  CHECK(!timed->has_value());
}

TEST_CASE("cancel, drop and shutdown end a listener with an error") {
  ScratchDir dir;
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 0).is_ok());
  REQUIRE(store->create_shard(2, 0).is_ok());

  auto canceled = store->listen(1, 0);
  REQUIRE(canceled.ok());
  auto pending = std::async(std::launch::async, [&] { return (*canceled)->next(); });
  CHECK(pending.wait_for(50ms) == std::future_status::timeout);
  (*canceled)->cancel();
  CHECK(pending.get().status().sqlstate() == "57014");
  CHECK((*canceled)->try_next().status().sqlstate() == "57014");

  auto dropped = store->listen(2, 0);
  REQUIRE(dropped.ok());
  auto waiting = std::async(std::launch::async, [&] { return (*dropped)->next(); });
  REQUIRE(store->drop_shard(2).is_ok());
  CHECK(waiting.get().status().sqlstate() == "42704");
  // A re-created shard with the same id is a different shard.
  REQUIRE(store->create_shard(2, 0).is_ok());
  REQUIRE(store->append({{2, {{"a", 0, 1}}, 0, 1}}).is_ok());
  CHECK((*dropped)->try_next().status().sqlstate() == "42704");

  auto live = store->listen(1, 0);
  REQUIRE(live.ok());
  auto at_shutdown = std::async(std::launch::async, [&] { return (*live)->next(); });
  CHECK(at_shutdown.wait_for(50ms) == std::future_status::timeout);
  // Destroying the store wakes the blocked next() and waits for it to leave.
  std::thread closer([&] { store.reset(); });
  CHECK(at_shutdown.get().status().sqlstate() == "57P01");
  closer.join();
  // Listeners that outlive their store are inert.
  CHECK((*canceled)->try_next().status().sqlstate() == "57P01");
  canceled->reset();
  dropped->reset();
  live->reset();
}

TEST_CASE("a wakeup hook lets a consumer use try_next without a thread per listener") {
  ScratchDir dir;
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 0).is_ok());
  REQUIRE(store->append({{1, {{"early", 0, 1}}, 0, 1}}).is_ok());
  auto listener = store->listen(1, 0);
  REQUIRE(listener.ok());

  // The consumer's own queue: the hook only flags and signals.
  std::mutex m;
  std::condition_variable cv;
  int wakeups = 0;
  (*listener)->set_wakeup([&] {
    std::lock_guard<std::mutex> lock(m);
    ++wakeups;
    cv.notify_one();
  });
  {
    std::lock_guard<std::mutex> lock(m);
    CHECK(wakeups == 0);  // nothing beyond as_of 0 is sealed yet
  }
  REQUIRE(store->append({{1, {{"a", 1, 1}}, 1, 2}}).is_ok());
  {
    std::unique_lock<std::mutex> lock(m);
    REQUIRE(cv.wait_for(lock, 10s, [&] { return wakeups > 0; }));
  }
  auto batch = (*listener)->try_next();
  REQUIRE(batch.ok());
  REQUIRE(batch->has_value());
  CHECK((*batch)->updates == std::vector<Update>{{"a", 1, 1}});
  CHECK(!(*listener)->try_next()->has_value());
}

TEST_CASE("a listener holds back compaction until it has read") {
  ScratchDir dir;
  auto durable = open_durable(dir.path());
  auto store = open_shards(*durable);
  REQUIRE(store->create_shard(1, 0).is_ok());
  for (Timestamp t = 0; t < 10; ++t) {
    REQUIRE(store->append({{1, {{numbered("r", t % 3), t, 1}}, t, t + 1}}).is_ok());
  }
  auto listener = store->listen(1, 2);
  REQUIRE(listener.ok());
  REQUIRE(store->compact(1, 8).is_ok());
  store->wait_for_compaction();
  CHECK(*store->since(1) == 2);
  auto batch = (*listener)->next();
  REQUIRE(batch.ok());
  CHECK(batch->lower == 3);
  CHECK(batch->upper == 10);
  CHECK(batch->updates.size() == 7);
  store->wait_for_compaction();
  CHECK(*store->since(1) == 8);
  CHECK(store->listen(1, 7).status().sqlstate() == "72000");
  listener->reset();
  REQUIRE(store->compact(1, 10).is_ok());
  store->wait_for_compaction();
  CHECK(*store->since(1) == 10);
}
