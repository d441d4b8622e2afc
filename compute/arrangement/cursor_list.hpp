// CursorList: one cursor over the union of several batches (a trace or a
// snapshot of one), differential's CursorList.
//
// It presents the same navigation as BatchCursor (see cursor.hpp for the
// position model and REQUIRES) over the merged key and val order of its
// batches: each distinct key once, each distinct val under it once.
// for_each_time reports the updates of the current (key, val) batch by batch:
// times ascend within one batch but not across batches, and the same time may
// be reported more than once. Sum the diffs (as for_each_as_of does) rather
// than relying on order.
//
// Threading: one thread at a time; the batches are held by reference count,
// so a list built from a published snapshot stays valid while the trace's
// owner keeps inserting and merging.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "compute/arrangement/cursor.hpp"

namespace tandem::compute {

class CursorList {
 public:
  explicit CursorList(const std::vector<BatchPtr>& batches);

  bool key_valid() const { return !min_key_.empty(); }
  std::string_view key() const { return cursors_[min_key_.front()].key(); }
  void step_key();
  void seek_key(std::string_view target);
  void rewind_keys();

  bool val_valid() const { return !min_val_.empty(); }
  std::string_view val() const { return cursors_[min_val_.front()].val(); }
  void step_val();
  void seek_val(std::string_view target);
  void rewind_vals();

  template <typename Fn>
  void for_each_time(Fn&& fn) const {
    for (const std::uint32_t i : min_val_) cursors_[i].for_each_time(fn);
  }

 private:
  // Recompute the cursors positioned at the least key (resp. the least val
  // among those), after a move.
  void find_min_key();
  void find_min_val();

  std::vector<BatchCursor> cursors_;
  std::vector<std::uint32_t> min_key_;
  std::vector<std::uint32_t> min_val_;
};

// Reads the collection as of time `as_of`: for each (key, val) in ascending
// order, calls fn(key, val, diff) with the sum of the diffs at times <= as_of,
// skipping sums of zero. The answer is exact when as_of >= the since of every
// batch read (see description.hpp). Works with BatchCursor and CursorList.
template <typename Cursor, typename Fn>
void for_each_as_of(Cursor& cursor, Timestamp as_of, Fn&& fn) {
  for (; cursor.key_valid(); cursor.step_key()) {
    for (; cursor.val_valid(); cursor.step_val()) {
      Diff sum = 0;
      cursor.for_each_time([&](Timestamp time, Diff diff) {
        if (time <= as_of) sum += diff;
      });
      if (sum != 0) fn(cursor.key(), cursor.val(), sum);
    }
  }
}

}  // namespace tandem::compute
