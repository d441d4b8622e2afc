// JoinOp: incremental binary equi-join of two arrangements (differential's
// join_core, specialised to totally ordered time).
//
// Both inputs are arrangements keyed by the join key: an ArrangeOp of this
// dataflow, or an index another dataflow exports, read through a keyed
// ImportOp (arrangement reuse: no second copy of the index). Their output
// streams are the per-time deltas dA and dB, and their traces the
// accumulated collections. The join advances its frontier from j0 to j1 = the least of
// the two input frontiers and emits, for all pairs of updates with a
// matching key,
//     dA ⋈ B(t < j1)  +  A(t < j0) ⋈ dB
// where dA, dB are the updates with j0 <= t < j1 and each output pair has
// time max(ta, tb) and diff da * db. Every pair of updates with both times
// < j1 and at least one >= j0 is counted exactly once, so the output is the
// exact change of A ⋈ B over [j0, j1).
// Holds: the join holds both traces at j0 - 1 (times below may be advanced
// to it but stay distinguishable from j0). Reading a trace (its latest
// published snapshot) filters out times >= j1 that a faster input already
// sealed.
// Output row: lhs row ++ rhs row. Errors of both inputs pass through.
// Fuel: one step emits at most kJoinFuel output updates. A step that runs
// out keeps its place (the delta, the key group and row within it, and the
// snapshot and cursor it reads) and reports has_more(), so the worker steps
// again after the commands queued meanwhile: a cross product of large inputs
// never holds more than a step's output in flight and never keeps a cancel
// or a drop waiting on its end. The frontier stays at j0 and the holds at
// j0 - 1 until the interval's work is done, so a resumed step reads what
// the first one read.
// Threading: per worker.
#pragma once

#include <memory>
#include <string_view>
#include <tuple>

#include "compute/arrangement/cursor_list.hpp"
#include "compute/arrangement/trace_handle.hpp"
#include "compute/dataflow/arrange_op.hpp"
#include "compute/dataflow/source_op.hpp"

namespace tandem::compute {

// Output updates one JoinOp step may emit.
inline constexpr std::int64_t kJoinFuel = 256 * 1024;

class JoinOp final : public Operator {
 public:
  // Handles on the two arrangements (this worker's own traces, or another
  // runtime's published ones), each holding at most the dataflow's as_of.
  // `bounds`: the dataflow's as_of/until, applied to what is read from the
  // traces as the inputs apply it to their streams (an imported index's
  // trace holds times before as_of, which its import emitted at as_of).
  JoinOp(TraceHandle lhs, TraceHandle rhs, TimeBounds bounds = {});
  void step() override;
  bool has_more() const override { return working_; }
  // For tests: the fuel of each later step.
  void set_fuel(std::int64_t fuel) { fuel_ = fuel; }

 private:
  // One side's share of an interval's work: its delta, sorted by key,
  // joined against the other side's trace at times < bound.
  struct DeltaWork {
    std::vector<Update> delta;
    Timestamp bound = kMinTimestamp;
    bool delta_is_lhs = true;
    std::size_t group = 0;  // the first update of the key group in progress
    std::size_t next = 0;   // the next update of that group to emit for
    // The trace read and its cursor, kept while the work lasts (the
    // matches' views point into its batches).
    std::shared_ptr<const TraceSnapshot> snapshot;
    std::unique_ptr<CursorList> cursor;
    bool matched = false;  // `matches` holds group's matches
    std::vector<std::tuple<std::string_view, Timestamp, Diff>> matches;
  };
  // Continues `work` against `trace`; false if the fuel ran out first.
  bool join_delta(DeltaWork& work, const TraceHandle& trace, std::int64_t& fuel);
  void collect_matches(DeltaWork& work);

  TraceHandle lhs_hold_;
  TraceHandle rhs_hold_;
  TimeBounds bounds_;
  Timestamp done_ = kMinTimestamp;  // j0
  // The interval [done_, target_) being joined, while working_.
  bool working_ = false;
  Timestamp target_ = kMinTimestamp;
  DeltaWork lhs_work_;
  DeltaWork rhs_work_;
  std::int64_t fuel_ = kJoinFuel;
};

// Removes and returns the updates of `pending` with time < bound, sorted by key.
std::vector<Update> take_before(std::vector<Update>& pending, Timestamp bound);

}  // namespace tandem::compute
