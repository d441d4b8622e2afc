// AccumulableReduceOp: Reduce for aggregates whose state is a sum over the
// input (differential's / Materialize's accumulable reduce), specialised to
// totally ordered time.
//
// Eligibility (is_accumulable): every aggregate is non-DISTINCT count(*),
// count(x), sum(int2|int4) (kSumInt), sum(int8) (kSumInt8), sum(numeric)
// (kSumNumeric) or sum(float4|float8) (kSumFloat). The last two keep a
// SumAccumulator (sum_accumulator.hpp): counts of NaN and the infinities,
// and per display scale a count and an exact coefficient sum (numeric), or
// the exact sum of the finite terms (float, exact_float_sum.hpp); the
// recompute uses the same accumulator, so the two agree exactly and a
// retraction undoes its insertion.
//
// Input: the keyed stream after the exchange (key = group key values, val =
// input row), not an arrangement: the operator reads each update once, as
// it arrives, into a delta accumulator of its (time, group) (row count; per
// aggregate the non-NULL count and the i128 sum), so the state waiting for
// the frontier is one accumulator per (time, group) however many updates
// arrive (a one-shot aggregate over a spilled index streams through it).
// When the input frontier advances from f0 to f1, the deltas in [f0, f1)
// are added to the groups' accumulators in time order; after each time at
// which a group changed, its output row is rebuilt from the accumulator
// and, if it differs from the previous one, the previous row is retracted and
// the new one inserted at that time. A group whose accumulator is all zero
// (no rows) is forgotten and has no output.
//
// Output contract: identical to GroupOp + make_reduce_logic (group_logic.hpp)
// — output row = key ++ one column per aggregate, count → int8, sum(int4) →
// int8 ("bigint out of range" 22003 when the total leaves int8), sum(int8) →
// numeric (22003 numeric overflow beyond 38 digits), sum(numeric) → numeric,
// sum(float) → float8 (sum_accumulator.hpp), sum over no non-NULL
// input is NULL; an expression error for some row makes the group's result
// that error (the first aggregate's, the least val's, as the recompute
// finds it) instead of a data row. Input errors pass through.
// Documented differences, both only for invalid (negative) input:
//   * The recompute reports "negative multiplicity" when any single val's
//     accumulated multiplicity is negative. The accumulator sees totals only:
//     it reports that error when the row count or some non-NULL count is
//     negative, or the row count is zero while some other accumulator is
//     not; a negative val offset by positive others is aggregated as is.
//   * The recompute adds terms in val order and fails if an i128 partial sum
//     overflows; the accumulator adds in arrival order and its overflow is
//     sticky for the group. Both need |sum| ≥ 2^127 (multiplicities ≥ 2^63).
// Threading: per worker. The enable switch is process-wide and atomic.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/eval_context.hpp"
#include "common/u256.hpp"  // i128
#include "compute/dataflow/operator.hpp"
#include "compute/dataflow/sum_accumulator.hpp"
#include "compute/plan/aggregate.hpp"

namespace tandem::compute {

// True if every aggregate has an exact running-sum form (see above).
bool is_accumulable(const std::vector<AggregateExpr>& aggregates);

// Whether render chooses AccumulableReduceOp for eligible Reduces (default
// true; false if the environment sets TANDEM_ACCUMULABLE_REDUCE=0, for
// benchmarking). Tests flip it to compare the two paths; affects later
// renders only.
bool accumulable_reduce_enabled();
void set_accumulable_reduce_enabled(bool enabled);

class AccumulableReduceOp final : public Operator {
 public:
  // REQUIRES: is_accumulable(aggregates).
  explicit AccumulableReduceOp(std::vector<AggregateExpr> aggregates);
  void step() override;

  std::size_t group_count() const { return groups_.size(); }
  // (time, group) deltas waiting for the frontier.
  std::size_t pending_deltas() const {
    std::size_t n = 0;
    for (const auto& [time, groups] : deltas_) n += groups.size();
    return n;
  }

 private:
  struct AggregateAccumulator {
    i128 non_null = 0;  // i128 like the sums, so huge multiplicities cannot wrap
    i128 sum = 0;
    bool overflowed = false;  // sticky; see the header comment
    SumAccumulator sums;      // sum(numeric), sum(float)
  };
  // Rows whose expression failed, per aggregate: val bytes -> (error row, multiplicity).
  using ErrorRows = std::vector<std::map<std::string, std::pair<Row, Diff>>>;
  struct Group {
    i128 rows = 0;
    std::vector<AggregateAccumulator> aggregates;
    std::unique_ptr<ErrorRows> errors;  // null while no row has failed
    Row output;                          // valid if has_output
    bool has_output = false;
    bool output_is_error = false;
  };

  void apply(Group& group, const Update& update);
  // Adds a (time, group) delta to the group's accumulator.
  void merge(Group& group, Group&& delta);
  // Folds the input's pending updates into deltas_.
  void fold_pending();
  // Emits the group's change of output at `t`, if any.
  void emit(RowRef key, Group& group, Timestamp t);
  // Rebuilds the group's result; false if the group is empty (no output).
  bool result(RowRef key, const Group& group, Row* row, bool* is_error);
  bool is_empty(const Group& group) const;

  std::vector<AggregateExpr> aggregates_;
  bool needs_eval_ = false;
  Timestamp done_ = kMinTimestamp;
  std::unordered_map<std::string, Group> groups_;
  // Updates not yet past the frontier, folded per time and group.
  std::map<Timestamp, std::unordered_map<std::string, Group>> deltas_;
  EvalContext ctx_;
  RowArena arena_;
  std::vector<Datum> datums_;
};

}  // namespace tandem::compute
