// RowChannel (row_stream.hpp): rows come out in push order across threads,
// the bound refuses a push past it (the producer's back-pressure signal),
// an error ends the stream after the rows before it, abandoning it tells
// the producer and frees the buffer, and a deadline returns an empty,
// non-final batch.
#include <catch2/catch.hpp>

#include <future>
#include <thread>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "frontend/adapter/row_stream.hpp"

namespace tandem::frontend {
namespace {
namespace asio = boost::asio;

Row int_row(int v) { return Row::pack_one(Datum::from_int32(v)); }

std::vector<Row> rows(int from, int to) {
  std::vector<Row> out;
  for (int i = from; i < to; ++i) out.push_back(int_row(i));
  return out;
}

using Batch = Result<std::vector<Row>>;
using Guard = asio::executor_work_guard<asio::io_context::executor_type>;

// A coroutine function, not a capturing lambda: its parameters live in its
// frame for as long as it runs.
template <class Make>
asio::awaitable<void> drive(Make* make, std::optional<Batch>* out, Guard* guard) {
  out->emplace(co_await (*make)());
  guard->reset();
}

// Runs `make()`'s coroutine to completion on a private io_context (kept
// running while the coroutine waits for another thread to wake it).
template <class Make>
Batch run(Make make) {
  asio::io_context io;
  Guard guard = asio::make_work_guard(io);
  std::optional<Batch> out;
  asio::co_spawn(io, drive(&make, &out, &guard), asio::detached);
  io.run();
  return std::move(*out);
}

Result<std::vector<Row>> next_of(RowStream& stream, std::size_t max_rows = 0,
                                 std::optional<RowStream::Clock::time_point> deadline = {}) {
  return run([&] { return stream.next(max_rows, deadline); });
}

}  // namespace

TEST_CASE("a row channel delivers rows in order across threads", "[row_stream]") {
  auto channel = RowChannel::make(1 << 20);
  std::atomic<int> refused{0};  // Catch2 assertions stay on the test's thread
  std::thread producer([channel, &refused] {
    for (int i = 0; i < 10000; i += 100) {
      auto batch = rows(i, i + 100);
      if (channel->push(batch) != RowChannel::Push::kAccepted) ++refused;
      if (i % 1000 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    channel->finish();
  });
  int expected = 0;
  bool in_order = true;
  for (;;) {
    auto batch = next_of(*channel);
    REQUIRE(batch.ok());
    if (batch->empty()) break;
    for (const Row& r : *batch) {
      in_order = in_order && r == int_row(expected);
      ++expected;
    }
  }
  CHECK(in_order);
  producer.join();
  CHECK(refused == 0);
  CHECK(expected == 10000);
  CHECK(channel->ended());
}

TEST_CASE("a full row channel refuses a push until the consumer reads", "[row_stream]") {
  auto channel = RowChannel::make(10);
  auto first = rows(0, 8);
  CHECK(channel->push(first) == RowChannel::Push::kAccepted);
  auto more = rows(8, 12);
  CHECK(channel->push(more) == RowChannel::Push::kFull);
  CHECK(more.size() == 4);  // nothing taken
  CHECK(channel->buffered() == 8);
  auto part = next_of(*channel, 5);
  REQUIRE(part.ok());
  CHECK(part->size() == 5);
  CHECK(channel->push(more) == RowChannel::Push::kAccepted);
  auto rest = next_of(*channel);
  REQUIRE(rest.ok());
  REQUIRE(rest->size() == 7);
  CHECK(rest->front() == int_row(5));
  CHECK(rest->back() == int_row(11));
}

TEST_CASE("an error ends a row channel after the rows before it", "[row_stream]") {
  auto channel = RowChannel::make(100);
  auto batch = rows(0, 3);
  channel->push(batch);
  channel->finish(Status::error(sqlstate::kProgramLimitExceeded, "result exceeds max size of 1kB"));
  auto more = rows(3, 4);
  CHECK(channel->push(more) == RowChannel::Push::kClosed);
  auto got = next_of(*channel);
  REQUIRE(got.ok());
  CHECK(got->size() == 3);
  CHECK_FALSE(channel->ended());
  auto end = next_of(*channel);
  REQUIRE_FALSE(end.ok());
  CHECK(end.status().message() == "result exceeds max size of 1kB");
  CHECK(channel->ended());
}

TEST_CASE("abandoning a row channel wakes the consumer and tells the producer once", "[row_stream]") {
  auto channel = RowChannel::make(100);
  std::atomic<int> told{0};
  channel->set_on_abandon([&told] { ++told; });
  auto batch = rows(0, 3);
  channel->push(batch);
  std::thread canceler([channel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    channel->abandon(Status::error(sqlstate::kQueryCanceled, "canceling statement due to user request"));
    channel->abandon(Status::error(sqlstate::kQueryCanceled, "again"));
  });
  auto end = run([channel]() -> asio::awaitable<Result<std::vector<Row>>> {
    auto first = co_await channel->next();  // the buffered rows
    if (!first.ok() || first->size() != 3) co_return first;
    co_return co_await channel->next();     // suspends until abandoned
  });
  canceler.join();
  REQUIRE_FALSE(end.ok());
  CHECK(end.status().sqlstate() == sqlstate::kQueryCanceled);
  CHECK(told == 1);
  auto late = rows(3, 4);
  CHECK(channel->push(late) == RowChannel::Push::kClosed);
  CHECK(channel->buffered() == 0);
}

TEST_CASE("a row channel's deadline returns an empty batch that is not the end", "[row_stream]") {
  auto channel = RowChannel::make(100);
  auto start = RowStream::Clock::now();
  auto got = next_of(*channel, 0, start + std::chrono::milliseconds(30));
  REQUIRE(got.ok());
  CHECK(got->empty());
  CHECK_FALSE(channel->ended());
  CHECK(RowStream::Clock::now() - start >= std::chrono::milliseconds(30));
  // A push before the deadline resumes the consumer at once.
  std::thread producer([channel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    auto batch = rows(0, 2);
    channel->push(batch);
  });
  auto woke = next_of(*channel, 0, RowStream::Clock::now() + std::chrono::seconds(10));
  producer.join();
  REQUIRE(woke.ok());
  CHECK(woke->size() == 2);
}

}  // namespace tandem::frontend
