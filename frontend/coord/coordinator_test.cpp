#include "frontend/coord/coordinator.hpp"

#include <catch2/catch.hpp>

#include <boost/asio/post.hpp>

#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "storage/durable_store.hpp"

namespace asio = boost::asio;
using tandem::Diff;
using tandem::Result;
using tandem::Row;
using tandem::Timestamp;
using tandem::frontend::Coordinator;
using tandem::frontend::CoordinatorOptions;
using tandem::frontend::TableWrite;

namespace {

std::string temp_dir() {
  return (std::filesystem::temp_directory_path() / ("tandem-coord-test-" + std::to_string(std::random_device{}())))
      .string();
}

// Runs fn on the coordinator thread and waits for its result.
template <class F>
auto on_coordinator(Coordinator& c, F fn) {
  std::promise<decltype(fn())> p;
  asio::post(c.executor(), [&] { p.set_value(fn()); });
  return p.get_future().get();
}

Result<Timestamp> write(Coordinator& c, std::vector<TableWrite> writes) {
  std::promise<Result<Timestamp>> p;
  asio::post(c.executor(), [&] { c.write(std::move(writes), [&](Result<Timestamp> ts) { p.set_value(ts); }); });
  return p.get_future().get();
}

Row int_row(int v) { return Row::pack_one(tandem::Datum::from_int32(v)); }

}  // namespace

TEST_CASE("writes are durable, timestamped and visible at their timestamp") {
  std::string dir = temp_dir();
  {
    auto store = std::move(tandem::storage::DurableStore::open({dir, false})).value();
    auto coord = std::move(Coordinator::open(*store)).value();
    REQUIRE(on_coordinator(*coord, [&] { return coord->open_table(1, 1001); }).is_ok());
    REQUIRE(on_coordinator(*coord, [&] { return coord->open_table(2, 1002); }).is_ok());
    auto t1 = write(*coord, {TableWrite{1, {{int_row(1), 1}, {int_row(2), 1}}}});
    REQUIRE(t1.ok());
    CHECK(coord->read_ts() >= *t1);
    auto t2 = write(*coord, {TableWrite{1, {{int_row(1), -1}}}, TableWrite{2, {{int_row(7), 1}}}});
    REQUIRE(t2.ok());
    CHECK(*t2 > *t1);
    auto at1 = on_coordinator(*coord, [&] { return coord->snapshot(1, *t1); });
    REQUIRE(at1.ok());
    CHECK(at1->size() == 2);
    auto at2 = on_coordinator(*coord, [&] { return coord->snapshot(1, *t2); });
    REQUIRE(at2.ok());
    REQUIRE(at2->size() == 1);
    CHECK(at2->front().first == std::string(int_row(2).bytes()));
    // Both tables' uppers moved together past the write.
    CHECK(*coord->shards().upper(1002) == *t2 + 1);
    auto missing = write(*coord, {TableWrite{99, {{int_row(1), 1}}}});
    CHECK(!missing.ok());
    coord.reset();
    store->close();
  }
  {
    // After a restart the data is there and new timestamps are larger.
    auto store = std::move(tandem::storage::DurableStore::open({dir, false})).value();
    auto coord = std::move(Coordinator::open(*store)).value();
    REQUIRE(on_coordinator(*coord, [&] { return coord->open_table(1, 1001); }).is_ok());
    auto rows = on_coordinator(*coord, [&] { return coord->snapshot(1, coord->read_ts()); });
    REQUIRE(rows.ok());
    CHECK(rows->size() == 1);
    coord.reset();
    store->close();
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("idle tables' uppers advance on their own") {
  std::string dir = temp_dir();
  auto store = std::move(tandem::storage::DurableStore::open({dir, false})).value();
  CoordinatorOptions options;
  options.upper_interval = std::chrono::milliseconds(20);
  auto coord = std::move(Coordinator::open(*store, options)).value();
  REQUIRE(on_coordinator(*coord, [&] { return coord->open_table(5, 1005); }).is_ok());
  Timestamp before = coord->read_ts();
  Timestamp upper_before = *coord->shards().upper(1005);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(coord->read_ts() > before);
  CHECK(*coord->shards().upper(1005) > upper_before);
  coord.reset();
  store->close();
  std::filesystem::remove_all(dir);
}

TEST_CASE("concurrent writers share commits and all land", "[concurrency]") {
  std::string dir = temp_dir();
  auto store = std::move(tandem::storage::DurableStore::open({dir, true})).value();
  auto coord = std::move(Coordinator::open(*store)).value();
  REQUIRE(on_coordinator(*coord, [&] { return coord->open_table(1, 1001); }).is_ok());
  std::vector<std::thread> writers;
  std::atomic<int> ok{0};
  for (int w = 0; w < 4; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < 20; ++i) {
        if (write(*coord, {TableWrite{1, {{int_row(w * 100 + i), 1}}}}).ok()) ++ok;
      }
    });
  }
  for (auto& t : writers) t.join();
  CHECK(ok == 80);
  auto rows = on_coordinator(*coord, [&] { return coord->snapshot(1, coord->read_ts()); });
  REQUIRE(rows.ok());
  CHECK(rows->size() == 80);
  coord.reset();
  store->close();
  std::filesystem::remove_all(dir);
}

