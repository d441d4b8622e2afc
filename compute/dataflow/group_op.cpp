#include "compute/dataflow/group_op.hpp"

#include <algorithm>

#include "compute/dataflow/join_op.hpp"

namespace tandem::compute {
namespace {

using RowDiffs = std::vector<std::pair<Row, Diff>>;

void sort_rows(RowDiffs& rows) {
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

// Emits after - before (both sorted) into *out at `time`.
void diff_sorted(const RowDiffs& before, const RowDiffs& after, Timestamp time, std::vector<Update>* out) {
  std::size_t i = 0, j = 0;
  while (i < before.size() || j < after.size()) {
    if (j == after.size() || (i < before.size() && before[i].first < after[j].first)) {
      out->push_back(Update{{}, before[i].first, time, -before[i].second});
      ++i;
    } else if (i == before.size() || after[j].first < before[i].first) {
      out->push_back(Update{{}, after[j].first, time, after[j].second});
      ++j;
    } else {
      if (after[j].second != before[i].second)
        out->push_back(Update{{}, after[j].first, time, after[j].second - before[i].second});
      ++i;
      ++j;
    }
  }
}

}  // namespace

GroupOp::GroupOp(std::string name, ArrangeOp* input, std::unique_ptr<GroupLogic> logic, bool recompute_previous)
    : Operator(std::move(name), 1),
      input_(input),
      logic_(std::move(logic)),
      recompute_previous_(recompute_previous),
      hold_(input->trace().handle()) {}

void GroupOp::emit_difference(const GroupResult& before, const GroupResult& after, Timestamp time) {
  diff_sorted(before.oks, after.oks, time, &out_.oks);
  diff_sorted(before.errs, after.errs, time, &out_.errs);
}

template <typename InTime>
void GroupOp::read_group(CursorList& cursor, InTime in_time) {
  group_.clear();
  cursor.rewind_vals();
  for (; cursor.val_valid(); cursor.step_val()) {
    Diff sum = 0;
    cursor.for_each_time([&](Timestamp ut, Diff d) {
      if (in_time(ut)) sum += d;
    });
    if (sum != 0) group_.emplace_back(cursor.val(), sum);
  }
}

void GroupOp::compute(RowRef key) {
  result_.clear();
  if (!group_.empty()) logic_->apply(key, group_, &result_);
  sort_rows(result_.oks);
  sort_rows(result_.errs);
}

void GroupOp::step() {
  forward_errors();
  const Timestamp f1 = inputs_[0].frontier;
  if (f1 <= done_) return;
  std::vector<Update> delta = take_before(inputs_[0].pending.oks, f1);
  if (!delta.empty()) {
    CursorList cursor(input_->trace().spine().batches());
    std::vector<Timestamp> times;
    static const GroupResult kEmpty;
    for (std::size_t i = 0; i < delta.size();) {
      std::size_t j = i;
      times.clear();
      while (j < delta.size() && delta[j].key == delta[i].key) times.push_back(delta[j++].time);
      std::sort(times.begin(), times.end());
      times.erase(std::unique(times.begin(), times.end()), times.end());
      const std::string key(delta[i].key.bytes());
      cursor.seek_key(key);
      const bool found = cursor.key_valid() && cursor.key() == key;
      if (recompute_previous_) {
        group_.clear();
        if (found) read_group(cursor, [&](Timestamp ut) { return ut < times.front(); });
        compute(delta[i].key);
        std::swap(previous_, result_);
      }
      for (const Timestamp t : times) {
        group_.clear();
        if (found) read_group(cursor, [&](Timestamp ut) { return ut <= t; });
        compute(delta[i].key);
        if (recompute_previous_) {
          emit_difference(previous_, result_, t);
          std::swap(previous_, result_);
          continue;
        }
        auto it = state_.find(key);
        emit_difference(it == state_.end() ? kEmpty : it->second, result_, t);
        if (result_.oks.empty() && result_.errs.empty()) {
          if (it != state_.end()) state_.erase(it);
        } else if (it == state_.end()) {
          state_.emplace(key, result_);
        } else {
          it->second = result_;
        }
      }
      i = j;
    }
  }
  done_ = f1;
  // Reading as of f1 - 1 next step (recompute_previous_) needs the hold there.
  if (f1 != kMaxTimestamp) hold_.set_logical_compaction(recompute_previous_ && f1 > 0 ? f1 - 1 : f1);
  advance_frontier(f1);
}

}  // namespace tandem::compute
