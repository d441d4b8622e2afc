// TimestampOracle: strictly increasing write timestamps >= the wall clock,
// monotonic across reopen even when the clock goes backwards, high-water
// persisted in chunks, read_ts following apply_write.

#include "storage/timestamp_oracle.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "storage/test_support.hpp"

using namespace tandem;
using namespace tandem::storage;
using tandem::storage::testing::open_durable;
using tandem::storage::testing::ScratchDir;

TEST_CASE("write timestamps increase, follow the wall clock and survive reopen") {
  ScratchDir dir;
  std::atomic<Timestamp> now{1'000'000};
  auto clock = [&] { return now.load(); };
  Timestamp last = 0;
  {
    auto durable = open_durable(dir.path());
    auto oracle = TimestampOracle::open(*durable, clock);
    REQUIRE(oracle.ok());
    for (int i = 0; i < 3000; ++i) {
      if (i % 100 == 0) now += 7;  // the clock moves slower than writes
      auto ts = (*oracle)->write_ts();
      REQUIRE(ts.ok());
      CHECK(*ts > last);
      CHECK(*ts >= now.load());
      last = *ts;
    }
    // Persisted once per kAllocationWindow of timestamps, not per write.
    CHECK((*oracle)->persisted_marks() <= 3000 / TimestampOracle::kAllocationWindow + 1);
    now = 5'000'000;  // a clock jump is honoured
    auto jumped = (*oracle)->write_ts();
    REQUIRE(jumped.ok());
    CHECK(*jumped == 5'000'000);
    last = *jumped;
  }
  // The wall clock went backwards across the restart: timestamps do not.
  now = 10;
  auto durable = open_durable(dir.path());
  auto oracle = TimestampOracle::open(*durable, clock);
  REQUIRE(oracle.ok());
  CHECK((*oracle)->read_ts() >= last);
  auto ts = (*oracle)->write_ts();
  REQUIRE(ts.ok());
  CHECK(*ts > last);
}

TEST_CASE("read_ts is the largest applied write timestamp") {
  ScratchDir dir;
  auto durable = open_durable(dir.path());
  auto oracle = TimestampOracle::open(*durable);
  REQUIRE(oracle.ok());
  TimestampOracle& o = **oracle;
  Timestamp before = TimestampOracle::system_wall_clock();
  auto w1 = o.write_ts();
  auto w2 = o.write_ts();
  REQUIRE(w1.ok());
  REQUIRE(w2.ok());
  CHECK(*w1 >= before);
  CHECK(*w2 > *w1);
  CHECK(o.read_ts() < *w1);  // nothing applied yet
  o.apply_write(*w1);
  CHECK(o.read_ts() == *w1);
  o.apply_write(*w2);
  CHECK(o.read_ts() == *w2);
  o.apply_write(*w1);  // never backwards
  CHECK(o.read_ts() == *w2);
}

TEST_CASE("concurrent callers get distinct write timestamps") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  auto oracle = TimestampOracle::open(*durable);
  REQUIRE(oracle.ok());
  std::vector<std::vector<Timestamp>> issued(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        auto ts = (*oracle)->write_ts();
        if (ts.ok()) issued[t].push_back(*ts);
      }
    });
  }
  for (auto& th : threads) th.join();
  std::vector<Timestamp> all;
  for (auto& v : issued) {
    CHECK(v.size() == 500);
    CHECK(std::is_sorted(v.begin(), v.end()));
    all.insert(all.end(), v.begin(), v.end());
  }
  std::sort(all.begin(), all.end());
  CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());
}
