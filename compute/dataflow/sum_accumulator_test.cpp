// SumAccumulator (sum_accumulator.hpp): the edge cases of sum(numeric) and
// sum(float) as PostgreSQL prints them, and retractions that
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

TEST_CASE("a float sum is the exact sum of its terms, rounded once", "[reduce][sum]") {
  SumAccumulator acc;
  acc.add_float(0.5, 1);
  acc.add_float(-0.25, 3);
  CHECK(*acc.float_sum() == -0.25);
  acc.add_float(0.5, -1);
  acc.add_float(-0.25, -3);
  CHECK(acc.is_zero());
  // Two terms: one rounding, as PostgreSQL's 0.1 + 0.2.
  acc.add_float(0.1, 1);
  acc.add_float(0.2, 1);
  CHECK(*acc.float_sum() == 0.1 + 0.2);
  CHECK(*acc.float_sum() == 0.30000000000000004);
  acc.add_float(0.1, -1);
  acc.add_float(0.2, -1);
  CHECK(acc.is_zero());
  // A small term next to a large one is not absorbed: the true sum.
  acc.add_float(1e20, 1);
  acc.add_float(1.0, 1);
  acc.add_float(1e20, -1);
  CHECK(*acc.float_sum() == 1.0);
  acc.add_float(1.0, -1);
  CHECK(acc.is_zero());
  // Tiny and subnormal terms are exact too.
  acc.add_float(1e-300, 1000);
  CHECK(*acc.float_sum() == 1e-300 * 1000);
  acc.add_float(1e-300, -1000);
  acc.add_float(5e-324, 3);
  CHECK(*acc.float_sum() == 1.5e-323);
  acc.add_float(5e-324, -3);
  CHECK(acc.is_zero());
  // Round to nearest, ties to even: 2^53 + 1 is halfway, 2^53 + 3 too.
  acc.add_float(9007199254740992.0, 1);
  acc.add_float(1.0, 1);
  CHECK(*acc.float_sum() == 9007199254740992.0);
  acc.add_float(2.0, 1);
  CHECK(*acc.float_sum() == 9007199254740996.0);
  acc.add_float(1e-30, 1);  // just above the tie: rounds up
  acc.add_float(1.0, -1);
  acc.add_float(2.0, -1);
  acc.add_float(1.0, 1);
  CHECK(*acc.float_sum() == 9007199254740994.0);
  acc.add_float(1e-30, -1);
  acc.add_float(1.0, -1);
  acc.add_float(9007199254740992.0, -1);
  CHECK(acc.is_zero());
  // Negative sums, and multiplicities.
  acc.add_float(-0.1, 7);
  CHECK(*acc.float_sum() == -0.7000000000000001);  // the exact 7 * double(0.1), rounded
  acc.add_float(-0.1, -7);
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
  // A sum beyond the largest double is an error while it is; a large term
  // alone is not.
  acc.add_float(1e300, 1);
  CHECK(*acc.float_sum() == 1e300);
  acc.add_float(1.7e308, 2);
  CHECK(acc.float_sum().status().sqlstate() == "22003");
  acc.add_float(1.7e308, -2);
  acc.add_float(1e300, -1);
  CHECK(*acc.float_sum() == 1.0);
}

TEST_CASE("an exact float sum equals a long-double reference on random terms", "[reduce][sum]") {
  // Terms below 2^9 in steps of 2^-39: a long double (64-bit significand)
  // adds 200 of them (times -3..3) exactly, so it rounds once, as the sum must.
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 500; ++trial) {
    ExactFloatSum exact;
    long double reference = 0;
    for (int i = 0; i < 200; ++i) {
      const double v = std::ldexp(static_cast<double>(static_cast<int64_t>(rng() % (1ull << 30)) - (1ll << 29)), -20 - static_cast<int>(rng() % 20));
      const int64_t d = static_cast<int64_t>(rng() % 7) - 3;
      exact.add(v, d);
      reference += static_cast<long double>(v) * d;
    }
    CHECK(exact.value() == static_cast<double>(reference));
  }
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
