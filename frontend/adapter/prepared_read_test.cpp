// Prepared lookups (issue 5 item 10a): a prepared point lookup is planned
// once per catalog version and re-derives only its keys per execution. The
// cached plan must stay correct across parameter values, NULL, IN lists,
// cast failures, catalog changes (index dropped and re-created, table
// dropped, a new index) and concurrent writes.
//
// Driven through the Adapter as a connection would, on an io_context thread
// per client; the cache is inspected through PreparedStatement::read_cache.

#include <catch2/catch.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_future.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <random>
#include <thread>

#include "frontend/adapter/adapter.hpp"
#include "catalog/controller_status.hpp"
#include "storage/durable_store.hpp"

namespace asio = boost::asio;
using namespace tandem;
using namespace tandem::frontend;

namespace {

using Statement = std::shared_ptr<const PreparedStatement>;

// One client: a session served on its own io_context thread.
class Client {
 public:
  explicit Client(Adapter& adapter)
      : adapter_(adapter), work_(asio::make_work_guard(io_)), thread_([this] { io_.run(); }) {}
  ~Client() {
    work_.reset();
    thread_.join();
    pool_.join();
  }

  Statement prepare(const std::string& sql, std::vector<uint32_t> oids = {}) {
    auto parsed = adapter_.parse(sql);
    REQUIRE(parsed.ok());
    REQUIRE(parsed->size() == 1);
    auto prepared = adapter_.prepare(session_, std::move(parsed->front()), oids);
    INFO(sql << ": " << (prepared.ok() ? "" : prepared.status().message()));
    REQUIRE(prepared.ok());
    return *prepared;
  }
  Result<ExecResult> execute(const Statement& statement, std::vector<Datum> params = {}) {
    Row row = Row::pack(params);
    cancel_.begin_statement();
    std::optional<Result<ExecResult>> result;
    asio::co_spawn(
        io_,
        [&]() -> asio::awaitable<void> {
          result.emplace(co_await adapter_.execute(session_, *statement, row, cancel_, pool_));
          // A streamed result (a parked full scan) is read to its end, as
          // the connection does; an error midway is the statement's.
          if (result->ok() && (*result)->stream) {
            std::shared_ptr<RowStream> stream = std::move((*result)->stream);
            while (true) {
              auto batch = co_await stream->next();
              if (!batch.ok()) {
                result.emplace(batch.status());
                break;
              }
              if (batch->empty()) break;
              for (Row& r : *batch) (*result)->rows.push_back(std::move(r));
            }
          }
        },
        asio::use_future)
        .get();
    return std::move(*result);
  }
  // Runs `sql` and requires it to succeed.
  ExecResult run(const std::string& sql) {
    auto r = execute(prepare(sql));
    INFO(sql << ": " << (r.ok() ? "" : r.status().message()));
    REQUIRE(r.ok());
    return std::move(*r);
  }

 private:
  Adapter& adapter_;
  Session session_{"materialize", "materialize"};
  CancelToken cancel_;
  asio::thread_pool pool_{1};
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::thread thread_;
};

struct Engine {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tandem-prepared-read-" + std::to_string(std::random_device{}()));
  std::unique_ptr<storage::DurableStore> store = std::move(storage::DurableStore::open({dir.string(), false})).value();
  std::unique_ptr<Adapter> adapter = std::move(Adapter::open(*store)).value();
  ~Engine() {
    adapter.reset();
    store->close();
    std::filesystem::remove_all(dir);
  }
};

// The first column of each row, as int64 (NULL as -1), sorted.
std::vector<int64_t> ints(const Result<ExecResult>& r) {
  INFO((r.ok() ? "" : r.status().message()));
  REQUIRE(r.ok());
  std::vector<int64_t> out;
  for (const Row& row : r->rows) {
    Datum d = unpack_one(row);
    out.push_back(d.is_null() ? -1 : d.as_int64());
  }
  std::sort(out.begin(), out.end());
  return out;
}

compute::GlobalId cached_index(const Statement& s) {
  auto entry = s->read_cache.get();
  return entry && entry->lookup ? entry->lookup->index_id : 0;
}

Datum i32(int32_t v) { return Datum::from_int32(v); }

// t(k, v) holding (k, 10k) for k in 1..100, indexed on k; the prepared
// lookup of v by k.
Statement indexed_table_lookup(Client& c) {
  c.run("CREATE TABLE t (k int, v int)");
  c.run("INSERT INTO t SELECT g, g * 10 FROM generate_series(1, 100) g");
  c.run("CREATE INDEX t_k ON t (k)");
  return c.prepare("SELECT v FROM t WHERE k = $1");
}

}  // namespace

