// BatchCursor: navigation over one batch, key by key and val by val.
//
// Position model: the cursor is at a key (or past the last key), and within
// that key at a val (or past its last val). Keys and vals are visited in
// ascending unsigned-byte order. Moving to another key resets the val
// position to the key's first val.
//
// Contract (like RocksDB's Iterator): key()/step_key()/seek_val()/val calls
// REQUIRE key_valid(); val()/step_val()/for_each_time() REQUIRE val_valid().
// seek_key(k) moves forward to the first key >= k and never moves backward
// (a target below the current key leaves the cursor where it is); likewise
// seek_val within the current key. Views returned by key()/val() stay valid
// while the cursor is alive.
//
// Blocks: the cursor walks the batch's BlockSource (batch_storage.hpp) block
// by block, pinning one block at a time; seek_key skips blocks by their
// resident fences, so a lookup in a spilled batch pages in one block. A
// resident batch is one block and costs nothing extra.
//
// Threading: a cursor is used by one thread at a time. It holds a reference
// to its batch, its block source and a pin on its current block, so it stays
// valid even if the trace that published the batch merges it away or the
// batch is spilled meanwhile.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "compute/arrangement/batch.hpp"

namespace tandem::compute {

class BatchCursor {
 public:
  explicit BatchCursor(BatchPtr batch);

  const Batch& batch() const { return *batch_; }

  bool key_valid() const { return key_ < cols_.key_count; }
  std::string_view key() const { return cols_.key(key_); }
  void step_key() {
    if (++key_ == cols_.key_count && block_ + 1 < block_count_) load_block(block_ + 1);
    rewind_vals();
  }
  void seek_key(std::string_view target);
  void rewind_keys() {
    if (block_ != 0) load_block(0);
    key_ = 0;
    rewind_vals();
  }

  bool val_valid() const { return val_ < val_end_; }
  std::string_view val() const { return cols_.val(val_); }
  void step_val() { ++val_; }
  void seek_val(std::string_view target);
  void rewind_vals() {
    if (key_ < cols_.key_count) {
      val_ = cols_.key_vals[key_];
      val_end_ = cols_.key_vals[key_ + 1];
    } else {
      val_ = val_end_ = 0;
    }
  }

  // Calls fn(time, diff) for each update of the current (key, val), in
  // ascending time order.
  template <typename Fn>
  void for_each_time(Fn&& fn) const {
    const std::uint64_t end = cols_.val_updates[val_ + 1];
    for (std::uint64_t i = cols_.val_updates[val_]; i < end; ++i)
      fn(cols_.times[i], cols_.diffs[i]);
  }

 private:
  // Pins block b and moves to its first key.
  void load_block(std::size_t b);

  BatchPtr batch_;
  std::shared_ptr<const BlockSource> source_;
  std::size_t block_count_ = 0;
  std::size_t block_ = 0;
  PinnedColumns pinned_;
  BatchColumns cols_;  // copy of pinned_.columns, kept flat for the hot path
  std::uint64_t key_ = 0;
  std::uint64_t val_ = 0;
  std::uint64_t val_end_ = 0;
};

}  // namespace tandem::compute
