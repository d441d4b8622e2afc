// GroupOp: the incremental shell of Reduce, Distinct, Threshold and TopK
// (differential's reduce, specialised to totally ordered time).
//
// Input: an ArrangeOp keyed by the group key. When the input frontier
// advances from f0 to f1, every group with an update at some time t in
// [f0, f1) is recomputed at each such t, in time order: the group's contents
// as of t are read from the input trace (exact, since the operator holds the
// trace at f0 <= t), passed to the GroupLogic (group_logic.hpp), and the
// difference between the new result and the group's previous result is
// emitted at t. Unaffected groups cost nothing.
// State: the last result per group (data and error rows), which is exactly
// the operator's accumulated output; a group whose result is empty is
// forgotten. With `recompute_previous` the operator keeps no state: the
// previous result of a group is recomputed from the trace as of just before
// the first time it changes in a step (the hold is then kept one tick below
// the frontier so that read stays exact). Distinct and Threshold use it: their
// groups are single rows, so the recompute is cheap, while a state entry per
// distinct row would hold the whole output in memory (count(DISTINCT x) over
// a spilled input would not be bounded by the budget). Errors of the input pass through; errors the logic raises
// (overflow, bad multiplicities) are part of the group's result and retract
// when the group changes.
// Threading: per worker.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "compute/arrangement/cursor_list.hpp"
#include "compute/arrangement/trace_handle.hpp"
#include "compute/dataflow/arrange_op.hpp"
#include "compute/dataflow/group_logic.hpp"

namespace tandem::compute {

class GroupOp final : public Operator {
 public:
  GroupOp(std::string name, ArrangeOp* input, std::unique_ptr<GroupLogic> logic, bool recompute_previous = false);
  void step() override;

  std::size_t group_count() const { return state_.size(); }

 private:
  void emit_difference(const GroupResult& before, const GroupResult& after, Timestamp time);
  // The group's contents under the cursor's key, summed over times `in_time`.
  template <typename InTime>
  void read_group(CursorList& cursor, InTime in_time);
  // result_ := the logic's (sorted) output for group_.
  void compute(RowRef key);

  ArrangeOp* input_;
  std::unique_ptr<GroupLogic> logic_;
  bool recompute_previous_;
  GroupResult previous_;  // recompute_previous_ only: the result before the current time
  TraceHandle hold_;
  Timestamp done_ = kMinTimestamp;
  std::unordered_map<std::string, GroupResult> state_;
  GroupContents group_;
  GroupResult result_;
};

}  // namespace tandem::compute
