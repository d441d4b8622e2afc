// GroupOp: the incremental shell of Reduce, Distinct, Threshold and TopK
// (differential's reduce, specialised to totally ordered time).
//
// Input: an ArrangeOp keyed by the group key, built without output: the
// operator subscribes to its sealed batches (an ArrangementFeed) and walks
// each with a cursor to learn which groups changed at which times, so
// nothing the size of the input is copied (a batch may be spilled). For
// each group with an update at some time t in a batch [f0, f1), in key
// order, the group is recomputed at each such t, in time order: the group's
// contents as of t are read from the input trace (exact, since the operator
// holds the trace at f0 <= t), passed to the GroupLogic (group_logic.hpp),
// and the difference between the new result and the group's previous
// result is emitted at t. Unaffected groups cost nothing. A step stops
// after kKeysPerStep groups or kOutputPerStep output updates, keeping its
// place in the batch, and asks for another step (has_more()); the frontier
// passes f1 once the batch is done. So a batch of millions of changed
// groups (a one-shot Distinct over a large input) is emitted in bounded
// pieces that downstream operators consume between steps.
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
#include <optional>
#include <string>
#include <unordered_map>

#include "compute/arrangement/cursor.hpp"
#include "compute/arrangement/cursor_list.hpp"
#include "compute/arrangement/trace_handle.hpp"
#include "compute/dataflow/arrange_op.hpp"
#include "compute/dataflow/group_logic.hpp"

namespace tandem::compute {

class GroupOp final : public Operator {
 public:
  GroupOp(std::string name, ArrangeOp* input, std::unique_ptr<GroupLogic> logic, bool recompute_previous = false);
  void step() override;
  bool has_more() const override { return !feed_->oks.empty(); }

  std::size_t group_count() const { return state_.size(); }

  static constexpr std::size_t kKeysPerStep = 4096;
  static constexpr std::size_t kOutputPerStep = 16384;

 private:
  void emit_difference(const GroupResult& before, const GroupResult& after, Timestamp time);
  // The group's contents under the cursor's key, summed over times `in_time`.
  template <typename InTime>
  void read_group(CursorList& cursor, InTime in_time);
  // result_ := the logic's (sorted) output for group_.
  void compute(RowRef key);
  // Recomputes the group `key` at each of `times` (ascending), emitting the
  // differences. `contents` is positioned at or before `key`.
  void process_group(CursorList& contents, const std::string& key, const std::vector<Timestamp>& times);

  ArrangeOp* input_;
  std::unique_ptr<GroupLogic> logic_;
  bool recompute_previous_;
  GroupResult previous_;  // recompute_previous_ only: the result before the current time
  TraceHandle hold_;
  std::shared_ptr<ArrangementFeed> feed_;
  std::optional<BatchCursor> walk_;  // over feed_->oks.front(), where the last step stopped
  std::vector<Timestamp> times_;
  Timestamp done_ = kMinTimestamp;
  std::unordered_map<std::string, GroupResult> state_;
  GroupContents group_;
  GroupResult result_;
};

}  // namespace tandem::compute