TEST_CASE("a prepared lookup is planned once and answers every parameter value") {
  Engine engine;
  Client c(*engine.adapter);
  Statement lookup = indexed_table_lookup(c);
  // The first execution plans for its values only; the second caches.
  CHECK(ints(c.execute(lookup, {i32(7)})) == std::vector<int64_t>{70});
  CHECK_FALSE(lookup->read_cache.get());
  CHECK(ints(c.execute(lookup, {i32(8)})) == std::vector<int64_t>{80});
  auto entry = lookup->read_cache.get();
  REQUIRE(entry);
  REQUIRE(entry->lookup);
  for (int32_t k : {1, 50, 100}) CHECK(ints(c.execute(lookup, {i32(k)})) == std::vector<int64_t>{k * 10});
  CHECK(ints(c.execute(lookup, {i32(101)})).empty());
  CHECK(ints(c.execute(lookup, {i32(-3)})).empty());
  // NULL matches nothing.
  CHECK(ints(c.execute(lookup, {Datum::null()})).empty());
  // Still the same plan: no re-planning while the catalog is unchanged.
  CHECK(lookup->read_cache.get() == entry);

  SECTION("an IN list of parameters, NULLs and duplicates among them") {
    Statement in = c.prepare("SELECT v FROM t WHERE k IN ($1, $2, $3)");
    for (int i = 0; i < 2; ++i) {
      CHECK(ints(c.execute(in, {i32(3), i32(5), i32(99)})) == std::vector<int64_t>{30, 50, 990});
    }
    REQUIRE(cached_index(in) != 0);
    CHECK(ints(c.execute(in, {i32(4), Datum::null(), i32(4)})) == std::vector<int64_t>{40});
    CHECK(ints(c.execute(in, {Datum::null(), Datum::null(), Datum::null()})).empty());
  }
  SECTION("a residual filter and a literal key beside parameters") {
    c.run("CREATE INDEX t_kv ON t (k, v)");
    Statement both = c.prepare("SELECT k FROM t WHERE v = $1 AND k = 4 AND k + v > $2");
    // Parameters in the residual filter: planned per execution, still right.
    CHECK(ints(c.execute(both, {i32(40), i32(0)})) == std::vector<int64_t>{4});
    CHECK(ints(c.execute(both, {i32(40), i32(44)})).empty());
    Statement key2 = c.prepare("SELECT k FROM t WHERE v = $1 AND k = 4");
    CHECK(ints(c.execute(key2, {i32(40)})) == std::vector<int64_t>{4});
    CHECK(ints(c.execute(key2, {i32(50)})).empty());
  }
  SECTION("a parameter that fails to cast is an error, and the next value works") {
    Statement cast = c.prepare("SELECT v FROM t WHERE k = $1::int", {25 /* text */});
    CHECK(ints(c.execute(cast, {Datum::from_string("8")})) == std::vector<int64_t>{80});
    auto bad = c.execute(cast, {Datum::from_string("eight")});
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.status().sqlstate() == std::string("22P02"));
    CHECK(ints(c.execute(cast, {Datum::from_string("9")})) == std::vector<int64_t>{90});
  }
}

TEST_CASE("catalog changes invalidate a prepared lookup") {
  Engine engine;
  Client c(*engine.adapter);
  Statement lookup = indexed_table_lookup(c);
  for (int i = 0; i < 2; ++i) CHECK(ints(c.execute(lookup, {i32(2)})) == std::vector<int64_t>{20});
  const compute::GlobalId first = cached_index(lookup);
  REQUIRE(first != 0);

  SECTION("an index dropped and re-created is found under its new id") {
    c.run("DROP INDEX t_k");
    c.run("CREATE INDEX t_k ON t (k)");
    CHECK(ints(c.execute(lookup, {i32(3)})) == std::vector<int64_t>{30});
    CHECK(cached_index(lookup) != first);
    CHECK(cached_index(lookup) != 0);
  }
  SECTION("a dropped table is an error, as in PostgreSQL") {
    c.run("DROP TABLE t CASCADE");
    auto r = c.execute(lookup, {i32(1)});
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().sqlstate() == std::string("42P01"));
    // A new table of the same name is read, as PostgreSQL re-plans.
    c.run("CREATE TABLE t (k int, v int)");
    c.run("INSERT INTO t VALUES (1, 11)");
    c.run("CREATE INDEX t_k ON t (k)");
    CHECK(ints(c.execute(lookup, {i32(1)})) == std::vector<int64_t>{11});
  }
  SECTION("a new, better index is used") {
    c.run("CREATE TABLE u (k int, v int)");
    c.run("INSERT INTO u VALUES (1, 100), (2, 200)");
    c.run("CREATE INDEX u_v ON u (v)");
    Statement on_u = c.prepare("SELECT v FROM u WHERE k = $1");
    for (int i = 0; i < 2; ++i) CHECK(ints(c.execute(on_u, {i32(2)})) == std::vector<int64_t>{200});
    REQUIRE(on_u->read_cache.get());
    CHECK(cached_index(on_u) == 0);  // no index on k: not a lookup
    c.run("CREATE INDEX u_k ON u (k)");
    CHECK(ints(c.execute(on_u, {i32(1)})) == std::vector<int64_t>{100});
    CHECK(cached_index(on_u) != 0);
  }
  SECTION("a renamed table is no longer found by its old name") {
    c.run("ALTER TABLE t RENAME TO t2");
    auto r = c.execute(lookup, {i32(1)});
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().sqlstate() == std::string("42P01"));
  }
}

