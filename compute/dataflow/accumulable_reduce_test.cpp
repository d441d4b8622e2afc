// The specialised Reduce paths against the recompute they replace. First
// AccumulableReduceOp (count/sum):
//  * operator level: random update sequences (and extreme multiplicities that
//    overflow the sums) applied to the op must yield, at every time, exactly
//    what GroupLogic's ReduceLogic computes from the accumulated contents;
//  * plan level: count/sum Reduces over random inserts and retractions (to
//    zero, emptying groups; NULL inputs; expression errors; int8 sums past
//    int8) run through the runtime with the accumulable path on and off, 1 and
//    2 workers, and must equal the reference evaluator at every sealed time.
// Then the hierarchical min/max path (hierarchical_reduce.hpp), the same way
// at plan level, with expression errors, NULLs, a global group, and ties
// between equal but byte-different values (numerics of different scale)
// and between different errors.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "common/numeric.hpp"
#include "compute/dataflow/accumulable_reduce_op.hpp"
#include "compute/dataflow/error_row.hpp"
#include "compute/dataflow/group_logic.hpp"
#include "compute/dataflow/hierarchical_reduce.hpp"
#include "compute/testing/harness.hpp"

namespace tandem::compute {
namespace {

using testing::col;
using testing::Harness;
using testing::lit;
using testing::source;

constexpr GlobalId kIndex = 7;

ColumnType i8() { return ColumnType{TypeId::kInt8}; }

AggregateExpr agg(AggregateFunc f, ScalarExpr expr, bool distinct = false) {
  AggregateExpr a;
  a.func = f;
  a.expr = std::move(expr);
  a.distinct = distinct;
  return a;
}

// ---- operator level ------------------------------------------------------

using Multiset = std::map<std::string, Diff>;

// Feeds `updates` (all under one key, each at its own time) to the op one time
// at a time and checks its accumulated output against ReduceLogic.
void check_against_logic(const std::vector<AggregateExpr>& aggs, const Row& key,
                         const std::vector<std::pair<Row, Diff>>& updates) {
  AccumulableReduceOp op(aggs);
  auto logic = make_reduce_logic(aggs);
  std::map<std::string, Diff> contents;  // val bytes -> multiplicity
  Multiset oks, errs;                    // the op's accumulated output
  Timestamp t = 1;
  for (const auto& [val, diff] : updates) {
    op.input(0).pending.oks.push_back(Update{key, val, t, diff});
    if ((contents[std::string(val.bytes())] += diff) == 0) contents.erase(std::string(val.bytes()));
    op.input(0).frontier = t + 1;
    op.step();
    REQUIRE(op.frontier() == t + 1);
    for (const Update& u : op.output().oks)
      if ((oks[std::string(u.val.bytes())] += u.diff) == 0) oks.erase(std::string(u.val.bytes()));
    for (const Update& u : op.output().errs)
      if ((errs[std::string(u.val.bytes())] += u.diff) == 0) errs.erase(std::string(u.val.bytes()));
    op.output().oks.clear();
    op.output().errs.clear();

    GroupContents group(contents.begin(), contents.end());
    GroupResult want;
    if (!group.empty()) logic->apply(key, group, &want);
    Multiset want_oks, want_errs;
    for (const auto& [row, d] : want.oks) want_oks[std::string(row.bytes())] += d;
    for (const auto& [row, d] : want.errs) want_errs[std::string(row.bytes())] += d;
    INFO("time " << t);
    std::string described;
    for (const auto& [e, d] : errs) described += " got " + status_from_error_row(RowRef(e)).to_string();
    for (const auto& [e, d] : want_errs) described += " want " + status_from_error_row(RowRef(e)).to_string();
    INFO(described);
    CHECK(oks == want_oks);
    CHECK(errs == want_errs);
    CHECK(op.group_count() == (contents.empty() ? 0u : 1u));
    ++t;
  }
}

Row int8_row(std::optional<int64_t> v) {
  return Row::pack_one(v ? Datum::from_int64(*v) : Datum::null());
}

TEST_CASE("accumulable reduce: random non-negative sequences match ReduceLogic", "[dataflow][reduce]") {
  const ScalarExpr c0 = ScalarExpr::column(0, i8());
  const std::vector<AggregateExpr> aggs{agg(AggregateFunc::kCountAll, c0), agg(AggregateFunc::kCount, c0),
                                        agg(AggregateFunc::kSumInt, c0), agg(AggregateFunc::kSumInt8, c0)};
  const Row key = Row::pack_one(Datum::from_int32(1));
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    std::map<std::string, Diff> model;
    std::vector<std::pair<Row, Diff>> updates;
    for (int i = 0; i < 200; ++i) {
      if (!model.empty() && rng() % 3 == 0) {  // retract some or all of a present row
        auto it = model.begin();
        std::advance(it, static_cast<long>(rng() % model.size()));
        const Diff d = rng() % 2 == 0 ? it->second : 1;
        updates.emplace_back(Row(it->first), -d);
        if ((it->second -= d) == 0) model.erase(it);
      } else {
        const int v = static_cast<int>(rng() % 7);
        // Values near int8's limits make sum(int8) leave int8 and kSumInt fail.
        const Row val = v == 6 ? int8_row(std::nullopt) : int8_row(v >= 4 ? INT64_MAX - v : v);
        const Diff d = 1 + static_cast<Diff>(rng() % 3);
        updates.emplace_back(val, d);
        model[std::string(val.bytes())] += d;
      }
    }
    INFO("seed " << seed);
    check_against_logic(aggs, key, updates);
  }
}

TEST_CASE("accumulable reduce: overflow errors and their retraction", "[dataflow][reduce]") {
  const ScalarExpr c0 = ScalarExpr::column(0, i8());
  const Row key = Row::pack_one(Datum::from_int32(1));
  const Diff huge = INT64_MAX;
  // sum(int8): 2 * (2^63-1)^2 ≈ 1.7e38 > 10^38 is a numeric overflow; one term is not.
  check_against_logic({agg(AggregateFunc::kSumInt8, c0)}, key,
                      {{int8_row(INT64_MAX), huge}, {int8_row(INT64_MAX - 1), huge}, {int8_row(INT64_MAX), -huge},
                       {int8_row(INT64_MAX - 1), -huge}});
  // kSumInt: bigint out of range, then back in range, then empty.
  check_against_logic({agg(AggregateFunc::kSumInt, c0), agg(AggregateFunc::kCountAll, c0)}, key,
                      {{int8_row(INT64_MAX), 1}, {int8_row(5), 1}, {int8_row(-7), 1}, {int8_row(5), -1},
                       {int8_row(-7), -1}, {int8_row(INT64_MAX), -1}});
}

TEST_CASE("accumulable reduce: negative totals report negative multiplicity", "[dataflow][reduce]") {
  // Documented: only totals are visible, so these are the cases both paths flag.
  const ScalarExpr c0 = ScalarExpr::column(0, i8());
  const Row key = Row::pack_one(Datum::from_int32(1));
  check_against_logic({agg(AggregateFunc::kSumInt, c0), agg(AggregateFunc::kCount, c0)}, key,
                      {{int8_row(3), -1}, {int8_row(3), 2}, {int8_row(3), -1}, {int8_row(4), 1},
                       {int8_row(std::nullopt), -2}, {int8_row(std::nullopt), 2}});
}

TEST_CASE("accumulable reduce: eligibility", "[dataflow][reduce]") {
  const ScalarExpr c0 = ScalarExpr::column(0, i8());
  CHECK(is_accumulable({agg(AggregateFunc::kCountAll, c0), agg(AggregateFunc::kSumInt8, c0)}));
  CHECK(is_accumulable({}));
  CHECK_FALSE(is_accumulable({agg(AggregateFunc::kCount, c0, /*distinct=*/true)}));
  // sum(numeric) and sum(float) keep a SumAccumulator (sum_accumulator.hpp).
  CHECK(is_accumulable({agg(AggregateFunc::kSumNumeric, c0), agg(AggregateFunc::kSumFloat, c0)}));
  CHECK_FALSE(is_accumulable({agg(AggregateFunc::kSumFloat, c0, /*distinct=*/true)}));
  CHECK_FALSE(is_accumulable({agg(AggregateFunc::kCount, c0), agg(AggregateFunc::kMin, c0)}));
}

TEST_CASE("accumulable reduce: updates waiting for the frontier are folded, not kept", "[dataflow][reduce]") {
  // A one-shot aggregate over a large index: many steps of input at times
  // the frontier has not passed. What waits is one delta per (time, group).
  const ScalarExpr c0 = ScalarExpr::column(0, i8());
  AccumulableReduceOp op({agg(AggregateFunc::kCountAll, c0), agg(AggregateFunc::kSumInt8, c0)});
  std::mt19937_64 rng(7);
  std::map<std::pair<int, Timestamp>, std::pair<int64_t, int64_t>> model;  // (group, time) -> (count, sum)
  auto group_key = [](int g) { return Row::pack_one(Datum::from_int32(g)); };
  for (int step = 0; step < 20; ++step) {
    for (int i = 0; i < 1000; ++i) {
      const int g = static_cast<int>(rng() % 3);
      const Timestamp t = 1 + rng() % 2;
      const int64_t v = static_cast<int64_t>(rng() % 100);
      const Diff d = rng() % 5 == 0 ? -1 : 1;
      op.input(0).pending.oks.push_back(Update{group_key(g), int8_row(v), t, d});
      auto& [count, sum] = model[{g, t}];
      count += d;
      sum += v * d;
    }
    op.input(0).frontier = 1;
    op.step();
    CHECK(op.input(0).pending.oks.empty());
    CHECK(op.pending_deltas() <= 6);
    CHECK(op.output().oks.empty());
  }
  op.input(0).frontier = 3;
  op.step();
  CHECK(op.pending_deltas() == 0);
  for (const Timestamp at : {Timestamp{1}, Timestamp{2}}) {
    Multiset got, want;
    for (const Update& u : op.output().oks)
      if (u.time <= at && (got[std::string(u.val.bytes())] += u.diff) == 0) got.erase(std::string(u.val.bytes()));
    for (int g = 0; g < 3; ++g) {
      int64_t count = 0, sum = 0;
      for (Timestamp t = 1; t <= at; ++t) {
        count += model[{g, t}].first;
        sum += model[{g, t}].second;
      }
      if (count == 0) continue;
      Row row = Row::pack(std::vector<Datum>{Datum::from_int32(g), Datum::from_int64(count),
                                             Datum::from_numeric(Numeric::from_parts(sum, 0))});
      want[std::string(row.bytes())] = 1;
    }
    INFO("as of " << at);
    CHECK(got == want);
  }
}

// ---- plan level ----------------------------------------------------------

void check_plan(const PlanNode& plan, std::size_t arity, std::size_t workers, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Harness h(workers, {1, 2});
  h.install(plan, kIndex);
  Timestamp t = 1;
  for (int round = 0; round < 60; ++round) {
    const Timestamp span = 1 + rng() % 3;
    std::vector<testing::RefCollection> expected;
    for (Timestamp x = t; x < t + span; ++x) {
      const int n = static_cast<int>(rng() % 6);
      for (int i = 0; i < n; ++i) h.random_update(1, x, rng);
      expected.push_back(testing::reference_eval(plan, h.model()));
    }
    h.advance_all(t + span);
    for (Timestamp x = t; x < t + span; ++x) {
      INFO("seed " << seed << " workers " << workers << " time " << x);
      const PeekResponse r = h.peek(kIndex, x, arity);
      testing::check_peek(r, expected[x - t]);
    }
    t += span;
  }
}

// Runs the plan with the specialised path switched on and off (`set_enabled`);
// restores the default afterwards.
void check_both_paths(const PlanNode& plan, std::size_t arity,
                      void (*set_enabled)(bool) = set_accumulable_reduce_enabled) {
  for (const bool specialised : {true, false}) {
    set_enabled(specialised);
    for (const std::size_t workers : {1, 2})
      for (const std::uint64_t seed : {21u, 22u, 23u}) {
        INFO("specialised path " << specialised);
        check_plan(plan, arity, workers, seed);
      }
  }
  set_enabled(true);
}

PlanNode mfp(PlanNode input, MapFilterProject m) { return PlanNode{Mfp{std::move(input), std::move(m)}}; }

TEST_CASE("random: accumulable count/sum reduce, both paths", "[dataflow][random][reduce]") {
  std::vector<AggregateExpr> aggs{agg(AggregateFunc::kCountAll, col(1)), agg(AggregateFunc::kCount, col(1)),
                                  agg(AggregateFunc::kSumInt, col(1))};
  check_both_paths(PlanNode{Reduce{source(1), {col(0)}, aggs}}, 4);
  // Grouped by the nullable column: NULL is a group key like any other.
  check_both_paths(PlanNode{Reduce{source(1), {col(1)}, {agg(AggregateFunc::kSumInt, col(0))}}}, 2);
}

TEST_CASE("random: accumulable global int8 sum past int8, both paths", "[dataflow][random][reduce]") {
  // b * 2^61 as int8: b = 4 fails in the map (an input error passing through),
  // sums of 1..3 * 2^61 leave int8: sum(int8) is a wider numeric, kSumInt fails.
  MapFilterProject widen;
  widen.input_arity = 2;
  widen.expressions.push_back(ScalarExpr::binary(BinaryFunc::kMulInt8,
                                                 ScalarExpr::unary(UnaryFunc::kCast, col(1), i8()),
                                                 ScalarExpr::literal(Datum::from_int64(int64_t{1} << 61), i8()), i8()));
  widen.projection = {0, 2};
  const ScalarExpr c1 = ScalarExpr::column(1, i8());
  PlanNode widened = mfp(source(1), widen);
  check_both_paths(PlanNode{Reduce{widened, {}, {agg(AggregateFunc::kSumInt8, c1), agg(AggregateFunc::kCountAll, c1)}}},
                   2);
  check_both_paths(
      PlanNode{Reduce{widened, {col(0)}, {agg(AggregateFunc::kCount, c1), agg(AggregateFunc::kSumInt, c1)}}}, 3);
}

TEST_CASE("random: accumulable reduce with expression errors, both paths", "[dataflow][random][reduce]") {
  // 12 / b fails for b = 0 inside the reduce; the group's result is that error
  // until the row is retracted. The second aggregate fails for b = 1 instead.
  const ScalarExpr div = ScalarExpr::binary(BinaryFunc::kDivInt4, lit(12), col(1), testing::int4_type());
  const ScalarExpr div2 = ScalarExpr::binary(
      BinaryFunc::kDivInt4, lit(12), ScalarExpr::binary(BinaryFunc::kAddInt4, col(1), lit(-1), testing::int4_type()),
      testing::int4_type());
  check_both_paths(
      PlanNode{Reduce{source(1), {col(0)}, {agg(AggregateFunc::kCount, div2), agg(AggregateFunc::kSumInt, div)}}}, 3);
  // Division by zero (b = 0) vs integer out of range (b = 1): the least row's.
  const ScalarExpr scaled = ScalarExpr::binary(BinaryFunc::kMulInt4, div, lit(300000000), testing::int4_type());
  check_both_paths(PlanNode{Reduce{source(1), {col(0)}, {agg(AggregateFunc::kSumInt, scaled)}}}, 2);
}

TEST_CASE("hierarchical reduce: eligibility", "[dataflow][reduce]") {
  CHECK(is_hierarchical({agg(AggregateFunc::kMin, col(0)), agg(AggregateFunc::kMax, col(1))}));
  CHECK_FALSE(is_hierarchical({}));
  CHECK_FALSE(is_hierarchical({agg(AggregateFunc::kMin, col(0), /*distinct=*/true)}));
  CHECK_FALSE(is_hierarchical({agg(AggregateFunc::kMin, col(0)), agg(AggregateFunc::kCountAll, col(0))}));
}

TEST_CASE("random: hierarchical min/max reduce, both paths", "[dataflow][random][reduce]") {
  const std::vector<AggregateExpr> aggs{agg(AggregateFunc::kMin, col(1)), agg(AggregateFunc::kMax, col(1)),
                                        agg(AggregateFunc::kMax, col(0))};
  check_both_paths(PlanNode{Reduce{source(1), {col(0)}, aggs}}, 4, set_hierarchical_reduce_enabled);
  check_both_paths(PlanNode{Reduce{source(1), {}, aggs}}, 3, set_hierarchical_reduce_enabled);
}

TEST_CASE("random: hierarchical min/max with errors and ties, both paths", "[dataflow][random][reduce]") {
  // 12 / b fails for b = 0; 12 / (b - 1) for b = 1, in the second aggregate.
  const ScalarExpr div = ScalarExpr::binary(BinaryFunc::kDivInt4, lit(12), col(1), testing::int4_type());
  const ScalarExpr div2 = ScalarExpr::binary(
      BinaryFunc::kDivInt4, lit(12), ScalarExpr::binary(BinaryFunc::kAddInt4, col(1), lit(-1), testing::int4_type()),
      testing::int4_type());
  check_both_paths(
      PlanNode{Reduce{source(1), {col(0)}, {agg(AggregateFunc::kMax, div2), agg(AggregateFunc::kMin, div)}}}, 3,
      set_hierarchical_reduce_enabled);
  // 12 / b * 300000000 fails differently for b = 0 (division by zero) and
  // b = 1 (integer out of range): the recompute reports the least row's error.
  const ScalarExpr scaled = ScalarExpr::binary(BinaryFunc::kMulInt4, div, lit(300000000), testing::int4_type());
  check_both_paths(PlanNode{Reduce{source(1), {col(0)}, {agg(AggregateFunc::kMin, scaled)}}}, 2,
                   set_hierarchical_reduce_enabled);
  // Grouped by b: round(b::numeric, a) is b at scale a, equal values with
  // different bytes; the least input row (least a) decides the output bytes.
  const ColumnType numeric{TypeId::kNumeric};
  const ScalarExpr rounded = ScalarExpr::binary(BinaryFunc::kRoundNumericScale,
                                                ScalarExpr::unary(UnaryFunc::kCast, col(1), numeric), col(0), numeric);
  check_both_paths(
      PlanNode{Reduce{source(1), {col(1)}, {agg(AggregateFunc::kMin, rounded), agg(AggregateFunc::kMax, rounded)}}}, 3,
      set_hierarchical_reduce_enabled);
}

}  // namespace
}  // namespace tandem::compute
