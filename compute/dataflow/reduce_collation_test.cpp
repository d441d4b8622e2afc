// How a Reduce splits into parts by aggregate kind, what each part computes,
// and how the collation assembles the parts' rows (reduce_collation.hpp).
// The rendered parts are checked end to end against a from-scratch
// recompute in plan_random_test.cpp.
#include <catch2/catch.hpp>

#include "compute/dataflow/reduce_collation.hpp"

namespace tandem::compute {
namespace {

using Kind = ReducePart::Kind;

AggregateExpr agg(AggregateFunc f, std::size_t column, bool distinct = false) {
  AggregateExpr a;
  a.func = f;
  a.expr = ScalarExpr::column(column, ColumnType{TypeId::kInt4});
  a.distinct = distinct;
  return a;
}

std::string packed(std::vector<Datum> d) { return std::string(Row::pack(d).bytes()); }

TEST_CASE("a reduce splits into one part per aggregate kind", "[reduce][collation]") {
  const std::vector<AggregateExpr> aggs{
      agg(AggregateFunc::kCountAll, 0),      agg(AggregateFunc::kMin, 1),
      agg(AggregateFunc::kCount, 1, true),   agg(AggregateFunc::kSumInt, 1),
      agg(AggregateFunc::kArrayAgg, 1),      agg(AggregateFunc::kMax, 1, true),
      agg(AggregateFunc::kSumInt, 2, true),  agg(AggregateFunc::kSumFloat, 1),
  };
  const auto parts = split_reduce(aggs, true, true);
  // sum(float) (7) accumulates like sum(int) (sum_accumulator.hpp).
  const std::vector<ReducePart> want{{Kind::kAccumulable, {0, 3, 7}}, {Kind::kHierarchical, {1, 5}},
                                     {Kind::kDistinct, {2}},          {Kind::kBasic, {4}},
                                     {Kind::kDistinct, {6}}};
  CHECK(parts == want);

  // Switched-off operators send their aggregates to the basic part.
  CHECK(split_reduce(aggs, false, false) == std::vector<ReducePart>{{Kind::kBasic, {0, 1, 2, 3, 4, 5, 6, 7}}});
  CHECK(split_reduce(aggs, false, true) ==
        std::vector<ReducePart>{{Kind::kBasic, {0, 2, 3, 4, 6, 7}}, {Kind::kHierarchical, {1, 5}}});
  // One kind: one part, rendered without a collation.
  CHECK(split_reduce({agg(AggregateFunc::kMin, 0), agg(AggregateFunc::kMax, 0)}, true, true).size() == 1);
}

TEST_CASE("a part's aggregates are what its operator computes", "[reduce][collation]") {
  const std::vector<AggregateExpr> aggs{agg(AggregateFunc::kSumInt, 4, true), agg(AggregateFunc::kMax, 3, true)};
  // After the Distinct on (key of arity 2, x), x is column 2 and counted once.
  const auto distinct = part_aggregates(ReducePart{Kind::kDistinct, {0}}, aggs, 2);
  REQUIRE(distinct.size() == 1);
  CHECK(distinct[0].func == AggregateFunc::kSumInt);
  CHECK_FALSE(distinct[0].distinct);
  CHECK(distinct[0].expr == ScalarExpr::column(2, ColumnType{TypeId::kInt4}));
  const auto minmax = part_aggregates(ReducePart{Kind::kHierarchical, {1}}, aggs, 2);
  CHECK_FALSE(minmax.at(0).distinct);
  CHECK(minmax[0].expr == aggs[1].expr);
}

TEST_CASE("the collation puts each part's values at their aggregates' positions", "[reduce][collation]") {
  const std::vector<ReducePart> parts{{Kind::kAccumulable, {0, 2}}, {Kind::kHierarchical, {1}}};
  auto logic = make_collation_logic(parts, 3);
  const std::string key = packed({Datum::from_int32(9)});
  const std::string part0 = packed({Datum::from_int32(0), Datum::from_int64(4), Datum::null()});
  const std::string part1 = packed({Datum::from_int32(1), Datum::from_int32(-3)});

  GroupResult out;
  logic->apply(RowRef(key), GroupContents{{part0, 1}, {part1, 1}}, &out);
  REQUIRE(out.oks.size() == 1);
  CHECK(out.errs.empty());
  CHECK(out.oks[0].first ==
        Row::pack(std::vector<Datum>{Datum::from_int32(9), Datum::from_int64(4), Datum::from_int32(-3), Datum::null()}));

  // A part without a row (it failed, and reported its error) leaves no row.
  out.clear();
  logic->apply(RowRef(key), GroupContents{{part1, 1}}, &out);
  CHECK(out.oks.empty());
  CHECK(out.errs.empty());

  // Anything but one row per part, each once, is invalid input: an error.
  out.clear();
  logic->apply(RowRef(key), GroupContents{{part0, 2}, {part1, 1}}, &out);
  CHECK(out.oks.empty());
  CHECK(out.errs.size() == 1);
}

}  // namespace
}  // namespace tandem::compute
