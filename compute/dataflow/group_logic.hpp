// GroupLogic: what a group-wise operator (Reduce, Distinct, Threshold, TopK)
// computes from one group's contents at one time, from scratch.
//
// The incremental machinery (compute/dataflow/group_op.hpp) decides which
// groups changed at which times and diffs successive results; a GroupLogic
// only maps contents to output. Keeping it a pure function of the group is
// what makes reduce's output exact: the operator recomputes an affected group
// and emits the difference from what it emitted before.
//
// Group contents: the arrangement's vals under one key with their nonzero
// accumulated multiplicities, in ascending byte order. Layouts:
//   Reduce:    key = group key values, val = input row;
//              output row = key ++ one column per aggregate.
//   Distinct, Threshold: key = the row, val = empty; output row = key.
//   TopK:      key = group key columns, val = input row; output = val rows.
// A negative accumulated multiplicity where only positive ones make sense
// (everything but Threshold) yields an error row instead of output.
// Threading: a logic instance is used by one thread (scratch state).
#pragma once

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "common/row.hpp"
#include "common/timestamp.hpp"
#include "compute/plan/aggregate.hpp"
#include "compute/plan/lir.hpp"

namespace tandem::compute {

// ORDER BY comparison of two unpacked rows by `order` (PostgreSQL's NULL
// placement per column): <0, 0, >0. Used by TopK and Window.
int compare_in_order(const std::vector<Datum>& a, const std::vector<Datum>& b, const std::vector<ColumnOrder>& order);

using GroupContents = std::vector<std::pair<std::string_view, Diff>>;

struct GroupResult {
  std::vector<std::pair<Row, Diff>> oks;
  std::vector<std::pair<Row, Diff>> errs;
  void clear() {
    oks.clear();
    errs.clear();
  }
};

class GroupLogic {
 public:
  virtual ~GroupLogic() = default;
  // Appends the output for the group to *out (which the caller cleared).
  // REQUIRES: `group` is non-empty.
  virtual void apply(RowRef key, const GroupContents& group, GroupResult* out) = 0;
};

// One aggregate's running value over the values fed to it: the Reduce's
// per-group arithmetic (exact sums, overflow errors), shared with window
// aggregates. kStringAgg and kArrayAgg are not supported here.
// Threading: one thread.
class AggregateAccumulator {
 public:
  explicit AggregateAccumulator(AggregateFunc func);
  ~AggregateAccumulator();
  AggregateAccumulator(const AggregateAccumulator&) = delete;
  AggregateAccumulator& operator=(const AggregateAccumulator&) = delete;
  // Feeds a non-NULL value `mult` (> 0) times (kCountAll: any value).
  Status add(const Datum& v, Diff mult);
  // Appends the aggregate's value over everything fed so far; may be
  // called again after more values are fed.
  Status finish(RowPacker& packer);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

std::unique_ptr<GroupLogic> make_reduce_logic(std::vector<AggregateExpr> aggregates);
std::unique_ptr<GroupLogic> make_distinct_logic();
std::unique_ptr<GroupLogic> make_threshold_logic();
std::unique_ptr<GroupLogic> make_topk_logic(std::vector<ColumnOrder> order, std::optional<std::int64_t> limit,
                                            std::int64_t offset);

}  // namespace tandem::compute
