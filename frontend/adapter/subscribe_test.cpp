// SubscribeSink (subscribe.hpp): sinked updates become SUBSCRIBE's rows in
// time order, consolidated, with progress rows, SNAPSHOT = false, UP TO,
// errors after the rows before them, a bounded buffer that ends a
// subscribe whose client falls behind, and ENVELOPE UPSERT's states.
#include <catch2/catch.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include "common/value_io.hpp"
#include "compute/dataflow/error_row.hpp"
#include "frontend/adapter/subscribe.hpp"
#include "planner/parser/parser.hpp"

namespace tandem::frontend {
namespace {
namespace asio = boost::asio;

std::shared_ptr<const BoundSubscribe> bind(const std::string& sql) {
  auto parsed = sql::parse_one(sql);
  REQUIRE(parsed.ok());
  auto bound = bind_subscribe(*parsed->as<sql::Subscribe>(), {ResultColumn{"a", ColumnType{TypeId::kInt4}}});
  REQUIRE(bound.ok());
  return *bound;
}

compute::SinkUpdate update(int a, Timestamp t, Diff d) {
  return compute::SinkUpdate{Row::pack_one(Datum::from_int32(a)), t, d};
}

compute::SinkBatch batch(Timestamp upper, std::vector<compute::SinkUpdate> oks) {
  compute::SinkBatch b;
  b.sink_id = 1;
  b.upper = upper;
  b.oks = std::move(oks);
  return b;
}

asio::awaitable<void> take_ready(RowChannel* channel, std::optional<Result<std::vector<Row>>>* out) {
  out->emplace(co_await channel->next(0, RowStream::Clock::now()));
}

// Everything the channel holds now, as text lines "c1 c2 ...", then the
// end's error message if it ended with one.
std::vector<std::string> drain(RowChannel& channel, const BoundSubscribe& bound) {
  std::vector<std::string> lines;
  for (;;) {
    // Only what is buffered: the deadline is now, so this never waits.
    asio::io_context io;
    std::optional<Result<std::vector<Row>>> out;
    asio::co_spawn(io, take_ready(&channel, &out), asio::detached);
    io.run();
    auto rows = std::move(*out);
    if (!rows.ok()) {
      lines.push_back("error: " + rows.status().message());
      return lines;
    }
    if (rows->empty()) return lines;
    RowArena arena;
    for (const Row& r : *rows) {
      std::string line;
      auto datums = unpack(r.ref(), &arena);
      for (size_t i = 0; i < datums.size(); ++i) {
        if (i) line += " ";
        line += datums[i].is_null() ? "NULL" : datum_to_text(datums[i], bound.columns[i].type);
      }
      lines.push_back(line);
    }
  }
}

}  // namespace

TEST_CASE("subscribe rows come in time order, consolidated", "[subscribe]") {
  auto bound = bind("SUBSCRIBE t");
  auto channel = RowChannel::make(100);
  SubscribeSink sink(bound, 10, channel);
  REQUIRE(sink.start());
  CHECK(sink.deliver(batch(12, {update(2, 11, 1), update(1, 10, 1), update(3, 11, 1), update(3, 11, -1),
                                update(1, 10, 1)})));
  CHECK(drain(*channel, *bound) == std::vector<std::string>{"10 2 1", "11 1 2"});
  CHECK(sink.deliver(batch(13, {update(1, 12, -2)})));
  CHECK(drain(*channel, *bound) == std::vector<std::string>{"12 -2 1"});
}

TEST_CASE("subscribe progress rows, SNAPSHOT = false and UP TO", "[subscribe]") {
  auto bound = bind("SUBSCRIBE t WITH (PROGRESS, SNAPSHOT = false) UP TO 15");
  CHECK(bound->columns[1].name == "mz_progressed");
  auto channel = RowChannel::make(100);
  SubscribeSink sink(bound, 10, channel);
  REQUIRE(sink.start());
  CHECK(sink.deliver(batch(12, {update(1, 10, 1), update(2, 11, 1)})));
  CHECK(sink.deliver(batch(12, {})));  // no progress: nothing new
  CHECK_FALSE(sink.deliver(batch(20, {update(3, 14, 1), update(4, 15, 1)})));  // reaches UP TO
  CHECK(drain(*channel, *bound) ==
        std::vector<std::string>{"10 t NULL NULL", "11 f 1 2", "12 t NULL NULL", "14 f 1 3"});
  CHECK(channel->ended());

  auto empty = RowChannel::make(100);
  SubscribeSink done(bind("SUBSCRIBE t AS OF 5 UP TO 5"), 5, empty);
  CHECK_FALSE(done.start());
  CHECK(drain(*empty, *bound).empty());
  CHECK(empty->ended());
}

TEST_CASE("a subscribe's error follows the rows before it", "[subscribe]") {
  auto bound = bind("SUBSCRIBE t");
  auto channel = RowChannel::make(100);
  SubscribeSink sink(bound, 10, channel);
  REQUIRE(sink.start());
  auto b = batch(13, {update(1, 10, 1), update(2, 12, 1)});
  b.errs.push_back(compute::SinkUpdate{
      compute::error_row(Status::error(sqlstate::kDivisionByZero, "division by zero")), 12, 1});
  CHECK_FALSE(sink.deliver(std::move(b)));
  CHECK(drain(*channel, *bound) == std::vector<std::string>{"10 1 1", "error: Evaluation error: division by zero"});
}

TEST_CASE("a subscribe whose client falls behind ends with an error", "[subscribe]") {
  auto bound = bind("SUBSCRIBE t");
  auto channel = RowChannel::make(3);
  SubscribeSink sink(bound, 10, channel);
  REQUIRE(sink.start());
  CHECK(sink.deliver(batch(11, {update(1, 10, 1), update(2, 10, 1)})));
  CHECK_FALSE(sink.deliver(batch(12, {update(3, 11, 1), update(4, 11, 1)})));
  auto lines = drain(*channel, *bound);
  REQUIRE(lines.size() == 3);
  CHECK(lines[2].find("subscribe ended: the client fell more than") != std::string::npos);
}

TEST_CASE("ENVELOPE UPSERT turns each key's updates at a time into one state", "[subscribe]") {
  auto parsed = sql::parse_one("SUBSCRIBE t ENVELOPE UPSERT (KEY (k))");
  REQUIRE(parsed.ok());
  auto bound = bind_subscribe(*parsed->as<sql::Subscribe>(), {ResultColumn{"v", ColumnType{TypeId::kText}},
                                                               ResultColumn{"k", ColumnType{TypeId::kInt4}}});
  REQUIRE(bound.ok());
  // The key first, then the values; mz_state instead of mz_diff.
  std::vector<std::string> names;
  for (const auto& c : (*bound)->columns) names.push_back(c.name);
  CHECK(names == std::vector<std::string>{"mz_timestamp", "mz_state", "k", "v"});
  auto channel = RowChannel::make(100);
  SubscribeSink sink(*bound, 10, channel);
  REQUIRE(sink.start());
  auto vk = [](int k, const char* v, Timestamp t, Diff d) {
    return compute::SinkUpdate{Row::pack(std::vector<Datum>{Datum::from_string(v), Datum::from_int32(k)}), t, d};
  };
  CHECK(sink.deliver(batch(12, {vk(3, "c", 10, 1), vk(1, "a", 10, 1), vk(2, "b", 10, 1), vk(2, "bb", 10, 1),
                                vk(4, "d", 10, 2), vk(1, "a", 11, -1), vk(1, "z", 11, 1), vk(3, "c", 11, -1),
                                vk(5, "e", 11, 1), vk(5, "e", 11, -1)})));
  CHECK(drain(*channel, **bound) ==
        std::vector<std::string>{"10 upsert 1 a", "10 key_violation 2 NULL", "10 upsert 3 c",
                                 "10 key_violation 4 NULL", "11 upsert 1 z", "11 delete 3 NULL"});
  // Consolidation first: an insert and its retraction at one time are no change.
  CHECK(sink.deliver(batch(13, {vk(6, "f", 12, 1), vk(6, "f", 12, -1)})));
  CHECK(drain(*channel, **bound).empty());

  auto missing = bind_subscribe(*sql::parse_one("SUBSCRIBE t ENVELOPE UPSERT (KEY (x))")->as<sql::Subscribe>(),
                                {ResultColumn{"k", ColumnType{TypeId::kInt4}}});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message() == "No such column: x");
}

}  // namespace tandem::frontend
