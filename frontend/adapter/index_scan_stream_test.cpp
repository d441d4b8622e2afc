// IndexScanStream over a spilled index (issue 9 item 5): a streamed full
// scan whose walk reads spilled blocks back walks each batch on the offload
// pool, so the consumer's I/O thread runs other handlers meanwhile; the rows
// are the resident scan's; the since hold and the scan's batches stay until
// the stream ends; a cancel request or abandon() during a walk on the pool
// ends the stream with its error and releases the scan. A resident index
// streams on the consumer's thread, never through the pool.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "compute/testing/harness.hpp"
#include "compute/testing/offload_gate.hpp"
#include "compute/testing/spill_budget.hpp"
#include "frontend/adapter/index_scan_stream.hpp"

namespace tandem::frontend {
namespace {
namespace asio = boost::asio;
using compute::testing::Gate;
using compute::testing::Harness;
using compute::testing::key;
using compute::testing::row2;

constexpr int kRows = 20000;
constexpr compute::GlobalId kIndex = 7;

// Index kIndex over (k, -k) for k < kRows, sealed and published at time 1.
std::unique_ptr<Harness> indexed(std::shared_ptr<compute::OffloadPool> pool) {
  compute::RuntimeOptions options;
  options.workers = 2;
  options.offload_pool = std::move(pool);
  auto h = std::make_unique<Harness>(std::move(options), std::vector<compute::GlobalId>{1});
  for (int k = 0; k < kRows; ++k) h->update(1, row2(k, -k), 1, 1);
  h->advance_all(2);
  h->install(compute::testing::source(1), kIndex);
  compute::Peek probe{0, kIndex, 1, std::vector<Row>{key(1)}, compute::MapFilterProject::identity(2)};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!h->runtime().peek_if_ready(probe, 0)) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return h;
}

// The sealed full scan of kIndex at time 1, as a stream; `closed` is set
// when its IndexScan (snapshots and holds) is released.
std::shared_ptr<IndexScanStream> open_stream(Harness& h, std::shared_ptr<compute::OffloadPool> pool,
                                             std::shared_ptr<CancelToken> cancel, bool* closed) {
  const compute::Peek scan{0, kIndex, 1, std::nullopt, compute::MapFilterProject::identity(2)};
  auto opened = h.runtime().scan_if_ready(scan);
  REQUIRE(opened.has_value());
  REQUIRE(opened->ok());
  std::unique_ptr<compute::IndexScan> index_scan = std::move(opened->value());
  index_scan->set_on_close([closed] { *closed = true; });
  planner::Finishing finishing;
  finishing.visible = 2;
  return std::make_shared<IndexScanStream>(std::move(index_scan), finishing, std::move(cancel), 0, "",
                                           std::move(pool));
}

// Drives the stream to its end on `io`, recording the rows and the thread
// of each resumption (its own executor, whatever thread walked the batch).
struct Reader {
  std::multiset<std::string> rows;
  std::optional<Status> error;
  bool done = false;
  std::size_t batches = 0;
  bool resumed_elsewhere = false;
};

asio::awaitable<void> read_all(std::shared_ptr<RowStream> stream, Reader* reader) {
  const auto self = std::this_thread::get_id();
  while (!stream->ended()) {
    auto batch = co_await stream->next(0);
    if (std::this_thread::get_id() != self) reader->resumed_elsewhere = true;
    ++reader->batches;
    if (!batch.ok()) {
      reader->error = batch.status();
      break;
    }
    for (const Row& r : *batch) reader->rows.insert(std::string(r.bytes()));
  }
  reader->done = true;
}

std::multiset<std::string> expected_rows() {
  std::multiset<std::string> out;
  for (int k = 0; k < kRows; ++k) out.insert(std::string(row2(k, -k).bytes()));
  return out;
}

// Runs `io` until `ready()` or nothing is left to run (a walk on the pool
// keeps nothing queued there: run_one() then returns 0 and io is restarted).
template <class Ready>
void run_until(asio::io_context& io, Ready ready) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!ready()) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    if (io.run_one_for(std::chrono::milliseconds(20)) == 0) io.restart();
  }
}

