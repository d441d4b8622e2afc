#include "compute/dataflow/source_op.hpp"

namespace tandem::compute {

void SourceOp::step() {
  const Timestamp frontier = feed_->drain(&chunks_, &err_chunks_);
  auto admit_all = [&](std::vector<UpdateChunk>& chunks, std::vector<Update>& out) {
    std::size_t total = out.size();
    for (const UpdateChunk& c : chunks) total += c->size();
    out.reserve(total);
    for (const UpdateChunk& c : chunks) {
      for (const Update& u : *c) {
        if (!bounds_.admits(u.time)) continue;
        out.push_back(u);
        out.back().time = std::max(u.time, bounds_.as_of);
      }
    }
    chunks.clear();
  };
  admit_all(chunks_, out_.oks);
  admit_all(err_chunks_, out_.errs);
  advance_frontier(bounds_.frontier(frontier));
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