TEST_CASE("unique keys are enforced across writes and survive a restart") {
  std::string dir = temp_dir();
  std::vector<tandem::frontend::UniqueKey> keys = {{"t_pkey", {0}}};
  {
    auto store = std::move(tandem::storage::DurableStore::open({dir, false})).value();
    auto coord = std::move(Coordinator::open(*store)).value();
    REQUIRE(on_coordinator(*coord, [&] { return coord->open_table(1, 1001, keys); }).is_ok());
    REQUIRE(write(*coord, {TableWrite{1, {{int_row(1), 1}, {int_row(2), 1}}}}).ok());
    auto dup = write(*coord, {TableWrite{1, {{int_row(2), 1}}}});
    REQUIRE(!dup.ok());
    CHECK(dup.status().sqlstate() == "23505");
    CHECK(dup.status().message() == "duplicate key value violates unique constraint \"t_pkey\"");
    auto dup_in_batch = write(*coord, {TableWrite{1, {{int_row(3), 1}, {int_row(3), 1}}}});
    CHECK(!dup_in_batch.ok());
    // Nothing of a rejected write lands; delete + insert of one key is fine.
    REQUIRE(write(*coord, {TableWrite{1, {{int_row(2), -1}, {int_row(2), 1}}}}).ok());
    auto rows = on_coordinator(*coord, [&] { return coord->snapshot(1, coord->read_ts()); });
    CHECK(rows->size() == 2);
    coord.reset();
    store->close();
  }
  {
    auto store = std::move(tandem::storage::DurableStore::open({dir, false})).value();
    auto coord = std::move(Coordinator::open(*store)).value();
    REQUIRE(on_coordinator(*coord, [&] { return coord->open_table(1, 1001, keys); }).is_ok());
    CHECK(!write(*coord, {TableWrite{1, {{int_row(1), 1}}}}).ok());
    CHECK(write(*coord, {TableWrite{1, {{int_row(3), 1}}}}).ok());
    coord.reset();
    store->close();
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("writers sequencing on their own threads race DDL and upper ticks safely", "[concurrency]") {
  // try_write_inline sequences and commits on the caller's thread when the
  // write lane and the commit lane are free; write_and_ack sequences on the
  // caller's thread when the write lane is free, and through the
  // coordinator thread when a DDL statement or another writer holds it. Every acknowledged row lands exactly once,
  // keys stay unique, timestamps of one writer increase, and a table
  // opened meanwhile is advanced with the rest.
  std::string dir = temp_dir();
  auto store = std::move(tandem::storage::DurableStore::open({dir, false})).value();
  CoordinatorOptions options;
  options.upper_interval = std::chrono::milliseconds(1);
  auto coord = std::move(Coordinator::open(*store, options)).value();
  std::vector<tandem::frontend::UniqueKey> keys = {{"t_pkey", {0}}};
  REQUIRE(on_coordinator(*coord, [&] { return coord->open_table(1, 1001, keys); }).is_ok());
  std::atomic<int> inline_commits{0};
  auto write_and_ack = [&](std::vector<TableWrite> writes) {
    // As a session does: commit on this thread if nothing else commits.
    if (auto committed = coord->try_write_inline(writes)) {
      ++inline_commits;
      return *committed;
    }
    std::promise<Result<Timestamp>> p;
    coord->write_and_ack(std::move(writes), [&](Result<Timestamp> ts) { p.set_value(ts); });
    return p.get_future().get();
  };
  std::vector<std::thread> writers;
  std::atomic<int> acked{0}, duplicates{0};
  for (int w = 0; w < 4; ++w) {
    writers.emplace_back([&, w] {
      Timestamp last = 0;
      for (int i = 0; i < 100; ++i) {
        // Writers 0 and 1 insert the same keys: one of each pair wins.
        int key = (w < 2 ? 0 : w * 1000) + i;
        auto ts = write_and_ack({TableWrite{1, {{int_row(key), 1}}}});
        if (!ts.ok()) {
          CHECK(ts.status().sqlstate() == "23505");
          ++duplicates;
          continue;
        }
        CHECK(*ts > last);
        last = *ts;
        ++acked;
      }
    });
  }
  // Meanwhile the coordinator thread opens and drops other tables.
  for (int t = 2; t < 12; ++t) {
    REQUIRE(on_coordinator(*coord, [&] { return coord->open_table(t, 1000 + t); }).is_ok());
    if (t % 3 == 0) REQUIRE(on_coordinator(*coord, [&] { return coord->drop_table(t); }).is_ok());
  }
  for (auto& t : writers) t.join();
  CHECK(acked + duplicates == 400);
  CHECK(duplicates == 100);
  INFO("inline commits: " << inline_commits.load());
  CHECK(inline_commits > 0);
  auto rows = on_coordinator(*coord, [&] { return coord->snapshot(1, coord->read_ts()); });
  REQUIRE(rows.ok());
  CHECK(static_cast<int>(rows->size()) == acked.load());
  for (const auto& [row, diff] : *rows) CHECK(diff == 1);
  // A table opened while writers ran is readable at the latest time.
  auto other = on_coordinator(*coord, [&] { return coord->snapshot(11, coord->read_ts()); });
  CHECK(other.ok());
  coord.reset();
  store->close();
  std::filesystem::remove_all(dir);
}

// try_write_inline until it commits inline: it declines (nullopt, nothing
// done) while the storage committer is busy, e.g. with a compaction round's
// request.
std::optional<Result<Timestamp>> write_inline(Coordinator& coord, std::vector<TableWrite>& writes,
                                              const Coordinator::FeedLater& feed_later = nullptr) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto committed = coord.try_write_inline(writes, feed_later)) return committed;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return std::nullopt;
}

