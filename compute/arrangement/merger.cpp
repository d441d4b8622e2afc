#include "compute/arrangement/merger.hpp"

#include <algorithm>
#include <cassert>
#include <limits>
#include <utility>

namespace tandem::compute {

Merger::Merger(BatchPtr older, BatchPtr newer, Timestamp since)
    : older_(std::move(older)), newer_(std::move(newer)) {
  assert(older_->upper() == newer_->lower());
  description_ = Description{older_->lower(), newer_->upper(),
                             std::max({since, older_->since(), newer_->since()})};
  // Stored times of a batch are >= its lower and >= its since, so when the
  // other input is empty and `since` advances nothing, the columns are reused.
  if (older_->is_empty() || newer_->is_empty()) {
    const BatchPtr& full = older_->is_empty() ? newer_ : older_;
    if (full->is_empty()) {
      result_ = Batch::empty(description_);
    } else if (since <= std::max(full->lower(), full->since())) {
      result_ = full->with_description(description_);
    }
    if (result_ != nullptr) {
      done_ = true;
      return;
    }
  }
  in_a_.open(*older_);
  in_b_.open(*newer_);
  // Byte sizes are known without paging only for single-block inputs.
  auto bytes = [](const Input& in, auto get) -> std::uint64_t {
    return in.source->block_count() == 1 ? get(in.pinned.columns) : 0;
  };
  const auto key_bytes = [](const BatchColumns& c) { return c.key_offsets[c.key_count]; };
  const auto val_bytes = [](const BatchColumns& c) { return c.val_offsets[c.val_count]; };
  builder_.reserve(older_->key_count() + newer_->key_count(),
                   bytes(in_a_, key_bytes) + bytes(in_b_, key_bytes),
                   older_->val_count() + newer_->val_count(),
                   bytes(in_a_, val_bytes) + bytes(in_b_, val_bytes),
                   older_->update_count() + newer_->update_count());
  // The description's since is the max, but times advance only to the
  // requested since: each input already advanced its times to its own since.
  since_ = since;
}

BatchPtr Merger::finish() {
  assert(done_);
  return std::move(result_);
}

std::uint64_t Merger::merge_val(const BatchColumns* a, std::uint64_t va, const BatchColumns* b,
                                std::uint64_t vb) {
  builder_.push_val(a != nullptr ? a->val(va) : b->val(vb));
  std::uint64_t ia = 0, ea = 0, ib = 0, eb = 0;
  if (a != nullptr) {
    ia = a->val_updates[va];
    ea = a->val_updates[va + 1];
  }
  if (b != nullptr) {
    ib = b->val_updates[vb];
    eb = b->val_updates[vb + 1];
  }
  const std::uint64_t used = (ea - ia) + (eb - ib);

  // Times <= since all become since: one consolidated update.
  Diff low = 0;
  for (; ia < ea && a->times[ia] <= since_; ++ia) low += a->diffs[ia];
  for (; ib < eb && b->times[ib] <= since_; ++ib) low += b->diffs[ib];
  if (low != 0) builder_.push_update(since_, low);

  // The rest keep their times; merge the two ascending runs.
  while (ia < ea && ib < eb) {
    const Timestamp ta = a->times[ia];
    const Timestamp tb = b->times[ib];
    if (ta < tb) {
      builder_.push_update(ta, a->diffs[ia++]);
    } else if (tb < ta) {
      builder_.push_update(tb, b->diffs[ib++]);
    } else {
      const Diff sum = a->diffs[ia++] + b->diffs[ib++];
      if (sum != 0) builder_.push_update(ta, sum);
    }
  }
  for (; ia < ea; ++ia) builder_.push_update(a->times[ia], a->diffs[ia]);
  for (; ib < eb; ++ib) builder_.push_update(b->times[ib], b->diffs[ib]);
  return used;
}

void Merger::work(std::int64_t& fuel) {
  if (done_) return;
  // References to the members: they follow a side to its next block.
  const BatchColumns& a = in_a_.pinned.columns;
  const BatchColumns& b = in_b_.pinned.columns;
  auto step_a = [&] {
    if (++va_ == a.key_vals[ka_ + 1]) {
      ++ka_;
      key_a_open_ = false;
      key_cmp_valid_ = false;
      if (ka_ == a.key_count && in_a_.next_block()) ka_ = va_ = 0;
    }
  };
  auto step_b = [&] {
    if (++vb_ == b.key_vals[kb_ + 1]) {
      ++kb_;
      key_b_open_ = false;
      key_cmp_valid_ = false;
      if (kb_ == b.key_count && in_b_.next_block()) kb_ = vb_ = 0;
    }
  };
  auto exhausted = [&] {
    if (ka_ < a.key_count || kb_ < b.key_count) return false;
    result_ = builder_.done(description_);
    done_ = true;
    return true;
  };
  while (fuel > 0 && !exhausted()) {
    const bool a_live = ka_ < a.key_count;
    const bool b_live = kb_ < b.key_count;
    int c;
    if (!a_live) {
      c = 1;
    } else if (!b_live) {
      c = -1;
    } else {
      if (!key_cmp_valid_) {
        key_cmp_ = a.key(ka_).compare(b.key(kb_));
        key_cmp_valid_ = true;
      }
      c = key_cmp_;
    }
    std::uint64_t used;
    if (c < 0) {
      if (!key_a_open_) builder_.push_key(a.key(ka_));
      key_a_open_ = true;
      used = merge_val(&a, va_, nullptr, 0);
      step_a();
    } else if (c > 0) {
      if (!key_b_open_) builder_.push_key(b.key(kb_));
      key_b_open_ = true;
      used = merge_val(nullptr, 0, &b, vb_);
      step_b();
    } else {
      if (!key_a_open_ && !key_b_open_) builder_.push_key(a.key(ka_));
      key_a_open_ = key_b_open_ = true;
      const int v = a.val(va_).compare(b.val(vb_));
      if (v < 0) {
        used = merge_val(&a, va_, nullptr, 0);
        step_a();
      } else if (v > 0) {
        used = merge_val(nullptr, 0, &b, vb_);
        step_b();
      } else {
        used = merge_val(&a, va_, &b, vb_);
        step_a();
        step_b();
      }
    }
    processed_ += used;
    fuel -= static_cast<std::int64_t>(used);
  }
  if (!done_) exhausted();
  if (done_) {
    in_a_ = Input{};
    in_b_ = Input{};
  }
}

BatchPtr merge_now(BatchPtr older, BatchPtr newer, Timestamp since) {
  Merger merger(std::move(older), std::move(newer), since);
  std::int64_t fuel = std::numeric_limits<std::int64_t>::max();
  merger.work(fuel);
  return merger.finish();
}

void append_merging(std::vector<BatchPtr>& batches, BatchPtr batch) {
  batches.push_back(std::move(batch));
  while (batches.size() >= 2 && 2 * batches.back()->update_count() >= batches[batches.size() - 2]->update_count()) {
    BatchPtr newer = std::move(batches.back());
    batches.pop_back();
    batches.back() = merge_now(std::move(batches.back()), std::move(newer), kMinTimestamp);
  }
}

}  // namespace tandem::compute
