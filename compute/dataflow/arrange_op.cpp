#include "compute/dataflow/arrange_op.hpp"

#include <algorithm>

#include "compute/arrangement/cursor.hpp"

namespace tandem::compute {

std::uint64_t ArrangeOp::held_bytes() const {
  std::uint64_t bytes = oks_->spine().memory_bytes() + oks_->spine().spilled_bytes() + oks_batcher_.held_bytes() +
                        errs_batcher_.held_bytes();
  if (errs_) bytes += errs_->spine().memory_bytes() + errs_->spine().spilled_bytes();
  return bytes;
}

void append_batch_updates(const BatchPtr& batch, std::vector<Update>* out) {
  if (batch->is_empty()) return;
  BatchCursor cursor(batch);
  for (; cursor.key_valid(); cursor.step_key()) {
    const Row key{std::string(cursor.key())};
    for (; cursor.val_valid(); cursor.step_val()) {
      const std::string_view val = cursor.val();
      cursor.for_each_time([&](Timestamp t, Diff d) { out->push_back(Update{key, Row(std::string(val)), t, d}); });
    }
  }
}

namespace {

std::shared_ptr<Trace> make_trace(std::shared_ptr<TracePublication> placeholder) {
  return placeholder ? std::make_shared<Trace>(std::move(placeholder)) : std::make_shared<Trace>();
}
}  // namespace

ArrangeOp::ArrangeOp(bool arrange_errors, bool emit_output, std::shared_ptr<TracePublication> oks_placeholder,
                     std::shared_ptr<TracePublication> errs_placeholder)
    : Operator("Arrange", 1), oks_(make_trace(std::move(oks_placeholder))), emit_output_(emit_output) {
  if (arrange_errors) errs_ = make_trace(std::move(errs_placeholder));
}

void ArrangeOp::step() {
  InputPort& in = inputs_[0];
  if (in.pending.oks.size() > 1024) {
    std::size_t bytes = 0;
    for (const Update& u : in.pending.oks) bytes += u.key.size() + u.val.size();
    oks_batcher_.reserve(in.pending.oks.size(), bytes);
  }
  for (const Update& u : in.pending.oks) oks_batcher_.push(u.key.bytes(), u.val.bytes(), u.time, u.diff);
  in.pending.oks.clear();
  if (errs_) {
    for (const Update& u : in.pending.errs) errs_batcher_.push(u.val.bytes(), {}, u.time, u.diff);
    in.pending.errs.clear();
  } else {
    forward_errors();
  }
  if (in.frontier <= oks_->upper()) return;
  BatchPtr oks = oks_batcher_.seal(in.frontier, oks_->since());
  BatchPtr errs;
  if (errs_) {
    errs = errs_batcher_.seal(in.frontier, errs_->since());
    errs_->insert(errs);
  }
  oks_->insert(oks);
  if (emit_output_) append_batch_updates(oks, &out_.oks);
  for (std::size_t i = 0; i < feeds_.size();) {
    if (auto feed = feeds_[i].lock()) {
      feed->oks.push_back(oks);
      if (errs) feed->errs.push_back(errs);
      ++i;
    } else {
      feeds_.erase(feeds_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  advance_frontier(in.frontier);
}

}  // namespace tandem::compute
