#include "compute/dataflow/source_op.hpp"

namespace tandem::compute {

void SourceOp::step() {
  feed_frontier_ = feed_->drain(&drained_, &err_chunks_, &drained_history_);
  for (UpdateChunk& c : drained_) chunks_.push_back(std::move(c));
  drained_.clear();
  for (BatchPtr& b : drained_history_) history_.push_back(std::move(b));
  drained_history_.clear();
  // Errors are few: all of them at once.
  for (const UpdateChunk& c : err_chunks_) {
    for (const Update& u : *c) {
      if (!bounds_.admits(u.time)) continue;
      out_.errs.push_back(u);
      out_.errs.back().time = std::max(u.time, bounds_.as_of);
    }
  }
  err_chunks_.clear();
  std::size_t budget = kStepUpdates;
  budget -= emit_history(budget);
  emit_chunks(budget);
  // Held updates are earlier than the feed's frontier: it passes them only
  // once they are out.
  if (!has_more()) advance_frontier(bounds_.frontier(feed_frontier_));
}

std::size_t SourceOp::emit_history(std::size_t budget) {
  std::size_t emitted = 0;
  while (emitted < budget && (cursor_ != nullptr || !history_.empty())) {
    if (cursor_ == nullptr) {
      cursor_ = std::make_unique<BatchCursor>(std::move(history_.front()));
      history_.pop_front();
    }
    BatchCursor& c = *cursor_;
    for (; c.key_valid() && emitted < budget; c.step_key()) {
      // History batches hold one (empty) val per row.
      for (; c.val_valid(); c.step_val()) {
        c.for_each_time([&](Timestamp t, Diff d) {
          if (!bounds_.admits(t)) return;
          out_.oks.push_back(Update{{}, Row(std::string(c.key())), std::max(t, bounds_.as_of), d});
          ++emitted;
        });
      }
    }
    if (!c.key_valid()) cursor_.reset();
  }
  return emitted;
}

std::size_t SourceOp::emit_chunks(std::size_t budget) {
  std::size_t emitted = 0;
  while (emitted < budget && !chunks_.empty()) {
    const std::vector<Update>& chunk = *chunks_.front();
    const std::size_t end = std::min(chunk.size(), chunk_pos_ + (budget - emitted));
    out_.oks.reserve(out_.oks.size() + (end - chunk_pos_));
    for (; chunk_pos_ < end; ++chunk_pos_, ++emitted) {
      const Update& u = chunk[chunk_pos_];
      if (!bounds_.admits(u.time)) continue;
      out_.oks.push_back(u);
      out_.oks.back().time = std::max(u.time, bounds_.as_of);
    }
    if (chunk_pos_ == chunk.size()) {
      chunks_.pop_front();
      chunk_pos_ = 0;
    }
  }
  return emitted;
}

ImportOp::ImportOp(ArrangeOp* exporter, TimeBounds bounds, bool keyed)
    : Operator("Import", 0),
      trace_(exporter->shared_trace()),
      feed_(std::make_shared<ArrangementFeed>()),
      bounds_(bounds),
      keyed_(keyed) {
  for (const BatchPtr& b : trace_->spine().batches()) emit(b, false);
  if (const auto& errs = exporter->shared_errs_trace())
    for (const BatchPtr& b : errs->spine().batches()) emit(b, true);
  exporter->subscribe(feed_);
}

void ImportOp::emit(const BatchPtr& batch, bool errors) {
  scratch_.clear();
  append_batch_updates(batch, &scratch_);
  for (Update& u : scratch_) {
    if (!bounds_.admit(u)) continue;
    // Exported oks are (key, row); exported errors are (error row, empty).
    if (errors) {
      out_.errs.push_back(Update{{}, std::move(u.key), u.time, u.diff});
    } else if (!keyed_) {
      out_.oks.push_back(Update{{}, std::move(u.val), u.time, u.diff});
    } else if (!row_has_null(u.key.ref())) {  // SQL equality: a NULL key joins nothing
      out_.oks.push_back(std::move(u));
    }
  }
}

void ImportOp::step() {
  for (const BatchPtr& b : feed_->oks) emit(b, false);
  for (const BatchPtr& b : feed_->errs) emit(b, true);
  feed_->oks.clear();
  feed_->errs.clear();
  advance_frontier(bounds_.frontier(trace_->upper()));
}

}  // namespace tandem::compute
