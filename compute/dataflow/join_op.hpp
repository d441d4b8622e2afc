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
// Threading: per worker.
#pragma once

#include "compute/arrangement/trace_handle.hpp"
#include "compute/dataflow/arrange_op.hpp"
#include "compute/dataflow/source_op.hpp"

namespace tandem::compute {

class JoinOp final : public Operator {
 public:
  // Handles on the two arrangements (this worker's own traces, or another
  // runtime's published ones), each holding at most the dataflow's as_of.
  // `bounds`: the dataflow's as_of/until, applied to what is read from the
  // traces as the inputs apply it to their streams (an imported index's
  // trace holds times before as_of, which its import emitted at as_of).
  JoinOp(TraceHandle lhs, TraceHandle rhs, TimeBounds bounds = {});
  void step() override;

 private:
  // Joins sorted `delta` against `trace` (times < bound). `delta_is_lhs`
  // says which side delta is, for the output column order.
  void join_delta(std::vector<Update>& delta, const TraceHandle& trace, Timestamp bound, bool delta_is_lhs);

  TraceHandle lhs_hold_;
  TraceHandle rhs_hold_;
  TimeBounds bounds_;
  Timestamp done_ = kMinTimestamp;  // j0
};

// Removes and returns the updates of `pending` with time < bound, sorted by key.
std::vector<Update> take_before(std::vector<Update>& pending, Timestamp bound);

}  // namespace tandem::compute
