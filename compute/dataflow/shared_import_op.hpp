// SharedImportOp: reads an index another runtime publishes:
// the interactive runtime's import of a maintenance index
// into a one-shot dataflow (one with an `until`).
//
// It holds the index's data and error traces at the dataflow's as_of
// (TraceHandles on the publisher's publications, which may still be
// placeholders no trace has adopted) and emits nothing until both published
// uppers reach `until`, i.e. every time the dataflow reads is sealed. Then it
// emits the snapshots' updates, with ImportOp's as_of/until treatment (times
// before as_of read at as_of, times at or after until dropped), at most
// kChunk per step walking a cursor over the shared batches, so a dataflow
// that filters or aggregates a large index never holds a copy of it
// (has_more() asks the worker for another step); its frontier jumps past
// until after the last chunk. Keyed, it emits (key, row) and drops rows
// with a NULL key, and its handle() is the join's arrangement, read in
// place: no copy of the index is made.
// `read_unsealed` (may be empty) is asked when the uppers are short of
// until: true lets the import read the latest snapshots as they are (an
// introspection read served while the publisher is inside a long step, with
// data as of its last completed step).
// The worker that owns the dataflow is woken when the publication advances
// (compute/runtime/publication_registry.hpp) and steps it again.
// Threading: per worker; the handles touch only the shared publications.
#pragma once

#include <functional>
#include <optional>

#include "compute/arrangement/cursor_list.hpp"
#include "compute/arrangement/trace_handle.hpp"
#include "compute/dataflow/operator.hpp"
#include "compute/dataflow/source_op.hpp"

namespace tandem::compute {

class SharedImportOp final : public Operator {
 public:
  // REQUIRES: bounds.until; both handles hold at most bounds.as_of.
  SharedImportOp(TraceHandle oks, TraceHandle errs, TimeBounds bounds, bool keyed,
                 std::function<bool()> read_unsealed);
  void step() override;
  const TraceHandle& handle() const { return oks_; }
  bool done() const { return done_; }
  // Emitting and not finished: wants another step without a wake-up.
  bool has_more() const { return cursor_.has_value(); }

  static constexpr std::size_t kChunk = 16384;

 private:
  void emit_errors(const TraceSnapshot& snapshot);
  // Emits up to kChunk data updates; true when the walk is complete.
  bool emit_chunk();

  TraceHandle oks_;
  TraceHandle errs_;
  TimeBounds bounds_;
  bool keyed_;
  std::function<bool()> read_unsealed_;
  bool done_ = false;
  std::shared_ptr<const TraceSnapshot> reading_;  // the data snapshot being walked
  std::optional<CursorList> cursor_;
};

}  // namespace tandem::compute
