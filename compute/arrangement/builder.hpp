// BatchBuilder: builds a Batch from input that is already sorted and
// consolidated.
//
// Input is pushed in three nested levels: push_key, then for that key one or
// more push_val, then for each val one or more push_update. A key or val that
// receives no update is dropped (so callers that consolidate on the fly, like
// the merger, may open a val whose updates cancel out).
//
// REQUIRES (asserted in debug builds):
//   * keys strictly ascending by memcmp order across push_key calls;
//   * vals strictly ascending within a key;
//   * times strictly ascending within a (key, val), diffs nonzero;
//   * every update time is valid for the description passed to done().
// The builder copies key and val bytes, so the views need only live for the
// duration of the call.
//
// Threading: single-threaded; the finished batch is immutable and shareable.
#pragma once

#include <cassert>
#include <cstdint>
#include <string_view>

#include "compute/arrangement/batch.hpp"
#include "compute/arrangement/memory_batch_storage.hpp"

namespace tandem::compute {

class BatchBuilder {
 public:
  BatchBuilder() = default;

  // Capacity hints; optional.
  void reserve(std::uint64_t keys, std::uint64_t key_bytes, std::uint64_t vals,
               std::uint64_t val_bytes, std::uint64_t updates);

  void push_key(std::string_view key);
  void push_val(std::string_view val);
  void push_update(Timestamp time, Diff diff) {
    assert(diff != 0);
    columns_.times.push_back(time);
    columns_.diffs.push_back(diff);
  }

  // Convenience for flat input sorted by (key, val, time): compares against
  // the previous key and val to find level changes.
  void push(std::string_view key, std::string_view val, Timestamp time, Diff diff);

  std::uint64_t update_count() const { return columns_.times.size(); }

  // Seals the batch. The builder is left empty and reusable.
  BatchPtr done(Description description);

 private:
  void close_val();
  void close_key();
  std::string_view open_key() const;
  std::string_view open_val() const;

  MemoryColumns columns_;
  bool key_open_ = false;
  bool val_open_ = false;
};

}  // namespace tandem::compute