TEST_CASE("an inline commit's compute feed waits for its caller, and later commits feed it first") {
  // try_write_inline acknowledges at commit and leaves feeding compute to
  // `feed_later`; a later commit's drain feeds every queued commit, oldest
  // first.
  std::string dir = temp_dir();
  auto store = std::move(tandem::storage::DurableStore::open({dir, false})).value();
  CoordinatorOptions options;
  options.upper_interval = std::chrono::hours(1);  // no tick drains the queue meanwhile
  auto coord = std::move(Coordinator::open(*store, options)).value();
  REQUIRE(on_coordinator(*coord, [&] { return coord->open_table(1, 1001); }).is_ok());
  auto fed_upper = [&] { return on_coordinator(*coord, [&] { return coord->frontiers().get(1)->upper; }); };
  std::vector<std::function<void()>> held;
  std::vector<TableWrite> writes = {TableWrite{1, {{int_row(1), 1}}}};
  auto t1 = write_inline(*coord, writes, [&](std::function<void()> feed) { held.push_back(std::move(feed)); });
  REQUIRE(t1.has_value());
  REQUIRE(t1->ok());
  CHECK(held.size() == 1);
  CHECK(coord->read_ts() >= **t1);  // acknowledged: readable at its time ...
  CHECK(fed_upper() <= **t1);       // ... once compute has it, which waits
  auto t2 = write(*coord, {TableWrite{1, {{int_row(2), 1}}}});
  REQUIRE(t2.ok());
  CHECK(*t2 > **t1);
  CHECK(fed_upper() == *t2 + 1);  // write()'s callback runs after its feed, and t1's before it
  held.front()();                 // nothing left to feed
  CHECK(fed_upper() == *t2 + 1);
  // No feed_later: the commit is fed on this thread before it returns,
  // with the coordinator thread busy elsewhere meanwhile.
  std::promise<void> release;
  std::promise<void> parked;
  asio::post(coord->executor(), [&] {
    parked.set_value();
    release.get_future().wait();
  });
  parked.get_future().wait();
  std::vector<TableWrite> third = {TableWrite{1, {{int_row(3), 1}}}};
  auto t3 = write_inline(*coord, third);
  release.set_value();
  REQUIRE(t3.has_value());
  REQUIRE(t3->ok());
  CHECK(coord->frontiers().get(1)->upper == **t3 + 1);
  CHECK(fed_upper() == **t3 + 1);
  auto rows = on_coordinator(*coord, [&] { return coord->snapshot(1, **t3); });
  REQUIRE(rows.ok());
  CHECK(rows->size() == 3);
  coord.reset();
  store->close();
  std::filesystem::remove_all(dir);
}

