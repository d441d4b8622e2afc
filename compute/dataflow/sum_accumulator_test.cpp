// SumAccumulator (sum_accumulator.hpp): the edge cases of sum(numeric) and
// sum(float) as PostgreSQL and Materialize print them, and retractions that
// undo their insertions exactly, in any order.
#include "compute/dataflow/sum_accumulator.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

namespace tandem::compute {
namespace {

Numeric num(const char* text) { return *Numeric::parse(text); }

std::string numeric_text(const SumAccumulator& acc) {
  auto sum = acc.numeric_sum();
  return sum.ok() ? sum->to_string() : sum.status().sqlstate();
}

TEST_CASE("a numeric sum keeps the largest current scale, exactly", "[reduce][sum]") {
  SumAccumulator acc;
  acc.add_numeric(num("1.50"), 1);
  acc.add_numeric(num("2"), 2);
  CHECK(numeric_text(acc) == "5.50");
  acc.add_numeric(num("1.50"), -1);  // the only value of scale 2 leaves
  CHECK(numeric_text(acc) == "4");
  acc.add_numeric(num("-4"), 1);
  CHECK(numeric_text(acc) == "0");
  acc.add_numeric(num("0.000"), 1);
  CHECK(numeric_text(acc) == "0.000");
  acc.add_numeric(num("-4"), -1);
  acc.add_numeric(num("0.000"), -1);
  acc.add_numeric(num("2"), -2);
  CHECK(acc.is_zero());

  // 38 digits at scale 0 plus one at scale 38: both exact until the one
  // final rounding to 38 significant digits.
  acc.add_numeric(num("12345678901234567890"), 3);
  acc.add_numeric(num("0.00000000000000000000000000000000000001"), 1);
  CHECK(numeric_text(acc) == "37037036703703703670.000000000000000000");
  acc.add_numeric(num("0.00000000000000000000000000000000000001"), -1);
  CHECK(numeric_text(acc) == "37037036703703703670");
}

TEST_CASE("a numeric sum past 38 integer digits is 22003 until it fits again", "[reduce][sum]") {
  SumAccumulator acc;
  const Numeric nines = num("99999999999999999999999999999999999999");
  acc.add_numeric(nines, 1);
  acc.add_numeric(num("1"), 1);
  CHECK(numeric_text(acc) == "22003");
  acc.add_numeric(nines, -1);  // partial sums never counted: order does not matter
  acc.add_numeric(nines, 1);
  acc.add_numeric(num("1"), -1);
  CHECK(numeric_text(acc) == "99999999999999999999999999999999999999");
  // A coefficient sum past 2^127 (three of them) is still exact: taking two
  // away again leaves the one.
  acc.add_numeric(nines, 2);
  CHECK(numeric_text(acc) == "22003");
  acc.add_numeric(nines, -2);
  CHECK(numeric_text(acc) == "99999999999999999999999999999999999999");
  acc.add_numeric(nines, -1);
  CHECK(acc.is_zero());
}

TEST_CASE("numeric NaN and infinities are counted and retract", "[reduce][sum]") {
  SumAccumulator acc;
  acc.add_numeric(num("2.5"), 1);
  acc.add_numeric(Numeric::infinity(false), 1);
  CHECK(numeric_text(acc) == "Infinity");
  acc.add_numeric(Numeric::infinity(true), 1);
  CHECK(numeric_text(acc) == "NaN");  // PostgreSQL: Infinity + -Infinity
  acc.add_numeric(Numeric::infinity(false), -1);
  CHECK(numeric_text(acc) == "-Infinity");
  acc.add_numeric(Numeric::nan(), 2);
  CHECK(numeric_text(acc) == "NaN");
  acc.add_numeric(Numeric::nan(), -2);
  acc.add_numeric(Numeric::infinity(true), -1);
  CHECK(numeric_text(acc) == "2.5");
}

TEST_CASE("a float sum is Materialize's fixed point of value * 2^24", "[reduce][sum]") {
  SumAccumulator acc;
  acc.add_float(0.5, 1);
  acc.add_float(-0.25, 3);
  CHECK(*acc.float_sum() == -0.25);
  acc.add_float(0.5, -1);
  acc.add_float(-0.25, -3);
  CHECK(acc.is_zero());
  // trunc(0.1 · 2^24) + trunc(0.2 · 2^24), over 2^24.
  acc.add_float(0.1, 1);
  acc.add_float(0.2, 1);
  CHECK(*acc.float_sum() == 5033164.0 / 16777216.0);
  acc.add_float(0.1, -1);
  acc.add_float(0.2, -1);
  CHECK(acc.is_zero());

  acc.add_float(1.0, 1);
  acc.add_float(NAN, 1);
  CHECK(std::isnan(*acc.float_sum()));
  acc.add_float(NAN, -1);
  acc.add_float(INFINITY, 1);
  CHECK(*acc.float_sum() == INFINITY);
  acc.add_float(-INFINITY, 1);
  CHECK(std::isnan(*acc.float_sum()));
  acc.add_float(INFINITY, -1);
  CHECK(*acc.float_sum() == -INFINITY);
  acc.add_float(-INFINITY, -1);
  CHECK(*acc.float_sum() == 1.0);
  // Beyond the fixed point's range: an error while the term is present.
  acc.add_float(1e300, 1);
  CHECK(acc.float_sum().status().sqlstate() == "22003");
  acc.add_float(1e300, -1);
  CHECK(*acc.float_sum() == 1.0);
}

TEST_CASE("sums do not depend on the order of insertions and retractions", "[reduce][sum]") {
  std::mt19937_64 rng(5);
  const std::vector<const char*> numerics{"1.5", "-2.25", "3", "0.001", "NaN", "Infinity", "-7.10", "100"};
  const std::vector<double> floats{1.5, -2.25, 3.0, 0.001, NAN, INFINITY, -7.1, 100.0};
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::pair<std::size_t, Diff>> terms;
    for (int i = 0; i < 12; ++i) terms.emplace_back(rng() % numerics.size(), static_cast<Diff>(rng() % 5) - 2);
    SumAccumulator forward;
    SumAccumulator backward;
    SumAccumulator merged;
    SumAccumulator halves[2];
    for (std::size_t i = 0; i < terms.size(); ++i) {
      const auto& [v, d] = terms[i];
      forward.add_numeric(num(numerics[v]), d);
      forward.add_float(floats[v], d);
      const auto& [w, e] = terms[terms.size() - 1 - i];
      backward.add_numeric(num(numerics[w]), e);
      backward.add_float(floats[w], e);
      halves[i % 2].add_numeric(num(numerics[v]), d);
      halves[i % 2].add_float(floats[v], d);
    }
    merged.merge(halves[1]);
    merged.merge(halves[0]);
    for (const SumAccumulator* other : {&backward, &merged}) {
      CHECK(numeric_text(*other) == numeric_text(forward));
      const double a = *other->float_sum();
      const double b = *forward.float_sum();
      CHECK(((std::isnan(a) && std::isnan(b)) || a == b));
    }
    // Retracting every term empties it.
    for (const auto& [v, d] : terms) {
      forward.add_numeric(num(numerics[v]), -d);
      forward.add_float(floats[v], -d);
    }
    CHECK(forward.is_zero());
  }
}

}  // namespace
}  // namespace tandem::compute
