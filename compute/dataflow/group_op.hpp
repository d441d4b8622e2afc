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
// forgotten. Errors of the input pass through; errors the logic raises
// (overflow, bad multiplicities) are part of the group's result and retract
// when the group changes.
// Threading: per worker.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "compute/arrangement/trace_handle.hpp"
#include "compute/dataflow/arrange_op.hpp"
#include "compute/dataflow/group_logic.hpp"

namespace tandem::compute {

class GroupOp final : public Operator {
 public:
  GroupOp(std::string name, ArrangeOp* input, std::unique_ptr<GroupLogic> logic);
  void step() override;

  std::size_t group_count() const { return state_.size(); }

 private:
  void emit_difference(const GroupResult& before, const GroupResult& after, Timestamp time);

  ArrangeOp* input_;
  std::unique_ptr<GroupLogic> logic_;
  TraceHandle hold_;
  Timestamp done_ = kMinTimestamp;
  std::unordered_map<std::string, GroupResult> state_;
  GroupContents group_;
  GroupResult result_;
};

}  // namespace tandem::compute