namespace {

using tandem::compute::GlobalId;

// An index keyed by its one int4 column over source `table`.
tandem::compute::DataflowDescription index_on(GlobalId table, GlobalId index, Timestamp as_of) {
  using namespace tandem::compute;
  DataflowDescription desc;
  desc.debug_name = "index " + std::to_string(index);
  desc.source_imports.push_back(SourceImport{table});
  desc.objects_to_build.push_back(BuildDesc{index + 1000, PlanNode{Get{table, Get::Kind::kSource}}});
  desc.index_exports.push_back(
      IndexExport{index, index + 1000, {tandem::ScalarExpr::column(0, tandem::ColumnType{tandem::TypeId::kInt4})}});
  desc.as_of = as_of;
  return desc;
}

// The index's rows at `time` (a peek through the coordinator: it parks until
// the index has sealed `time`), as value -> multiplicity.
std::map<std::string, Diff> peek_index(Coordinator& c, uint64_t cluster, GlobalId index, Timestamp time) {
  std::promise<tandem::compute::PeekResponse> p;
  asio::post(c.executor(), [&] {
    tandem::compute::Peek peek{0, index, time, std::nullopt, tandem::compute::MapFilterProject::identity(1)};
    c.peek(cluster, std::nullopt, std::move(peek), [&](tandem::compute::PeekResponse r) { p.set_value(std::move(r)); });
  });
  auto r = p.get_future().get();
  INFO("peek of " << index << " at " << time << ": " << r.error.to_string());
  REQUIRE(r.kind == tandem::compute::PeekResponse::Kind::kRows);
  std::map<std::string, Diff> out;
  for (const auto& [row, diff] : r.rows) out[std::string(row.bytes())] += diff;
  return out;
}

}  // namespace

