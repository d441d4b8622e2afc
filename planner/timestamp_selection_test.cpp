// Timestamp selection: each rule of determine_timestamp
// against hand-computed times, and AS OF evaluation.
#include "planner/timestamp_selection.hpp"

#include <catch2/catch.hpp>

#include "planner/parser/parser.hpp"

namespace tandem::planner {
namespace {

constexpr auto kStrict = IsolationLevel::kStrictSerializable;
constexpr auto kSerializable = IsolationLevel::kSerializable;

QueryWhen at(Timestamp t) { return QueryWhen{QueryWhen::Kind::kAtTimestamp, t}; }
QueryWhen at_least(Timestamp t) { return QueryWhen{QueryWhen::Kind::kAtLeastTimestamp, t}; }

// An index at [since 100, upper 150) and a table at [since 80, upper 200).
const std::vector<TimestampInput> kInputs{{1, 100, 150}, {2, 80, 200}};

}  // namespace

TEST_CASE("strict serializable reads at the oracle's read timestamp, even past an input's upper") {
  auto d = determine_timestamp(kInputs, kStrict, {}, 170, std::nullopt);
  REQUIRE(d.ok());
  CHECK(d->timestamp == 170);
  CHECK(d->oracle_read_ts == std::optional<Timestamp>(170));
  CHECK(d->since == 100);
  CHECK(d->upper == 150);
  CHECK(d->largest_not_in_advance_of_upper == 149);
  CHECK_FALSE(d->respond_immediately());  // compute parks the peek until 170 is sealed
  // An oracle behind the since: the since wins.
  CHECK(determine_timestamp(kInputs, kStrict, {}, 90, std::nullopt)->timestamp == 100);
}

TEST_CASE("serializable reads at the latest time every input has sealed, without the oracle") {
  auto d = determine_timestamp(kInputs, kSerializable, {}, 170, std::nullopt);
  REQUIRE(d.ok());
  CHECK(d->timestamp == 149);
  CHECK_FALSE(d->oracle_read_ts.has_value());
  CHECK(d->respond_immediately());
  // An input that sealed nothing past its since: the since (it must wait).
  auto unhydrated = determine_timestamp({{1, 100, 100}}, kSerializable, {}, 170, std::nullopt);
  CHECK(unhydrated->timestamp == 100);
  CHECK_FALSE(unhydrated->respond_immediately());
}

TEST_CASE("a read without inputs reads at the oracle's time under either level") {
  for (auto level : {kStrict, kSerializable}) {
    auto d = determine_timestamp({}, level, {}, 170, std::nullopt);
    REQUIRE(d.ok());
    CHECK(d->timestamp == 170);
    CHECK(d->upper == kMaxTimestamp);
    CHECK(d->respond_immediately());
  }
}

TEST_CASE("AS OF reads exactly there and must be valid for every input") {
  CHECK(determine_timestamp(kInputs, kStrict, at(120), 170, std::nullopt)->timestamp == 120);
  CHECK(determine_timestamp(kInputs, kSerializable, at(500), 170, std::nullopt)->timestamp == 500);
  auto early = determine_timestamp(kInputs, kStrict, at(90), 170, std::nullopt);
  REQUIRE_FALSE(early.ok());
  CHECK(early.status().message() ==
        "Timestamp (90) is not valid for all inputs: [Antichain { elements: [100] }, Antichain { elements: [80] }]");
}

TEST_CASE("AS OF AT LEAST advances to the since, never to the oracle or the upper") {
  CHECK(determine_timestamp(kInputs, kStrict, at_least(0), 170, std::nullopt)->timestamp == 100);
  CHECK(determine_timestamp(kInputs, kStrict, at_least(120), 170, std::nullopt)->timestamp == 120);
  CHECK(determine_timestamp(kInputs, kSerializable, at_least(0), 170, std::nullopt)->timestamp == 100);
  CHECK(determine_timestamp(kInputs, kSerializable, at_least(160), 170, std::nullopt)->timestamp == 160);
}

TEST_CASE("the reads of a transaction share its timestamp") {
  CHECK(determine_timestamp(kInputs, kStrict, {}, 170, Timestamp{130})->timestamp == 130);
  CHECK(determine_timestamp(kInputs, kSerializable, {}, 170, Timestamp{130})->timestamp == 130);
  CHECK_FALSE(determine_timestamp(kInputs, kStrict, {}, 170, Timestamp{95}).ok());
}

TEST_CASE("AS OF expressions evaluate to an mz_timestamp") {
  auto as_of = [](const std::string& sql) -> Result<QueryWhen> {
    auto parsed = sql::parse_statements("SELECT 1 AS OF " + sql);
    REQUIRE(parsed.ok());
    const auto* select = (*parsed)[0].statement.as<sql::SelectStatement>();
    REQUIRE(select != nullptr);
    REQUIRE(select->query.as_of.has_value());
    return evaluate_as_of(*select->query.as_of);
  };
  CHECK(as_of("1234")->ts == 1234);
  CHECK(as_of("1234")->kind == QueryWhen::Kind::kAtTimestamp);
  CHECK(as_of("AT LEAST 1000 + 5")->ts == 1005);
  CHECK(as_of("AT LEAST 7")->kind == QueryWhen::Kind::kAtLeastTimestamp);
  CHECK(as_of("'99'")->ts == 99);
  CHECK(as_of("NULL").status().message() == "AS OF or UP TO should be castable to a (non-null) mz_timestamp value");
  CHECK(as_of("now()").status().message() == "calling an unmaterializable function in AS OF or UP TO not yet supported");
  CHECK(as_of("mz_now()").status().sqlstate() == std::string(sqlstate::kFeatureNotSupported));
}

TEST_CASE("EXPLAIN TIMESTAMP prints EpochMillis times with their UTC datetime") {
  CHECK(format_timestamp_ms(1690473216287) == "1690473216287 (2023-07-27 15:53:36.287)");
  CHECK(format_timestamp_ms(1690473216000) == "1690473216000 (2023-07-27 15:53:36.000)");
}

}  // namespace tandem::planner