// A stream over the spilled index whose reader is started on `io` while
// the pool is held: run_held() returns once another handler ran on `io`
// with the first batch still waiting for the pool.
struct HeldScan {
  Gate gate;
  Reader reader;
  bool closed = false;
  std::shared_ptr<IndexScanStream> stream;
};

void run_held(HeldScan& held, Harness& h, const std::shared_ptr<compute::OffloadPool>& pool,
              std::shared_ptr<CancelToken> cancel, asio::io_context& io) {
  held.stream = open_stream(h, pool, std::move(cancel), &held.closed);
  held.gate.close(*pool);
  asio::co_spawn(io, read_all(held.stream, &held.reader), asio::detached);
  bool other_ran = false;
  asio::post(io, [&] { other_ran = true; });
  run_until(io, [&] { return other_ran; });
}

}  // namespace

TEST_CASE("a streamed scan of a spilled index walks on the pool, not the consumer's thread",
          "[index_scan_stream][spill][concurrency]") {
  compute::testing::SpillBudget spill(0, 64 * 1024);  // a cache smaller than the index
  auto pool = std::make_shared<compute::OffloadPool>(compute::OffloadPool::Options{1, 8});
  auto h = indexed(pool);
  auto cancel = std::make_shared<CancelToken>();
  cancel->begin_statement();
  asio::io_context io;

  SECTION("resident: on the consumer's thread, without the pool") {
    bool closed = false;
    auto stream = open_stream(*h, pool, cancel, &closed);
    Gate gate;  // the pool is held: a walk sent there could not finish
    gate.close(*pool);
    Reader reader;
    asio::co_spawn(io, read_all(stream, &reader), asio::detached);
    run_until(io, [&] { return reader.done; });
    gate.open();
    CHECK_FALSE(reader.error.has_value());
    CHECK(reader.rows == expected_rows());
    CHECK(closed);
  }

  SECTION("spilled: each batch on the pool while the consumer's thread serves others") {
    spill.budget().set_limit(1);  // every batch spilled, its blocks not cached
    HeldScan held;
    run_held(held, *h, pool, cancel, io);
    CHECK(held.reader.batches == 0);
    CHECK_FALSE(held.closed);  // the scan (its batches, its holds) is kept
    const std::uint64_t misses = spill.budget().stats().cache.misses;
    held.gate.open();
    run_until(io, [&] { return held.reader.done; });
    CHECK_FALSE(held.reader.error.has_value());
    CHECK(held.reader.rows == expected_rows());
    CHECK(held.reader.batches > 2);  // several batches, each a pool job
    CHECK_FALSE(held.reader.resumed_elsewhere);
    CHECK(spill.budget().stats().cache.misses > misses);  // the pool read them back
    CHECK(held.closed);
  }

  SECTION("spilled: a cancel request ends the stream at its next batch and releases the scan") {
    spill.budget().set_limit(1);
    HeldScan held;
    run_held(held, *h, pool, cancel, io);
    cancel->cancel(CancelToken::Reason::kUserRequest);
    held.gate.open();
    run_until(io, [&] { return held.reader.done; });
    REQUIRE(held.reader.error.has_value());
    CHECK(held.reader.error->sqlstate() == std::string(sqlstate::kQueryCanceled));
    CHECK(held.reader.rows.empty());
    CHECK(held.closed);
  }

  SECTION("spilled: abandon() while its batch waits for the pool ends the stream") {
    spill.budget().set_limit(1);
    HeldScan held;
    run_held(held, *h, pool, cancel, io);
    // From another thread, as a client going away would.
    std::thread([&] { held.stream->abandon(Status::error(sqlstate::kConnectionException, "gone")); }).join();
    held.gate.open();
    run_until(io, [&] { return held.reader.done; });
    REQUIRE(held.reader.error.has_value());
    CHECK(held.reader.error->sqlstate() == std::string(sqlstate::kConnectionException));
    CHECK(held.reader.rows.empty());
    CHECK(held.closed);
  }
}

}  // namespace tandem::frontend
