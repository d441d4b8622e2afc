#include "compute/dataflow/group_op.hpp"

#include <algorithm>


namespace tandem::compute {
namespace {

using RowDiffs = std::vector<std::pair<Row, Diff>>;

void sort_unique(std::vector<Timestamp>& times) {
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
}

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
      hold_(input->trace().handle()),
      feed_(std::make_shared<ArrangementFeed>()) {
  input->subscribe(feed_);
}

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

void GroupOp::process_group(CursorList& contents, const std::string& key, const std::vector<Timestamp>& times) {
  static const GroupResult kEmpty;
  const RowRef key_row(key);
  contents.seek_key(key);
  const bool found = contents.key_valid() && contents.key() == key;
  if (recompute_previous_) {
    group_.clear();
    if (found) read_group(contents, [&](Timestamp ut) { return ut < times.front(); });
    compute(key_row);
    std::swap(previous_, result_);
  }
  for (const Timestamp t : times) {
    group_.clear();
    if (found) read_group(contents, [&](Timestamp ut) { return ut <= t; });
    compute(key_row);
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
}

void GroupOp::step() {
  forward_errors();
  inputs_[0].pending.oks.clear();  // the input emits nothing; its batches come through feed_
  std::size_t keys = 0;
  std::optional<CursorList> contents;
  while (!feed_->oks.empty()) {
    const BatchPtr& batch = feed_->oks.front();
    if (!walk_ && !batch->is_empty()) {
      walk_.emplace(batch);
      contents.reset();  // a cursor seeks forward only: each batch walks its own
    }
    if (walk_ && walk_->key_valid() && !contents) contents.emplace(input_->trace().spine().batches());
    for (; walk_ && walk_->key_valid(); walk_->step_key()) {
      if (keys >= kKeysPerStep || out_.oks.size() >= kOutputPerStep) return;  // has_more()
      times_.clear();
      for (; walk_->val_valid(); walk_->step_val()) {
        walk_->for_each_time([&](Timestamp t, Diff) { times_.push_back(t); });
        if (times_.size() > 4096) sort_unique(times_);  // a key with many vals at few times
      }
      sort_unique(times_);
      process_group(*contents, std::string(walk_->key()), times_);
      ++keys;
    }
    done_ = std::max(done_, batch->description().upper);
    walk_.reset();
    feed_->oks.erase(feed_->oks.begin());
  }
  feed_->errs.clear();
  // Reading as of done_ - 1 next step (recompute_previous_) needs the hold there.
  if (done_ != kMaxTimestamp) hold_.set_logical_compaction(recompute_previous_ && done_ > 0 ? done_ - 1 : done_);
  advance_frontier(done_);
}

}  // namespace tandem::compute
