// Per-group semantics of the aggregates (PostgreSQL's result types, NULL
// handling, overflow as an error value), distinct, threshold and top-k.
#include <catch2/catch.hpp>

#include "common/value_io.hpp"
#include "compute/dataflow/error_row.hpp"
#include "compute/dataflow/group_logic.hpp"

namespace tandem::compute {
namespace {

std::string packed(std::vector<Datum> d) { return std::string(Row::pack(d).bytes()); }

AggregateExpr agg(AggregateFunc f, ColumnType type, bool distinct = false) {
  AggregateExpr a;
  a.func = f;
  a.expr = ScalarExpr::column(0, type);
  a.distinct = distinct;
  return a;
}

GroupResult run(GroupLogic& logic, const std::vector<std::pair<std::string, Diff>>& rows) {
  GroupContents group;
  for (const auto& [r, d] : rows) group.emplace_back(r, d);
  GroupResult out;
  logic.apply(RowRef(), group, &out);
  return out;
}

TEST_CASE("aggregates follow PostgreSQL types and NULL rules", "[group]") {
  const ColumnType i4{TypeId::kInt4}, i8{TypeId::kInt8}, text{TypeId::kText};
  auto logic = make_reduce_logic({agg(AggregateFunc::kCountAll, i4), agg(AggregateFunc::kCount, i4),
                                  agg(AggregateFunc::kSumInt, i4), agg(AggregateFunc::kMin, i4),
                                  agg(AggregateFunc::kMax, i4), agg(AggregateFunc::kSumInt, i4, true)});
  const auto out = run(*logic, {{packed({Datum::from_int32(5)}), 2},
                                {packed({Datum::from_int32(7)}), 1},
                                {packed({Datum::null()}), 3}});
  REQUIRE(out.oks.size() == 1);
  const auto values = unpack(out.oks[0].first);
  REQUIRE(values.size() == 6);
  CHECK(values[0].as_int64() == 6);  // count(*) counts NULL rows
  CHECK(values[1].as_int64() == 3);  // count(x) does not
  CHECK(values[2].kind() == DatumKind::kInt64);
  CHECK(values[2].as_int64() == 17);
  CHECK(values[3].as_int32() == 5);
  CHECK(values[4].as_int32() == 7);
  CHECK(values[5].as_int64() == 12);  // sum(DISTINCT x)

  auto nulls = make_reduce_logic({agg(AggregateFunc::kSumInt, i4), agg(AggregateFunc::kCount, i4)});
  const auto all_null = unpack(run(*nulls, {{packed({Datum::null()}), 1}}).oks.at(0).first);
  CHECK(all_null[0].is_null());
  CHECK(all_null[1].as_int64() == 0);

  auto sum8 = make_reduce_logic({agg(AggregateFunc::kSumInt8, i8)});
  const auto big = run(*sum8, {{packed({Datum::from_int64(INT64_MAX)}), 3}});
  const Datum n = unpack(big.oks.at(0).first)[0];
  REQUIRE(n.kind() == DatumKind::kNumeric);
  CHECK(n.as_numeric().to_string() == "27670116110564327421");

  auto sum4 = make_reduce_logic({agg(AggregateFunc::kSumInt, i8)});
  const auto overflow = run(*sum4, {{packed({Datum::from_int64(INT64_MAX)}), 2}});
  REQUIRE(overflow.errs.size() == 1);
  CHECK(status_from_error_row(overflow.errs[0].first).sqlstate() == "22003");

  AggregateExpr sagg = agg(AggregateFunc::kStringAgg, text);
  sagg.separator = ScalarExpr::literal(Datum::from_string(", "), text);
  auto strings = make_reduce_logic({sagg});
  const auto joined = run(*strings, {{packed({Datum::from_string("a")}), 2}, {packed({Datum::from_string("b")}), 1}});
  CHECK(unpack(joined.oks.at(0).first)[0].as_string() == "a, a, b");
}

TEST_CASE("string_agg and array_agg follow their own ORDER BY; array_agg's FILTER drops rows", "[group]") {
  const ColumnType i4{TypeId::kInt4}, text{TypeId::kText};
  // Rows (value, order key).
  auto row = [](const char* v, std::optional<int> k) {
    return packed({Datum::from_string(v), k ? Datum::from_int32(*k) : Datum::null()});
  };
  AggregateExpr sagg = agg(AggregateFunc::kStringAgg, text);
  sagg.separator = ScalarExpr::literal(Datum::from_string(","), text);
  sagg.order_by.push_back(AggregateOrder{ScalarExpr::column(1, i4), /*desc=*/true, /*nulls_last=*/false});
  auto strings = make_reduce_logic({sagg});
  const auto joined = run(*strings, {{row("a", 1), 1}, {row("b", 3), 1}, {row("c", std::nullopt), 1}, {row("d", 3), 1}});
  // DESC NULLS FIRST; b and d tie at 3 and follow their own order.
  CHECK(unpack(joined.oks.at(0).first)[0].as_string() == "c,b,d,a");

  AggregateExpr array = agg(AggregateFunc::kArrayAgg, i4);
  array.expr = ScalarExpr::column(1, i4);
  array.filter = ScalarExpr::binary(BinaryFunc::kNotEq, ScalarExpr::column(0, text),
                                    ScalarExpr::literal(Datum::from_string("a"), text), ColumnType{TypeId::kBool});
  auto arrays = make_reduce_logic({array});
  const auto kept = run(*arrays, {{row("a", 1), 1}, {row("b", std::nullopt), 1}, {row("c", 2), 1}});
  // The filtered row is left out; the row whose value is NULL is kept.
  std::string text_form;
  format_datum(unpack(kept.oks.at(0).first)[0], ColumnType{TypeId::kInt4Array}, &text_form);
  CHECK(text_form == "{2,NULL}");
}

TEST_CASE("distinct, threshold and top-k per group", "[group]") {
  const std::string r = packed({Datum::from_int32(1)});
  CHECK(run(*make_distinct_logic(), {{"", 3}}).oks.at(0).second == 1);
  CHECK(run(*make_distinct_logic(), {{"", -1}}).errs.size() == 1);
  CHECK(run(*make_threshold_logic(), {{"", -2}}).oks.empty());
  CHECK(run(*make_threshold_logic(), {{"", 2}}).oks.at(0).second == 2);
  auto topk = make_topk_logic({ColumnOrder{0, true, false}}, 2, 1);
  const auto out = run(*topk, {{packed({Datum::from_int32(1)}), 1},
                               {packed({Datum::from_int32(2)}), 2},
                               {packed({Datum::null()}), 1}});
  // DESC NULLS FIRST: NULL, 2, 2, 1 -> positions 1..2 are 2, 2.
  REQUIRE(out.oks.size() == 1);
  CHECK(out.oks[0].first == Row::pack_one(Datum::from_int32(2)));
  CHECK(out.oks[0].second == 2);
}

}  // namespace
}  // namespace tandem::compute
