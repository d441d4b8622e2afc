#include "compute/dataflow/join_op.hpp"

#include <algorithm>
#include <tuple>

#include "compute/arrangement/cursor_list.hpp"

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

void JoinOp::join_delta(std::vector<Update>& delta, const TraceHandle& trace, Timestamp bound, bool delta_is_lhs) {
  if (delta.empty()) return;
  const std::shared_ptr<const TraceSnapshot> snapshot = trace.snapshot();
  CursorList cursor(snapshot->batches);
  std::vector<std::tuple<std::string_view, Timestamp, Diff>> matches;
  for (std::size_t i = 0; i < delta.size();) {
    std::size_t j = i;
    while (j < delta.size() && delta[j].key == delta[i].key) ++j;
    const std::string_view key = delta[i].key.bytes();
    cursor.seek_key(key);
    if (cursor.key_valid() && cursor.key() == key) {
      matches.clear();
      for (; cursor.val_valid(); cursor.step_val()) {
        const std::string_view val = cursor.val();
        cursor.for_each_time([&](Timestamp t, Diff d) {
          t = std::max(t, bounds_.as_of);
          if (t < bound && bounds_.admits(t)) matches.emplace_back(val, t, d);
        });
      }
      for (std::size_t k = i; k < j; ++k) {
        const Update& u = delta[k];
        for (const auto& [val, t, d] : matches) {
          Row row = delta_is_lhs ? concat_rows(u.val, RowRef(val)) : concat_rows(RowRef(val), u.val);
          out_.oks.push_back(Update{{}, std::move(row), std::max(u.time, t), u.diff * d});
        }
      }
    }
    i = j;
  }
}

void JoinOp::step() {
  forward_errors();
  const Timestamp j1 = least_input_frontier();
  if (j1 <= done_) return;
  std::vector<Update> d_lhs = take_before(inputs_[0].pending.oks, j1);
  std::vector<Update> d_rhs = take_before(inputs_[1].pending.oks, j1);
  join_delta(d_lhs, rhs_hold_, j1, /*delta_is_lhs=*/true);
  join_delta(d_rhs, lhs_hold_, done_, /*delta_is_lhs=*/false);
  done_ = j1;
  if (j1 != kMaxTimestamp) {
    lhs_hold_.set_logical_compaction(j1 - 1);
    rhs_hold_.set_logical_compaction(j1 - 1);
  }
  advance_frontier(j1);
}

}  // namespace tandem::compute
