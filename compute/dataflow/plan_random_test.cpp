// Randomized incremental-vs-recompute tests for every operator and for
// composed plans: random inserts and retractions (down to zero) over many
// timestamps, several times sealed at once; at every sealed time the
// exported index, read by a peek, must equal the reference evaluator's
// from-scratch answer on the model input at that time. Each plan runs with
// 1 and 2 workers.
#include <catch2/catch.hpp>

#include "compute/dataflow/error_row.hpp"
#include "compute/testing/harness.hpp"

namespace tandem::compute {
namespace {

using testing::col;
using testing::Harness;
using testing::lit;
using testing::source;

constexpr GlobalId kIndex = 7;

void check_plan(const PlanNode& plan, std::size_t arity, std::size_t workers, std::uint64_t seed, int rounds = 60) {
  std::mt19937_64 rng(seed);
  Harness h(workers, {1, 2});
  h.install(plan, kIndex);
  Timestamp t = 1;
  for (int round = 0; round < rounds; ++round) {
    const Timestamp span = 1 + rng() % 3;
    std::vector<testing::RefCollection> expected;
    for (Timestamp x = t; x < t + span; ++x) {
      for (const GlobalId s : {GlobalId{1}, GlobalId{2}}) {
        const int n = static_cast<int>(rng() % 6);
        for (int i = 0; i < n; ++i) h.random_update(s, x, rng);
      }
      expected.push_back(testing::reference_eval(plan, h.model()));
    }
    h.advance_all(t + span);
    for (Timestamp x = t; x < t + span; ++x) {
      INFO("seed " << seed << " workers " << workers << " time " << x);
      const PeekResponse r = h.peek(kIndex, x, arity);
      testing::check_peek(r, expected[x - t]);
    }
    if (rng() % 2 == 0) h.runtime().send(AllowCompaction{kIndex, t});
    t += span;
  }
}

void check_all(const PlanNode& plan, std::size_t arity) {
  for (const std::size_t workers : {1, 2})
    for (const std::uint64_t seed : {11u, 12u}) check_plan(plan, arity, workers, seed);
}

PlanNode mfp(PlanNode input, MapFilterProject m) { return PlanNode{Mfp{std::move(input), std::move(m)}}; }

ColumnType i4() { return testing::int4_type(); }
ColumnType i8() { return ColumnType{TypeId::kInt8}; }

PlanNode join_s1_s2() { return PlanNode{Join{source(1), source(2), {col(0)}, {col(0)}}}; }

AggregateExpr agg(AggregateFunc f, std::size_t column, bool distinct = false) {
  AggregateExpr a;
  a.func = f;
  a.expr = col(column);
  a.distinct = distinct;
  return a;
}

std::vector<AggregateExpr> all_aggregates(std::size_t column) {
  return {agg(AggregateFunc::kCountAll, column), agg(AggregateFunc::kCount, column),
          agg(AggregateFunc::kSumInt, column),   agg(AggregateFunc::kMin, column),
          agg(AggregateFunc::kMax, column),      agg(AggregateFunc::kCount, column, /*distinct=*/true)};
}

TEST_CASE("random: source passthrough", "[dataflow][random]") { check_all(source(1), 2); }

TEST_CASE("random: map filter project", "[dataflow][random]") {
  MapFilterProject m;
  m.input_arity = 2;
  m.expressions.push_back(ScalarExpr::binary(BinaryFunc::kAddInt4, col(0), col(1), i4()));
  m.predicates.push_back(ScalarExpr::binary(BinaryFunc::kGt, col(1), lit(1), ColumnType{TypeId::kBool}));
  m.projection = {2, 0};
  check_all(mfp(source(1), m), 2);
}

TEST_CASE("random: errors beside data retract with their rows", "[dataflow][random]") {
  // a / b fails whenever b = 0; the error must vanish when that row is retracted.
  MapFilterProject m;
  m.input_arity = 2;
  m.expressions.push_back(ScalarExpr::binary(BinaryFunc::kDivInt4, col(0), col(1), i4()));
  m.projection = {0, 2};
  check_all(mfp(source(1), m), 2);
}

TEST_CASE("random: predicate guards a failing map", "[dataflow][random]") {
  MapFilterProject m;
  m.input_arity = 2;
  m.expressions.push_back(ScalarExpr::binary(BinaryFunc::kDivInt4, col(0), col(1), i4()));
  m.predicates.push_back(ScalarExpr::binary(BinaryFunc::kNotEq, col(1), lit(0), ColumnType{TypeId::kBool}));
  m.projection = {2};
  check_all(mfp(source(1), m), 1);
}

TEST_CASE("random: arrange by", "[dataflow][random]") {
  check_all(PlanNode{ArrangeBy{source(1), {col(1)}}}, 2);
}

TEST_CASE("random: join", "[dataflow][random]") { check_all(join_s1_s2(), 4); }

TEST_CASE("random: three-way linear join", "[dataflow][random]") {
  PlanNode j3{Join{join_s1_s2(), source(1), {col(3)}, {col(1)}}};
  check_all(j3, 6);
}

TEST_CASE("random: reduce with every aggregate", "[dataflow][random]") {
  check_all(PlanNode{Reduce{source(1), {col(0)}, all_aggregates(1)}}, 7);
}

TEST_CASE("random: global reduce and int8 sum", "[dataflow][random]") {
  MapFilterProject widen;
  widen.input_arity = 2;
  widen.expressions.push_back(ScalarExpr::unary(UnaryFunc::kCast, col(1), i8()));
  widen.projection = {0, 2};
  std::vector<AggregateExpr> aggs{agg(AggregateFunc::kSumInt8, 1), agg(AggregateFunc::kSumInt8, 1, true)};
  check_all(PlanNode{Reduce{mfp(source(1), widen), {}, aggs}}, 2);
}

TEST_CASE("random: join then reduce", "[dataflow][random]") {
  check_all(PlanNode{Reduce{join_s1_s2(), {col(1)}, all_aggregates(3)}}, 7);
}

TEST_CASE("random: reduce then join", "[dataflow][random]") {
  PlanNode counts{Reduce{source(1), {col(0)}, {agg(AggregateFunc::kCountAll, 0)}}};
  check_all(PlanNode{Join{counts, source(2), {col(0)}, {col(0)}}}, 4);
}

TEST_CASE("random: distinct", "[dataflow][random]") { check_all(PlanNode{Distinct{source(1)}}, 2); }

TEST_CASE("random: union negate threshold (EXCEPT ALL)", "[dataflow][random]") {
  Union u;
  u.inputs.push_back(source(1));
  u.inputs.push_back(PlanNode{Negate{source(2)}});
  check_all(PlanNode{Threshold{PlanNode{std::move(u)}}}, 2);
}

TEST_CASE("random: union and negate", "[dataflow][random]") {
  Union u;
  u.inputs.push_back(source(1));
  u.inputs.push_back(source(2));
  u.inputs.push_back(PlanNode{Negate{source(2)}});
  u.inputs.push_back(source(2));
  check_all(PlanNode{std::move(u)}, 2);
}

TEST_CASE("random: top-k per group", "[dataflow][random]") {
  TopK k{source(1), {0}, {ColumnOrder{1, /*desc=*/true, /*nulls_last=*/false}}, 2, 1};
  check_all(PlanNode{std::move(k)}, 2);
  TopK all{source(1), {}, {ColumnOrder{1, false, true}, ColumnOrder{0, true, false}}, 3, 0};
  check_all(PlanNode{std::move(all)}, 2);
}

TEST_CASE("random: flat map generate_series", "[dataflow][random]") {
  check_all(PlanNode{FlatMap{source(1), TableFunc::kGenerateSeriesInt4, {lit(1), col(1)}}}, 3);
}

TEST_CASE("random: errors through reduce and join", "[dataflow][random]") {
  MapFilterProject m;
  m.input_arity = 2;
  m.expressions.push_back(ScalarExpr::binary(BinaryFunc::kDivInt4, lit(12), col(1), i4()));
  m.projection = {0, 2};
  PlanNode divided = mfp(source(1), m);
  check_all(PlanNode{Reduce{divided, {col(0)}, {agg(AggregateFunc::kSumInt, 1)}}}, 2);
  check_all(PlanNode{Join{divided, source(2), {col(0)}, {col(0)}}}, 4);
}

// Collated reduces (reduce_collation.hpp): every kind of part at once, with
// several DISTINCT aggregates on different columns and expressions, NULLs
// (column 1 is NULL in a sixth of the rows) and retractions.
std::vector<AggregateExpr> collated_aggregates() {
  AggregateExpr sum_distinct_expr = agg(AggregateFunc::kSumInt, 0, /*distinct=*/true);
  sum_distinct_expr.expr = ScalarExpr::binary(BinaryFunc::kAddInt4, col(0), col(1), i4());
  AggregateExpr array = agg(AggregateFunc::kArrayAgg, 1);
  return {agg(AggregateFunc::kCountAll, 0),      agg(AggregateFunc::kCount, 1, true),
          agg(AggregateFunc::kMin, 1),           agg(AggregateFunc::kSumInt, 1),
          agg(AggregateFunc::kCount, 0, true),   sum_distinct_expr,
          agg(AggregateFunc::kMax, 1, true),     array,
          agg(AggregateFunc::kSumInt, 1, true)};
}

TEST_CASE("random: collated reduce per group", "[dataflow][random][collation]") {
  check_all(PlanNode{Reduce{source(1), {col(0)}, collated_aggregates()}}, 10);
  // DISTINCT aggregates only: one Distinct per aggregate, collated.
  check_all(PlanNode{Reduce{source(1),
                            {col(0)},
                            {agg(AggregateFunc::kCount, 1, true), agg(AggregateFunc::kSumInt, 1, true)}}},
            3);
  // A single DISTINCT aggregate: its part is the reduce.
  check_all(PlanNode{Reduce{join_s1_s2(), {col(1)}, {agg(AggregateFunc::kCount, 3, true)}}}, 2);
}

// The planner's shape for a global aggregate (decorrelate.hpp): the Reduce,
// plus a default row (count 0, others NULL) that the Reduce's own row
// cancels. The input is filtered to a quarter of the rows, so it is often
// empty, and retractions empty it again.
TEST_CASE("random: collated global reduce with its default row", "[dataflow][random][collation]") {
  MapFilterProject only3;
  only3.input_arity = 2;
  only3.predicates.push_back(ScalarExpr::binary(BinaryFunc::kEq, col(0), lit(3), ColumnType{TypeId::kBool}));
  const std::vector<AggregateExpr> aggs{agg(AggregateFunc::kCountAll, 0), agg(AggregateFunc::kSumInt, 1),
                                        agg(AggregateFunc::kMin, 1), agg(AggregateFunc::kMax, 1),
                                        agg(AggregateFunc::kCount, 1, true)};
  PlanNode reduce{Reduce{mfp(source(1), only3), {}, aggs}};
  Row default_row = Row::pack(std::vector<Datum>{Datum::from_int64(0), Datum::null(), Datum::null(), Datum::null(),
                               Datum::from_int64(0)});
  MapFilterProject to_default;
  to_default.input_arity = aggs.size();
  for (const Datum& d : unpack(RowRef(default_row))) {
    const bool count = d.kind() == DatumKind::kInt64;
    to_default.expressions.push_back(ScalarExpr::literal(d, count ? i8() : i4()));
  }
  for (std::size_t i = 0; i < aggs.size(); ++i) to_default.projection.push_back(aggs.size() + i);
  Union u;
  u.inputs.push_back(reduce);
  u.inputs.push_back(PlanNode{Constant{{Constant::Entry{default_row, 1}}, std::nullopt}});
  u.inputs.push_back(PlanNode{Negate{mfp(reduce, to_default)}});
  check_all(PlanNode{std::move(u)}, aggs.size());
}

TEST_CASE("random: errors through a collated reduce", "[dataflow][random][collation]") {
  // 12 / b fails where b = 0, in every part alike (the same error), and
  // the group's row is absent while a failing row is in it.
  const ScalarExpr divided = ScalarExpr::binary(BinaryFunc::kDivInt4, lit(12), col(1), i4());
  std::vector<AggregateExpr> aggs{agg(AggregateFunc::kCountAll, 0), agg(AggregateFunc::kSumInt, 1),
                                  agg(AggregateFunc::kMin, 1), agg(AggregateFunc::kCount, 1, true)};
  for (std::size_t i = 1; i < aggs.size(); ++i) aggs[i].expr = divided;
  check_all(PlanNode{Reduce{source(1), {col(0)}, aggs}}, 5);
}

// sum(numeric) and sum(float) on the accumulable path (and avg's sum and
// count): source 1's b picks values through a join with a constant, among
// them scales 0 to 3, NaN, both infinities and NULLs, so a group's display
// scale, its NaN and its infinities come and go with retractions.
TEST_CASE("random: numeric and float sums with NaN, infinities and NULLs", "[dataflow][random][collation]") {
  auto entry = [](int b, Datum n, Datum f) {
    return Constant::Entry{Row::pack(std::vector<Datum>{Datum::from_int32(b), n, f}), 1};
  };
  auto numeric = [](const char* text) { return Datum::from_numeric(*Numeric::parse(text)); };
  Constant values{{entry(0, numeric("1.50"), Datum::from_float64(0.5)),
                   entry(1, numeric("-2"), Datum::from_float64(-0.1)),
                   entry(1, Datum::null(), Datum::null()),
                   entry(2, numeric("0.001"), Datum::from_float64(0.3)),
                   entry(3, numeric("NaN"), Datum::from_float64(NAN)),
                   entry(4, numeric("Infinity"), Datum::from_float64(-INFINITY)),
                   entry(4, numeric("-Infinity"), Datum::from_float64(INFINITY))},
                  std::nullopt};
  const PlanNode joined{Join{source(1), PlanNode{std::move(values)}, {col(1)}, {col(0)}}};
  const std::vector<AggregateExpr> aggs{agg(AggregateFunc::kSumNumeric, 3), agg(AggregateFunc::kSumFloat, 4),
                                        agg(AggregateFunc::kCount, 3), agg(AggregateFunc::kCountAll, 0),
                                        agg(AggregateFunc::kMax, 3)};
  check_all(PlanNode{Reduce{joined, {col(0)}, aggs}}, 1 + aggs.size());
  check_all(PlanNode{Reduce{joined, {}, aggs}}, aggs.size());
}

}  // namespace
}  // namespace tandem::compute