TEST_CASE("a prepared lookup sees every write acknowledged before it starts") {
  Engine engine;
  Client writer(*engine.adapter);
  Client reader(*engine.adapter);
  writer.run("CREATE TABLE t (k int, v int)");
  writer.run("CREATE INDEX t_k ON t (k)");
  Statement insert = writer.prepare("INSERT INTO t VALUES ($1, $2)", {23, 23});  // int4
  Statement update = writer.prepare("UPDATE t SET v = $2 WHERE k = $1", {23, 23});
  Statement lookup = reader.prepare("SELECT v FROM t WHERE k = $1");
  std::atomic<int32_t> acknowledged{0};
  constexpr int32_t kWrites = 60;
  // Catch's assertions are not thread-safe: the writer reports its first
  // error after joining.
  Status write_error;
  std::thread writes([&] {
    for (int32_t k = 1; k <= kWrites && write_error.is_ok(); ++k) {
      for (auto [statement, v] : {std::pair{insert, k}, std::pair{update, k * 2}}) {
        auto r = writer.execute(statement, {i32(k), i32(v)});
        if (!r.ok()) write_error = r.status();
      }
      if (write_error.is_ok()) acknowledged.store(k, std::memory_order_release);
    }
    if (!write_error.is_ok()) acknowledged.store(kWrites + 1, std::memory_order_release);
  });
  int32_t checked = 0;
  while (checked < kWrites) {
    int32_t k = acknowledged.load(std::memory_order_acquire);
    if (k > kWrites) break;
    if (k == 0) {
      std::this_thread::yield();
      continue;
    }
    // The update of k was acknowledged before this read began.
    CHECK(ints(reader.execute(lookup, {i32(k)})) == std::vector<int64_t>{k * 2});
    checked = k;
  }
  writes.join();
  INFO((write_error.is_ok() ? std::string() : write_error.message()));
  REQUIRE(write_error.is_ok());
  CHECK(cached_index(lookup) != 0);
}

// time.slt's flaky "serializable too" reads: a serializable read picks the
// latest time its index has sealed, and the upper the coordinator knows
// trails the published one until its thread drains compute's responses. A
// read answered from the publication (this strict lookup) may already be
// past that upper; a serializable read after it must not pick an earlier
// time and miss the write the strict read saw. The coordinator thread is
// kept busy throughout, so the upper it knows stays before the write.
TEST_CASE("a serializable read after a strict one never reads at an earlier time") {
  Engine engine;
  Client writer(*engine.adapter);
  Client reader(*engine.adapter);
  Statement lookup = indexed_table_lookup(writer);
  CHECK(ints(writer.execute(lookup, {i32(7)})) == std::vector<int64_t>{70});
  CHECK(ints(writer.execute(lookup, {i32(7)})) == std::vector<int64_t>{70});
  const compute::GlobalId index = cached_index(lookup);
  const uint64_t cluster = catalog::cluster_to_compute(lookup->read_cache.get()->cluster_id);
  REQUIRE(index != 0);
  // The session's isolation applies when a statement runs.
  Statement read = reader.prepare("SELECT v FROM t WHERE k = $1");

  Coordinator& coord = engine.adapter->coordinator();
  std::promise<void> busy;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  asio::post(coord.executor(), [&busy, released] {
    busy.set_value();
    // Bounded: a write that needed this thread would find it after this.
    released.wait_for(std::chrono::seconds(20));
  });
  busy.get_future().wait();
  writer.run("INSERT INTO t VALUES (101, 1010)");
  // Compute seals the write; the coordinator cannot hear of it yet.
  const Timestamp written = coord.read_ts();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (coord.published_upper(cluster, index).value_or(0) <= written &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  REQUIRE(coord.published_upper(cluster, index).value_or(0) > written);
  CHECK(coord.frontiers().get(index)->upper <= written);
  CHECK(ints(reader.execute(read, {i32(101)})) == std::vector<int64_t>{1010});
  reader.run("SET transaction_isolation = 'serializable'");
  // Planned, then from the prepared lookup's cached plan.
  CHECK(ints(reader.execute(read, {i32(101)})) == std::vector<int64_t>{1010});
  CHECK(ints(reader.execute(read, {i32(101)})) == std::vector<int64_t>{1010});
  CHECK(ints(reader.execute(reader.prepare("SELECT v FROM t WHERE k = 101"))) == std::vector<int64_t>{1010});
  CHECK(coord.frontiers().get(index)->upper <= written);
  release.set_value();
}
