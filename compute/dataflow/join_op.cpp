#include "compute/dataflow/join_op.hpp"

#include <algorithm>

namespace tandem::compute {

std::vector<Update> take_before(std::vector<Update>& pending, Timestamp bound) {
  std::vector<Update> taken;
  auto split = std::partition(pending.begin(), pending.end(), [&](const Update& u) { return u.time >= bound; });
  taken.reserve(static_cast<std::size_t>(pending.end() - split));
  for (auto it = split; it != pending.end(); ++it) taken.push_back(std::move(*it));
  pending.erase(split, pending.end());
  std::sort(taken.begin(), taken.end(),
            [](const Update& a, const Update& b) { return a.key.bytes() < b.key.bytes(); });
  return taken;
}

JoinOp::JoinOp(TraceHandle lhs, TraceHandle rhs, TimeBounds bounds)
    : Operator("Join", 2), lhs_hold_(std::move(lhs)), rhs_hold_(std::move(rhs)), bounds_(bounds) {}

void JoinOp::collect_matches(DeltaWork& work) {
  work.matches.clear();
  work.matched = true;
  const std::string_view key = work.delta[work.group].key.bytes();
  CursorList& cursor = *work.cursor;
  cursor.seek_key(key);
  if (!cursor.key_valid() || cursor.key() != key) return;
  for (; cursor.val_valid(); cursor.step_val()) {
    const std::string_view val = cursor.val();
    cursor.for_each_time([&](Timestamp t, Diff d) {
      t = std::max(t, bounds_.as_of);
      if (t < work.bound && bounds_.admits(t)) work.matches.emplace_back(val, t, d);
    });
  }
}

bool JoinOp::join_delta(DeltaWork& work, const TraceHandle& trace, std::int64_t& fuel) {
  std::vector<Update>& delta = work.delta;
  if (delta.empty()) return true;
  if (!work.snapshot) {
    work.snapshot = trace.snapshot();
    work.cursor = std::make_unique<CursorList>(work.snapshot->batches);
  }
  while (work.group < delta.size()) {
    if (!work.matched) collect_matches(work);
    std::size_t end = work.next;
    while (end < delta.size() && delta[end].key == delta[work.group].key) ++end;
    for (; work.next < end; ++work.next) {
      if (fuel <= 0) return false;
      const Update& u = delta[work.next];
      for (const auto& [val, t, d] : work.matches) {
        Row row = work.delta_is_lhs ? concat_rows(u.val, RowRef(val)) : concat_rows(RowRef(val), u.val);
        out_.oks.push_back(Update{{}, std::move(row), std::max(u.time, t), u.diff * d});
      }
      fuel -= static_cast<std::int64_t>(std::max<std::size_t>(work.matches.size(), 1));
    }
    work.group = end;
    work.matched = false;
  }
  return true;
}

void JoinOp::step() {
  forward_errors();
  if (!working_) {
    const Timestamp j1 = least_input_frontier();
    if (j1 <= done_) return;
    lhs_work_ = DeltaWork{};
    lhs_work_.delta = take_before(inputs_[0].pending.oks, j1);
    lhs_work_.bound = j1;
    lhs_work_.delta_is_lhs = true;
    rhs_work_ = DeltaWork{};
    rhs_work_.delta = take_before(inputs_[1].pending.oks, j1);
    rhs_work_.bound = done_;
    rhs_work_.delta_is_lhs = false;
    target_ = j1;
    working_ = true;
  }
  std::int64_t fuel = fuel_;
  if (!join_delta(lhs_work_, rhs_hold_, fuel)) return;
  if (!join_delta(rhs_work_, lhs_hold_, fuel)) return;
  working_ = false;
  lhs_work_ = DeltaWork{};  // frees the deltas and releases the snapshots
  rhs_work_ = DeltaWork{};
  const Timestamp j1 = target_;
  done_ = j1;
  if (j1 != kMaxTimestamp) {
    lhs_hold_.set_logical_compaction(j1 - 1);
    rhs_hold_.set_logical_compaction(j1 - 1);
  }
  advance_frontier(j1);
}

}  // namespace tandem::compute
