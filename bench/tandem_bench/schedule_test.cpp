// The open-loop schedule: arrivals fixed in advance on the wall clock.
#include <catch2/catch.hpp>

#include "bench/tandem_bench/schedule.hpp"

using namespace tandem::bench;
using namespace std::chrono_literals;

TEST_CASE("a fixed rate spaces arrivals evenly from offset 0", "[bench]") {
  auto s = Schedule::fixed_rate(4);
  CHECK(*s.arrival(0, 1s) == 0ns);
  CHECK(*s.arrival(1, 1s) == 250ms);
  CHECK(*s.arrival(3, 1s) == 750ms);
  CHECK_FALSE(s.arrival(4, 1s));  // at the end: not issued
  CHECK(s.arrivals_before(1s) == 4);
  CHECK(s.arrivals_before(1001ms) == 5);
  CHECK(s.rate(1s) == 4);
}

TEST_CASE("a fixed rate does not drift over many arrivals", "[bench]") {
  auto s = Schedule::fixed_rate(3);  // 333.33 ms apart: no exact nanosecond step
  CHECK(*s.arrival(3'000'000, 10'000'000s) == 1'000'000s);
  CHECK(s.arrivals_before(10s) == 30);
  auto fast = Schedule::fixed_rate(12345.6);
  CHECK(fast.arrivals_before(2s) == 24692);
}

TEST_CASE("explicit offsets are sorted and cut at the end", "[bench]") {
  auto s = Schedule::at_offsets({1500ms, 200ms, 900ms});
  CHECK(*s.arrival(0, 1s) == 200ms);
  CHECK(*s.arrival(1, 1s) == 900ms);
  CHECK_FALSE(s.arrival(2, 1s));
  CHECK(s.arrivals_before(1s) == 2);
  CHECK(s.rate(2s) == Approx(1.5));
}
