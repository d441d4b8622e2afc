// The --compare regression gate.
#include <catch2/catch.hpp>

#include "bench/tandem_bench/compare.hpp"

using namespace tandem::bench;
using nlohmann::json;

namespace {

json run_with(bool contended, double qps, double p50, double p99, int count = 100, bool background = false) {
  json q = {{"name", "lookup"}, {"background", background}, {"count", count}, {"qps", qps},
            {"avg_us", p50},    {"p50_us", p50},            {"p95_us", p50 * 2}};
  if (p99 > 0) q["p99_us"] = p99;
  json phase = {{"name", "quiet"}, {"queries", json::array({q})}};
  json arm = {{"name", "a"}, {"phases", json::array({phase})}};
  json scenario = {{"name", "S"}, {"contended", contended}, {"arms", json::array({arm})}};
  return {{"scenarios", json::array({scenario})}};
}

int regressions(const std::vector<CompareLine>& lines) {
  int n = 0;
  for (const auto& l : lines) n += l.regressed;
  return n;
}

const CompareLine* metric(const std::vector<CompareLine>& lines, const std::string& m) {
  for (const auto& l : lines)
    if (l.metric == m) return &l;
  return nullptr;
}

}  // namespace

TEST_CASE("quiet scenarios gate at 1.2x, contended ones at 1.5x", "[bench]") {
  auto quiet = compare_runs(run_with(false, 1000, 100, 0), run_with(false, 1000, 130, 0));
  CHECK(regressions(quiet) == 3);  // avg, p50, p95 all 1.3x worse
  REQUIRE(metric(quiet, "p50_us"));
  CHECK(metric(quiet, "p50_us")->worse_by == Approx(1.3));
  CHECK(metric(quiet, "p50_us")->limit == kQuietLimit);
  CHECK(regressions(compare_runs(run_with(true, 1000, 100, 0), run_with(true, 1000, 130, 0))) == 0);
  CHECK(regressions(compare_runs(run_with(true, 1000, 100, 0), run_with(true, 1000, 160, 0))) == 3);
}

TEST_CASE("qps is worse when lower", "[bench]") {
  auto lines = compare_runs(run_with(false, 1000, 100, 0), run_with(false, 800, 100, 0));
  REQUIRE(metric(lines, "qps"));
  CHECK(metric(lines, "qps")->worse_by == Approx(1.25));
  CHECK(metric(lines, "qps")->regressed);
  CHECK(regressions(compare_runs(run_with(false, 1000, 100, 0), run_with(false, 5000, 50, 0))) == 0);
}

TEST_CASE("p99 is reported, never gated", "[bench]") {
  auto lines = compare_runs(run_with(false, 1000, 100, 200), run_with(false, 1000, 100, 2000));
  REQUIRE(metric(lines, "p99_us"));
  CHECK(metric(lines, "p99_us")->worse_by == Approx(10));
  CHECK_FALSE(metric(lines, "p99_us")->regressed);
  CHECK(regressions(lines) == 0);
}

TEST_CASE("losing every successful sample is a regression, and background load is not gated", "[bench]") {
  auto lost = compare_runs(run_with(false, 1000, 100, 0), run_with(false, 0, 0, 0, 0));
  REQUIRE(metric(lost, "count"));
  CHECK(regressions(lost) == 1);
  CHECK(regressions(compare_runs(run_with(false, 1000, 100, 0, 100, true),
                                 run_with(false, 100, 1000, 0, 100, true))) == 0);
  // Queries missing from the old run are not compared.
  json other = run_with(false, 1000, 100, 0);
  other["scenarios"][0]["name"] = "T";
  CHECK(compare_runs(other, run_with(false, 1, 1e6, 0)).empty());
}
