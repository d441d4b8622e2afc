#include "compute/dataflow/shared_import_op.hpp"

#include <cassert>

#include "compute/dataflow/arrange_op.hpp"

namespace tandem::compute {

SharedImportOp::SharedImportOp(TraceHandle oks, TraceHandle errs, TimeBounds bounds, bool keyed,
                               std::function<bool()> read_unsealed)
    : Operator("SharedImport", 0),
      oks_(std::move(oks)),
      errs_(std::move(errs)),
      bounds_(bounds),
      keyed_(keyed),
      read_unsealed_(std::move(read_unsealed)) {
  assert(bounds_.until.has_value());
}

void SharedImportOp::emit_errors(const TraceSnapshot& snapshot) {
  std::vector<Update> scratch;
  for (const BatchPtr& batch : snapshot.batches) {
    scratch.clear();
    append_batch_updates(batch, &scratch);
    for (Update& u : scratch) {
      // Exported errors are (error row, empty).
      if (bounds_.admit(u)) out_.errs.push_back(Update{{}, std::move(u.key), u.time, u.diff});
    }
  }
}

bool SharedImportOp::emit_chunk() {
  std::size_t emitted = 0;
  CursorList& c = *cursor_;
  for (; c.key_valid(); c.step_key()) {
    if (emitted >= kChunk) return false;
    const std::string_view key = c.key();
    // SQL equality: a NULL key joins nothing.
    if (keyed_ && row_has_null(RowRef(key))) continue;
    for (; c.val_valid(); c.step_val()) {
      const std::string_view val = c.val();
      c.for_each_time([&](Timestamp t, Diff d) {
        Update u{keyed_ ? Row(std::string(key)) : Row(), Row(std::string(val)), t, d};
        if (!bounds_.admit(u)) return;
        out_.oks.push_back(std::move(u));
        ++emitted;
      });
    }
  }
  return true;
}

void SharedImportOp::step() {
  if (done_) return;
  if (!cursor_) {
    auto oks = oks_.snapshot();
    auto errs = errs_.snapshot();
    const Timestamp until = *bounds_.until;
    const bool sealed = oks->upper >= until && errs->upper >= until;
    if (!sealed && !(read_unsealed_ && read_unsealed_())) return;
    emit_errors(*errs);
    // The errors were read once and for all.
    errs_.release();
    reading_ = std::move(oks);
    cursor_.emplace(reading_->batches);
  }
  if (!emit_chunk()) return;
  cursor_.reset();
  reading_.reset();
  done_ = true;
  // The data hold stays for a keyed import: the join reads the trace.
  advance_frontier(kMaxTimestamp);
}

}  // namespace tandem::compute
