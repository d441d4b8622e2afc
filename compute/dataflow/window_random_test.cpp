// Randomized incremental-vs-recompute test of the Window operator: random
// inserts and retractions over many timestamps; at every sealed time the
// exported index must equal the reference evaluator's from-scratch answer
// (a partition recomputed from its contents at that time). Column 1 of the
// sources is NULL in a sixth of the rows, so NULL ordering and peers are
// exercised; rows repeat, so multiplicities are too.
#include <catch2/catch.hpp>

#include "compute/testing/harness.hpp"

namespace tandem::compute {
namespace {

using testing::col;
using testing::Harness;
using testing::source;

constexpr GlobalId kIndex = 7;

void check_plan(const PlanNode& plan, std::size_t arity, std::size_t workers, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Harness h(workers, {1, 2});
  h.install(plan, kIndex);
  Timestamp t = 1;
  for (int round = 0; round < 60; ++round) {
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
      testing::check_peek(h.peek(kIndex, x, arity), expected[x - t]);
    }
    if (rng() % 2 == 0) h.runtime().send(AllowCompaction{kIndex, t});
    t += span;
  }
}

void check_all(const PlanNode& plan, std::size_t arity) {
  for (const std::size_t workers : {1, 2})
    for (const std::uint64_t seed : {21u, 22u}) check_plan(plan, arity, workers, seed);
}

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
using B = WindowFrameBound::Kind;

std::vector<WindowFunc> every_function() {
  const WindowFrame rows{WindowFrame::Units::kRows, {B::kPreceding, 1}, {B::kFollowing, 2}};
  const WindowFrame groups{WindowFrame::Units::kGroups, {B::kCurrentRow, 0}, {B::kUnboundedFollowing, 0}};
  const WindowFrame whole{WindowFrame::Units::kRange, {B::kUnboundedPreceding, 0}, {B::kUnboundedFollowing, 0}};
  return {fn(WindowFuncKind::kRowNumber),
          fn(WindowFuncKind::kRank),
          fn(WindowFuncKind::kDenseRank),
          fn(WindowFuncKind::kPercentRank),
          fn(WindowFuncKind::kCumeDist),
          fn(WindowFuncKind::kLag, {1}),
          fn(WindowFuncKind::kLead, {1, 0, 0}),
          fn(WindowFuncKind::kFirstValue, {1}),
          fn(WindowFuncKind::kLastValue, {1}, rows),
          agg(AggregateFunc::kSumInt, {1}),
          agg(AggregateFunc::kCountAll, {}, groups),
          agg(AggregateFunc::kMax, {1}, rows),
          agg(AggregateFunc::kMin, {1}, whole),
          agg(AggregateFunc::kCount, {1}, WindowFrame{WindowFrame::Units::kRows, {B::kFollowing, 1}, {B::kUnboundedFollowing, 0}})};
}

TEST_CASE("random: window functions per partition", "[dataflow][random][window]") {
  Window w{source(1), {0}, {ColumnOrder{1, false, true}}, every_function()};
  check_all(PlanNode{std::move(w)}, 2 + every_function().size());
}

TEST_CASE("random: window over the whole input, descending, no order", "[dataflow][random][window]") {
  Window desc{source(1), {}, {ColumnOrder{1, true, false}, ColumnOrder{0, false, true}}, every_function()};
  check_all(PlanNode{std::move(desc)}, 2 + every_function().size());
  Window unordered{source(2), {1}, {}, every_function()};
  check_all(PlanNode{std::move(unordered)}, 2 + every_function().size());
}

TEST_CASE("random: window over a join, then a window over its output", "[dataflow][random][window]") {
  PlanNode joined{Join{source(1), source(2), {col(0)}, {col(0)}}};
  Window inner{std::move(joined), {1}, {ColumnOrder{3, false, true}}, {fn(WindowFuncKind::kRank), agg(AggregateFunc::kSumInt, {3})}};
  Window outer{PlanNode{std::move(inner)}, {4}, {ColumnOrder{5, true, false}}, {fn(WindowFuncKind::kRowNumber)}};
  check_all(PlanNode{std::move(outer)}, 7);
}

}  // namespace
}  // namespace tandem::compute
