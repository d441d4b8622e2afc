// Operators that bring collections into a dataflow.
//
//  SourceFeed   the mailbox between whatever feeds a source (storage's
//               listen; tests' InputHandle) and one worker's SourceOp:
//               shared chunks of updates (data, and errors for sources that
//               carry them: a materialized view's persisted errors), history
//               batches (an input's older updates kept as arrangement
//               batches, key = row, val empty, which the memory budget may
//               spill; input_handle.hpp) plus the source's frontier (no
//               update with time < frontier will follow). Any thread may
//               push; the owning worker drains. The pusher wakes the worker
//               afterwards.
//  SourceOp     drains a SourceFeed, reading the source as of the dataflow's
//               as_of (earlier times are read at as_of) and dropping times
//               at or after `until`. Its frontier is max(feed frontier,
//               as_of): nothing it emits is earlier than as_of. It emits at
//               most kStepUpdates data updates a step, walking history
//               batches with a cursor (one block pinned), so hydrating from
//               a large input holds one step's updates in flight, not the
//               input; has_more() asks the worker to step again, and the
//               frontier holds until everything drained is emitted.
//  ImportOp     reads an index exported by another dataflow on the same
//               worker: the exporter's batches at creation, then every batch
//               it seals (an ArrangementFeed), as unkeyed rows (the export's
//               vals) and errors, with the same as_of/until treatment. Its
//               frontier follows the exporter's upper. Keyed, it emits
//               (key, row) updates and drops rows whose key has a NULL: a
//               join input that reuses the index's arrangement (its trace()
//               is the exporter's).
// Threading: SourceFeed is shared (mutex held only to move vectors); the ops
// belong to one worker.
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <optional>

#include "compute/arrangement/cursor.hpp"
#include "compute/dataflow/arrange_op.hpp"
#include "compute/dataflow/operator.hpp"

namespace tandem::compute {

// Updates released together, shared read-only by an InputHandle's history
// and every feed that has yet to read them: a table's rows are stored once,
// however many dataflows subscribe, and each reader copies what it admits.
using UpdateChunk = std::shared_ptr<const std::vector<Update>>;

class SourceFeed {
 public:
  // Either chunk may be null. `errs` holds error rows
  // (compute/dataflow/error_row.hpp) as vals.
  void push_history(const std::vector<BatchPtr>& batches) {
    std::lock_guard lock(mutex_);
    history_.insert(history_.end(), batches.begin(), batches.end());
  }
  void push(UpdateChunk oks, UpdateChunk errs, Timestamp frontier) {
    std::lock_guard lock(mutex_);
    if (oks && !oks->empty()) oks_.push_back(std::move(oks));
    if (errs && !errs->empty()) errs_.push_back(std::move(errs));
    frontier_ = std::max(frontier_, frontier);
  }
  // Moves the chunks (and history batches) pushed so far into *oks / *errs
  // (/ *history, appended); returns the frontier.
  Timestamp drain(std::vector<UpdateChunk>* oks, std::vector<UpdateChunk>* errs,
                  std::vector<BatchPtr>* history = nullptr) {
    std::lock_guard lock(mutex_);
    oks->swap(oks_);
    errs->swap(errs_);
    oks_.clear();
    errs_.clear();
    if (history != nullptr) {
      history->insert(history->end(), history_.begin(), history_.end());
      history_.clear();
    }
    return frontier_;
  }

 private:
  std::mutex mutex_;
  std::vector<UpdateChunk> oks_;
  std::vector<UpdateChunk> errs_;
  std::vector<BatchPtr> history_;
  Timestamp frontier_ = kMinTimestamp;
};

// as_of/until treatment shared by the source operators.
struct TimeBounds {
  Timestamp as_of = kMinTimestamp;
  std::optional<Timestamp> until;
  // Adjusts u.time; false if the update is dropped.
  bool admit(Update& u) const {
    u.time = std::max(u.time, as_of);
    return !until || u.time < *until;
  }
  // Whether admit() keeps an update at `time` (without changing it).
  bool admits(Timestamp time) const { return !until || std::max(time, as_of) < *until; }
  Timestamp frontier(Timestamp input) const {
    const Timestamp f = std::max(input, as_of);
    return until && f >= *until ? kMaxTimestamp : f;
  }
};

class SourceOp final : public Operator {
 public:
  static constexpr std::size_t kStepUpdates = 64 * 1024;

  SourceOp(std::shared_ptr<SourceFeed> feed, TimeBounds bounds)
      : Operator("Source", 0), feed_(std::move(feed)), bounds_(bounds) {}
  void step() override;
  bool has_more() const override { return cursor_ != nullptr || !history_.empty() || !chunks_.empty(); }

 private:
  // Emits up to `budget` updates from the history batches; returns how many.
  std::size_t emit_history(std::size_t budget);
  std::size_t emit_chunks(std::size_t budget);

  std::shared_ptr<SourceFeed> feed_;
  TimeBounds bounds_;
  std::deque<UpdateChunk> chunks_;  // the first is emitted up to chunk_pos_
  std::size_t chunk_pos_ = 0;
  std::deque<BatchPtr> history_;    // the first is walked by cursor_
  std::unique_ptr<BatchCursor> cursor_;
  Timestamp feed_frontier_ = kMinTimestamp;
  std::vector<UpdateChunk> drained_;
  std::vector<UpdateChunk> err_chunks_;
  std::vector<BatchPtr> drained_history_;
};

class ImportOp final : public Operator {
 public:
  // REQUIRES: the exporter's since <= bounds.as_of.
  ImportOp(ArrangeOp* exporter, TimeBounds bounds, bool keyed = false);
  void step() override;
  const std::shared_ptr<Trace>& trace() const { return trace_; }

 private:
  void emit(const BatchPtr& batch, bool errors);

  std::shared_ptr<Trace> trace_;
  std::shared_ptr<ArrangementFeed> feed_;
  TimeBounds bounds_;
  bool keyed_;
  std::vector<Update> scratch_;
};

}  // namespace tandem::compute
