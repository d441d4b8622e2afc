// GroupOp's bounded steps: a sealed batch with more changed groups than a
// step handles is emitted in pieces (each step at most kKeysPerStep groups,
// has_more() until done, the frontier held back until the batch is done),
// and the pieces add up to the whole answer; a Distinct that recomputes the
// previous result instead of keeping it retracts exactly what it emitted.
#include <catch2/catch.hpp>

#include <map>

#include "compute/dataflow/arrange_op.hpp"
#include "compute/dataflow/group_op.hpp"

namespace tandem::compute {
namespace {

Row int_row(std::int64_t v) { return Row::pack_one(Datum::from_int64(v)); }

// Steps the GroupOp until it has no more work, collecting its output.
std::map<std::string, Diff> drain(GroupOp& group, ArrangeOp& arrange, std::size_t* steps) {
  std::map<std::string, Diff> out;
  group.input(0).frontier = arrange.frontier();
  do {
    group.step();
    ++*steps;
    CHECK(group.output().oks.size() <= GroupOp::kKeysPerStep);
    if (group.has_more()) CHECK(group.frontier() < arrange.frontier());
    for (const Update& u : group.output().oks) out[std::string(u.val.bytes())] += u.diff;
    group.output().oks.clear();
  } while (group.has_more());
  CHECK(group.frontier() == arrange.frontier());
  return out;
}

TEST_CASE("a GroupOp emits a large batch of changed groups in bounded steps", "[dataflow][group]") {
  ArrangeOp arrange(/*arrange_errors=*/false, /*emit_output=*/false);
  GroupOp distinct("Distinct", &arrange, make_distinct_logic(), /*recompute_previous=*/true);
  const std::int64_t n = 3 * static_cast<std::int64_t>(GroupOp::kKeysPerStep) + 17;
  for (std::int64_t v = 0; v < n; ++v) {
    arrange.input(0).pending.oks.push_back(Update{int_row(v), Row(), 1, 1});
    arrange.input(0).pending.oks.push_back(Update{int_row(v), Row(), 1, 1});  // twice: once in the output
  }
  arrange.input(0).frontier = 2;
  arrange.step();
  REQUIRE(arrange.output().oks.empty());  // the GroupOp reads the sealed batch itself

  std::size_t steps = 0;
  auto out = drain(distinct, arrange, &steps);
  CHECK(steps == 4);
  REQUIRE(out.size() == static_cast<std::size_t>(n));
  for (const auto& [row, diff] : out) CHECK(diff == 1);

  // Retract every other value at time 2: exactly those rows are retracted,
  // though the operator kept no copy of what it emitted.
  for (std::int64_t v = 0; v < n; v += 2) arrange.input(0).pending.oks.push_back(Update{int_row(v), Row(), 2, -2});
  arrange.input(0).frontier = 3;
  arrange.step();
  steps = 0;
  out = drain(distinct, arrange, &steps);
  CHECK(steps == 2);
  REQUIRE(out.size() == static_cast<std::size_t>((n + 1) / 2));
  for (const auto& [row, diff] : out) CHECK(diff == -1);
  CHECK(distinct.group_count() == 0);
}

}  // namespace
}  // namespace tandem::compute
