#include "compute/arrangement/cursor.hpp"

#include <utility>

namespace tandem::compute {

namespace {

// First index in [lo, hi) whose element is >= target, galloping from lo:
// cost is logarithmic in the distance moved, so a sequence of nearby seeks
// (the common case in joins) stays cheap.
template <typename Get>
std::uint64_t gallop(std::uint64_t lo, std::uint64_t hi, std::string_view target, Get&& get) {
  if (lo >= hi || get(lo) >= target) return lo;
  // Invariant: get(lo) < target.
  std::uint64_t step = 1;
  while (lo + step < hi && get(lo + step) < target) {
    lo += step;
    step <<= 1;
  }
  std::uint64_t end = lo + step < hi ? lo + step : hi;
  // get(lo) < target, and end == hi or get(end) >= target.
  while (lo + 1 < end) {
    const std::uint64_t mid = lo + (end - lo) / 2;
    if (get(mid) < target) {
      lo = mid;
    } else {
      end = mid;
    }
  }
  return end;
}

}  // namespace

BatchCursor::BatchCursor(BatchPtr batch)
    : batch_(std::move(batch)), source_(batch_->source()), block_count_(source_->block_count()) {
  if (block_count_ > 0) load_block(0);
  rewind_vals();
}

void BatchCursor::load_block(std::size_t b) {
  block_ = b;
  pinned_ = source_->pin_block(b);
  cols_ = pinned_.columns;
  key_ = 0;
}

void BatchCursor::seek_key(std::string_view target) {
  if (!key_valid()) return;
  if (block_count_ > 1 && target > source_->last_key(block_)) {
    // The first later block whose last key reaches the target holds it.
    std::size_t lo = block_ + 1, hi = block_count_;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (source_->last_key(mid) < target) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo == block_count_) {
      key_ = cols_.key_count;
      rewind_vals();
      return;
    }
    load_block(lo);
    rewind_vals();
  }
  const std::uint64_t found =
      gallop(key_, cols_.key_count, target, [this](std::uint64_t i) { return cols_.key(i); });
  if (found != key_) {
    key_ = found;
    rewind_vals();
  }
}

void BatchCursor::seek_val(std::string_view target) {
  val_ = gallop(val_, val_end_, target, [this](std::uint64_t j) { return cols_.val(j); });
}

}  // namespace tandem::compute
