// Percentiles, sample-count gating and the summary of a phase.
#include <catch2/catch.hpp>

#include "bench/tandem_bench/stats.hpp"

using namespace tandem::bench;

TEST_CASE("nearest-rank percentiles", "[bench]") {
  std::vector<double> v;
  for (int i = 1; i <= 100; ++i) v.push_back(i);
  CHECK(nearest_rank(v, 50) == 50);
  CHECK(nearest_rank(v, 95) == 95);
  CHECK(nearest_rank(v, 99) == 99);
  CHECK(nearest_rank(v, 100) == 100);
  CHECK(nearest_rank(v, 0.5) == 1);
  std::vector<double> one{7};
  CHECK(nearest_rank(one, 50) == 7);
  CHECK(nearest_rank(one, 99.9) == 7);
  std::vector<double> two{1, 2};
  CHECK(nearest_rank(two, 50) == 1);
  CHECK(nearest_rank(two, 51) == 2);
}

TEST_CASE("summary of unordered samples", "[bench]") {
  std::vector<double> v = {5, 1, 4, 2, 3};
  Summary s = summarize(v, 3, 2.0);
  CHECK(s.count == 5);
  CHECK(s.errors == 3);
  CHECK(s.qps == Approx(2.5));
  CHECK(s.avg == Approx(3));
  CHECK(s.p50 == 3);
  CHECK(s.p95 == 5);
  CHECK(s.max == 5);
  CHECK_FALSE(s.p99);
  CHECK_FALSE(s.p999);
}

TEST_CASE("p99 needs 1,000 samples and p99.9 needs 10,000", "[bench]") {
  std::vector<double> v;
  for (int i = 0; i < 999; ++i) v.push_back(i);
  CHECK_FALSE(summarize(v, 0, 1).p99);
  v.push_back(999);
  Summary s = summarize(v, 0, 1);
  REQUIRE(s.p99);
  CHECK(*s.p99 == 989);  // rank 990 of 0..999
  CHECK_FALSE(s.p999);
  for (int i = 1000; i < 9999; ++i) v.push_back(i);
  CHECK_FALSE(summarize(v, 0, 1).p999);
  v.push_back(9999);
  s = summarize(v, 0, 1);
  REQUIRE(s.p999);
  CHECK(*s.p999 == 9989);  // rank 9990 of 0..9999
}

TEST_CASE("errors only: counted, no latency", "[bench]") {
  Summary s = summarize({}, 4, 1);
  CHECK(s.count == 0);
  CHECK(s.errors == 4);
  CHECK(s.qps == 0);
  CHECK(s.p50 == 0);
  CHECK(s.max == 0);
}
