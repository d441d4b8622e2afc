// Reduce collation: a Reduce whose aggregates are of several kinds is
// rendered as one part per kind, each by the operator that keeps that kind
// bounded, and the parts' results are joined back on the group key
// (Materialize's "collation").
//
// Parts (split_reduce), in order of first aggregate:
//   kAccumulable   non-DISTINCT count and sum (int, numeric, float; so avg,
//                  which is sum / count) → AccumulableReduceOp: folds each
//                  update as it arrives, no arrangement.
//   kHierarchical  min/max (DISTINCT or not: the same value) → the multi-level
//                  bucketed GroupOps of hierarchical_reduce.hpp.
//   kDistinct      one per count(DISTINCT x) / sum(DISTINCT int x): a
//                  Distinct on (group key, x) — KeyBy with x's numerics
//                  normalized, the val dropped, an arrangement (which spills)
//                  and a stateless Distinct GroupOp — followed by an
//                  accumulable count(x) / sum(x) per group key. NULL x is kept
//                  through the Distinct (and ignored by count/sum), so a group
//                  whose x are all NULL still has a row (count 0, sum NULL).
//   kBasic         everything else (string_agg, array_agg, other
//                  DISTINCTs) → GroupOp with
//                  make_reduce_logic. It reads a whole group at once; its
//                  outputs (string_agg, array_agg) are as large as the group
//                  anyway.
// With one part, that part is the Reduce (no collation). Otherwise each
// part's rows (key ++ its aggregates) go through CollateTagOp (keyed by the
// group key, val = int4 part ++ the aggregates), a union, an exchange and an
// arrangement, and a GroupOp with make_collation_logic assembles key ++ the
// aggregates in the Reduce's order. A group's collation group holds one row
// per part, so it is small whatever the input group's size.
//
// Exactness: the data output equals make_reduce_logic's. Errors: a group
// one of whose parts fails has no data row, and the failing parts' errors
// are in the error collection, each as its part reports it. The whole-group
// recompute reports only the first failing aggregate's error; when
// aggregates of different parts fail at once, the error a read reports may
// be another part's (Materialize behaves so too). Errors of the group key
// expressions are reported by every part. A count(DISTINCT x) whose x fails
// reports the failure once per failing input row (with its multiplicity).
// Threading: as Operator / GroupLogic (per worker); split_reduce is pure.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "compute/dataflow/group_logic.hpp"
#include "compute/dataflow/operator.hpp"
#include "compute/plan/aggregate.hpp"

namespace tandem::compute {

struct ReducePart {
  enum class Kind : std::uint8_t { kAccumulable, kHierarchical, kDistinct, kBasic };
  Kind kind = Kind::kBasic;
  // Indexes into the Reduce's aggregates, ascending.
  std::vector<std::size_t> positions;
  bool operator==(const ReducePart&) const = default;
};

// The parts of a Reduce over `aggregates` (see above). A kind whose operator
// is switched off joins kBasic: accumulable_enabled off sends count/sum and
// the DISTINCT count/sum there, hierarchical_enabled off min/max.
std::vector<ReducePart> split_reduce(const std::vector<AggregateExpr>& aggregates, bool accumulable_enabled,
                                     bool hierarchical_enabled);

// The aggregates a part computes, as its operator takes them: a kDistinct
// part's is the non-DISTINCT count/sum of column `key_arity` (x, after the
// Distinct on key ++ x); a kHierarchical part's drop DISTINCT.
std::vector<AggregateExpr> part_aggregates(const ReducePart& part, const std::vector<AggregateExpr>& aggregates,
                                           std::size_t key_arity);

// Turns a part's result rows (key ++ aggregates) into updates keyed by the
// first `key_arity` datums, val = int4 part ++ the rest. Errors pass.
class CollateTagOp final : public Operator {
 public:
  CollateTagOp(std::int32_t part, std::size_t key_arity)
      : Operator("CollateTag", 1), part_(part), key_arity_(key_arity) {}
  void step() override;

 private:
  std::int32_t part_;
  std::size_t key_arity_;
};

// Group logic of the collation: key = group key, vals = the tagged rows.
// Emits key ++ every aggregate in the Reduce's order when each part has
// exactly one row of multiplicity 1; nothing when a part is missing (its
// error is already in the error collection); an error row otherwise.
std::unique_ptr<GroupLogic> make_collation_logic(std::vector<ReducePart> parts, std::size_t aggregate_count);

}  // namespace tandem::compute
