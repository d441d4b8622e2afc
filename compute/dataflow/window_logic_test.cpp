// Window functions over one partition: PostgreSQL 15's answers for
// (b) = 10, 20, 20, NULL ordered by b (NULLS LAST), peers included.
#include <catch2/catch.hpp>
#include <set>

#include "compute/dataflow/error_row.hpp"
#include "compute/dataflow/window_logic.hpp"

namespace tandem::compute {
namespace {

std::string packed(std::vector<Datum> d) { return std::string(Row::pack(d).bytes()); }

WindowFunc fn(WindowFuncKind kind, std::vector<std::size_t> args = {}, WindowFrame frame = {}) {
  WindowFunc f;
  f.kind = kind;
  f.args = std::move(args);
  f.frame = frame;
  return f;
}
WindowFunc agg(AggregateFunc a, std::vector<std::size_t> args, WindowFrame frame = {}) {
  WindowFunc f = fn(WindowFuncKind::kAggregate, std::move(args), frame);
  f.aggregate = a;
  return f;
}
WindowFrame frame(WindowFrame::Units units, WindowFrameBound start, WindowFrameBound end) {
  return WindowFrame{units, start, end};
}
using B = WindowFrameBound::Kind;

// Rows (b, 3, -1, 2): arguments are columns of these rows.
std::vector<std::vector<Datum>> run(const std::vector<WindowFunc>& funcs) {
  auto logic = make_window_logic({ColumnOrder{0, false, true}}, funcs);
  auto row = [](Datum b) { return packed({b, Datum::from_int32(3), Datum::from_int32(-1), Datum::from_int32(2)}); };
  GroupContents group;
  std::vector<std::string> rows{row(Datum::from_int32(10)), row(Datum::from_int32(20)), row(Datum::null())};
  group.emplace_back(rows[0], 1);
  group.emplace_back(rows[1], 2);
  group.emplace_back(rows[2], 1);
  GroupResult out;
  logic->apply(RowRef(), group, &out);
  REQUIRE(out.errs.empty());
  // Output rows in order of b (NULL last), expanded by multiplicity; the
  // two copies of 20 are told apart by their values, smallest first.
  std::vector<std::vector<Datum>> result;
  std::vector<std::pair<std::vector<Datum>, Diff>> unpacked;
  for (const auto& [r, d] : out.oks) unpacked.emplace_back(unpack(r), d);
  std::sort(unpacked.begin(), unpacked.end(), [](const auto& x, const auto& y) {
    if (x.first[0].is_null() != y.first[0].is_null()) return y.first[0].is_null();
    if (!x.first[0].is_null() && compare_datums(x.first[0], y.first[0]) != 0) return compare_datums(x.first[0], y.first[0]) < 0;
    for (std::size_t i = 4; i < x.first.size(); ++i) {
      if (x.first[i].is_null() != y.first[i].is_null()) return y.first[i].is_null();
      if (!x.first[i].is_null() && compare_datums(x.first[i], y.first[i]) != 0) return compare_datums(x.first[i], y.first[i]) < 0;
    }
    return false;
  });
  for (const auto& [r, d] : unpacked) {
    for (Diff k = 0; k < d; ++k) result.emplace_back(r.begin() + 4, r.end());
  }
  return result;
}

std::string show(const Datum& d) {
  if (d.is_null()) return "NULL";
  if (d.kind() == DatumKind::kFloat64) return std::to_string(d.as_float64());
  return std::to_string(d.as_integer());
}
std::vector<std::string> column(const std::vector<std::vector<Datum>>& rows, std::size_t c) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(show(r.at(c)));
  return out;
}
using S = std::vector<std::string>;

TEST_CASE("window ranking functions: peers as PostgreSQL", "[window]") {
  auto rows = run({fn(WindowFuncKind::kRowNumber), fn(WindowFuncKind::kRank), fn(WindowFuncKind::kDenseRank),
                   fn(WindowFuncKind::kPercentRank), fn(WindowFuncKind::kCumeDist), fn(WindowFuncKind::kNtile, {1})});
  CHECK(column(rows, 0) == S{"1", "2", "3", "4"});
  CHECK(column(rows, 1) == S{"1", "2", "2", "4"});
  CHECK(column(rows, 2) == S{"1", "2", "2", "3"});
  CHECK(column(rows, 3) == S{std::to_string(0.0), std::to_string(1.0 / 3), std::to_string(1.0 / 3), std::to_string(1.0)});
  CHECK(column(rows, 4) == S{std::to_string(0.25), std::to_string(0.75), std::to_string(0.75), std::to_string(1.0)});
  CHECK(column(rows, 5) == S{"1", "1", "2", "3"});
  CHECK(rows[0][0].kind() == DatumKind::kInt64);
  CHECK(rows[0][5].kind() == DatumKind::kInt32);
}

TEST_CASE("window lag, lead and frame values", "[window]") {
  // lag(b), lead(b, 2, -1), first_value, last_value, nth_value(b, 2) with the
  // default frame (RANGE UNBOUNDED PRECEDING .. CURRENT ROW).
  auto rows = run({fn(WindowFuncKind::kLag, {0}), fn(WindowFuncKind::kLead, {0, 3, 2}),
                   fn(WindowFuncKind::kFirstValue, {0}), fn(WindowFuncKind::kLastValue, {0}),
                   fn(WindowFuncKind::kNthValue, {0, 3})});
  // The copies of 20 differ in lag/lead; sorted by their values.
  CHECK(column(rows, 2) == S{"10", "10", "10", "10"});
  CHECK(column(rows, 3) == S{"10", "20", "20", "NULL"});
  CHECK(column(rows, 4) == S{"NULL", "20", "20", "20"});  // nth_value(b, 2)
  std::multiset<std::string> lags, leads;
  for (const auto& r : rows) lags.insert(show(r[0])), leads.insert(show(r[1]));
  CHECK(lags == std::multiset<std::string>{"NULL", "10", "20", "20"});
  // lead(b, 2, -1): 10 -> the second 20, the first 20 -> NULL, then -1.
  CHECK(leads == std::multiset<std::string>{"20", "NULL", "-1", "-1"});
}

TEST_CASE("window aggregates over frames", "[window]") {
  auto rows = run({agg(AggregateFunc::kSumInt, {0}), agg(AggregateFunc::kCountAll, {}),
                   agg(AggregateFunc::kCount, {0}), agg(AggregateFunc::kMin, {0}), agg(AggregateFunc::kMax, {0}),
                   agg(AggregateFunc::kSumInt, {0},
                       frame(WindowFrame::Units::kRows, {B::kPreceding, 1}, {B::kFollowing, 1})),
                   agg(AggregateFunc::kSumInt, {0},
                       frame(WindowFrame::Units::kGroups, {B::kPreceding, 1}, {B::kCurrentRow, 0})),
                   agg(AggregateFunc::kMax, {0},
                       frame(WindowFrame::Units::kRange, {B::kCurrentRow, 0}, {B::kUnboundedFollowing, 0})),
                   fn(WindowFuncKind::kLastValue, {0},
                      frame(WindowFrame::Units::kRows, {B::kCurrentRow, 0}, {B::kFollowing, 1})),
                   agg(AggregateFunc::kSumInt, {0},
                       frame(WindowFrame::Units::kRows, {B::kFollowing, 1}, {B::kFollowing, 2}))});
  CHECK(column(rows, 0) == S{"10", "50", "50", "50"});
  CHECK(column(rows, 1) == S{"1", "3", "3", "4"});
  CHECK(column(rows, 2) == S{"1", "3", "3", "3"});
  CHECK(column(rows, 3) == S{"10", "10", "10", "10"});
  CHECK(column(rows, 4) == S{"10", "20", "20", "20"});
  CHECK(column(rows, 5) == S{"30", "40", "50", "20"});  // sorted: 20s as 40, 50
  CHECK(column(rows, 6) == S{"10", "50", "50", "40"});
  CHECK(column(rows, 7) == S{"20", "20", "20", "NULL"});
  CHECK(column(rows, 8) == S{"20", "NULL", "20", "NULL"});
  CHECK(column(rows, 9) == S{"40", "NULL", "20", "NULL"});
  CHECK(rows[0][0].kind() == DatumKind::kInt64);
}

TEST_CASE("window errors: ntile and nth_value arguments", "[window]") {
  auto logic = make_window_logic({}, {fn(WindowFuncKind::kNtile, {1})});
  GroupContents group;
  const std::string r = packed({Datum::from_int32(1), Datum::from_int32(0)});
  group.emplace_back(r, 1);
  GroupResult out;
  logic->apply(RowRef(), group, &out);
  REQUIRE(out.errs.size() == 1);
  CHECK(status_from_error_row(out.errs[0].first).sqlstate() == "22014");
  auto nth = make_window_logic({}, {fn(WindowFuncKind::kNthValue, {0, 1})});
  out.clear();
  nth->apply(RowRef(), group, &out);
  REQUIRE(out.errs.size() == 1);
  CHECK(status_from_error_row(out.errs[0].first).sqlstate() == "22016");
}

}  // namespace
}  // namespace tandem::compute
