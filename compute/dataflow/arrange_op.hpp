// ArrangeOp: builds an arrangement (compute/arrangement/trace.hpp) from a
// keyed stream, differential's arrange.
//
// Each step, when the input frontier has moved to f, the buffered updates
// with time < f are sealed into one batch [previous f, f) and inserted into
// the trace; the batch's (consolidated) updates are emitted downstream, so
// consumers (join, group operators) see each time's delta exactly once, after
// it is in the trace. The frontier is the trace's upper.
// With `arrange_errors`, error updates are arranged too (key = error row,
// val empty) in a second trace instead of being forwarded: that is an index
// export, whose peeks must see errors as of their time.
// Feeds: importers on the same worker subscribe and receive every sealed
// batch (data and errors) in order.
//
// Compaction: the trace compacts only up to the least hold of its live
// TraceHandles (consumers, the export's read hold, parked peeks).
// Threading: owned by one worker; handles on its traces may be read from any
// thread (trace_handle.hpp).
#pragma once

#include <memory>
#include <vector>

#include "compute/arrangement/batcher.hpp"
#include "compute/arrangement/trace.hpp"
#include "compute/dataflow/operator.hpp"

namespace tandem::compute {

// Batches sealed by an arrangement, waiting for one importer.
struct ArrangementFeed {
  std::vector<BatchPtr> oks;
  std::vector<BatchPtr> errs;
};

class ArrangeOp final : public Operator {
 public:
  // An index export may adopt placeholder publications (non-null when its
  // runtime's registry made them before the dataflow was built; see
  // compute/runtime/publication_registry.hpp).
  ArrangeOp(bool arrange_errors, bool emit_output, std::shared_ptr<TracePublication> oks_placeholder = nullptr,
            std::shared_ptr<TracePublication> errs_placeholder = nullptr);
  void step() override;

  Trace& trace() { return *oks_; }
  const std::shared_ptr<Trace>& shared_trace() const { return oks_; }
  // Null unless arrange_errors.
  const std::shared_ptr<Trace>& shared_errs_trace() const { return errs_; }
  void subscribe(const std::shared_ptr<ArrangementFeed>& feed) { feeds_.push_back(feed); }
  // Bytes this arrangement holds wherever they live: its traces' batches
  // (resident and spilled) and what its batchers buffer.
  std::uint64_t held_bytes() const;

 private:
  std::shared_ptr<Trace> oks_;
  std::shared_ptr<Trace> errs_;
  Batcher oks_batcher_;
  Batcher errs_batcher_;
  bool emit_output_;
  std::vector<std::weak_ptr<ArrangementFeed>> feeds_;
};

// Appends every update of `batch` as a keyed Update.
void append_batch_updates(const BatchPtr& batch, std::vector<Update>* out);

}  // namespace tandem::compute