TEST_CASE("a table's first import replays off the coordinator thread while writes keep landing",
          "[concurrency]") {
  // The replay of a table for a cluster's first dataflow runs on the
  // replay thread while writers commit (inline, queued, and one staged
  // write): every acknowledged row reaches the index exactly once, on each
  // cluster, and the coordinator thread answers meanwhile. A second
  // cluster's replay is dropped with its cluster halfway.
  std::string dir = temp_dir();
  auto store = std::move(tandem::storage::DurableStore::open({dir, false})).value();
  CoordinatorOptions options;
  options.upper_interval = std::chrono::milliseconds(2);
  auto coord = std::move(Coordinator::open(*store, options)).value();
  REQUIRE(on_coordinator(*coord, [&] { return coord->open_table(1, 1001); }).is_ok());
  std::map<std::string, Diff> expected;
  auto key = [](int v) { return std::string(int_row(v).bytes()); };
  for (int batch = 0; batch < 10; ++batch) {
    std::vector<std::pair<Row, Diff>> rows;
    for (int i = 0; i < 10000; ++i) {
      rows.push_back({int_row(batch * 10000 + i), 1});
      ++expected[key(batch * 10000 + i)];
    }
    REQUIRE(write(*coord, {TableWrite{1, std::move(rows)}}).ok());
  }
  REQUIRE(on_coordinator(*coord, [&] { return coord->add_cluster(2, {}); }).is_ok());
  REQUIRE(on_coordinator(*coord, [&] { return coord->add_cluster(3, {}); }).is_ok());

  std::atomic<bool> stop{false};
  std::atomic<int> failed_writes{0};
  std::mutex acked_mutex;
  std::map<std::string, Diff> acked;
  std::vector<std::thread> writers;
  for (int w = 0; w < 2; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; !stop; ++i) {
        const int v = 1000000 * (w + 1) + i;
        std::vector<TableWrite> writes = {TableWrite{1, {{int_row(v), 1}}}};
        std::optional<Result<Timestamp>> ts = coord->try_write_inline(writes);
        if (!ts) {
          std::promise<Result<Timestamp>> p;
          coord->write_and_ack(std::move(writes), [&](Result<Timestamp> r) { p.set_value(r); });
          ts = p.get_future().get();
        }
        if (!ts->ok()) {  // Catch2 asserts only on the test's thread
          ++failed_writes;
          continue;
        }
        std::lock_guard lock(acked_mutex);
        ++acked[key(v)];
      }
    });
  }
  // Imports on three clusters while the writers run; cluster 3 goes away.
  for (uint64_t cluster : {0, 2, 3}) {
    tandem::Status sent = on_coordinator(*coord, [&] {
      return coord->send(cluster, tandem::compute::CreateDataflow{index_on(1, 7 + cluster, coord->read_ts())});
    });
    REQUIRE(sent.is_ok());
  }
  // A staged write lands while replays may still run.
  {
    auto staged = coord->begin_staged_write(1);
    REQUIRE(staged.ok());
    for (int i = 0; i < 3000; ++i) {
      REQUIRE((*staged)->add(int_row(5000000 + i).ref(), 1).is_ok());
      ++expected[key(5000000 + i)];
    }
    std::promise<Result<Timestamp>> p;
    coord->commit_staged(std::move(*staged), [&](Result<Timestamp> r) { p.set_value(r); });
    REQUIRE(p.get_future().get().ok());
  }
  // The coordinator thread is not held by the replays.
  CHECK(on_coordinator(*coord, [] { return 1; }) == 1);
  on_coordinator(*coord, [&] {
    coord->drop_cluster(3);
    return 0;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  stop = true;
  for (auto& t : writers) t.join();
  CHECK(failed_writes == 0);
  for (const auto& [v, d] : acked) expected[v] += d;
  for (uint64_t cluster : {0, 2}) {
    // Held, as a read holds what it reads: the index compacts meanwhile.
    const GlobalId index = 7 + cluster;
    auto hold = coord->frontiers().hold({index});
    REQUIRE(hold.time(index).has_value());
    auto rows = peek_index(*coord, cluster, index, std::max(coord->read_ts(), *hold.time(index)));
    CHECK(rows.size() == expected.size());
    CHECK(rows == expected);
  }
  coord.reset();
  store->close();
  std::filesystem::remove_all(dir);
}
