// BatchColumns: a read-only view of a batch's columnar arrays.
//
// Layout (three nested levels, each an offsets array into the next):
//   keys     key_count distinct keys, ascending by unsigned-byte (memcmp)
//            order. Key i is key_bytes[key_offsets[i] .. key_offsets[i+1]).
//            Its vals are val indices [key_vals[i], key_vals[i+1]).
//   vals     val_count entries; within one key, distinct and ascending.
//            Val j is val_bytes[val_offsets[j] .. val_offsets[j+1]).
//            Its updates are indices [val_updates[j], val_updates[j+1]).
//   updates  update_count (time, diff) pairs; within one (key, val), times
//            strictly ascending and no diff is zero (consolidated).
// Every key has at least one val and every val at least one update. The
// offsets arrays have count+1 entries and start at 0.
// An offsets array that is an arithmetic progression (every key or val of
// the same byte length, every key with one val, every val with one update:
// the usual shape of an index on fixed-width columns) is stored as its
// stride alone (see Offsets); readers index it the same way.
//
// A BatchColumns is a borrowed view: it is valid only while the PinnedColumns
// that produced it (and the batch) are alive. Plain data, no synchronisation;
// the arrays are immutable, so any number of threads may read one view.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "compute/arrangement/time.hpp"

namespace tandem::compute {

// An offsets array: explicit entries, or (when `entries` is null) entry i
// is i * stride.
struct Offsets {
  const std::uint64_t* entries = nullptr;
  std::uint64_t stride = 0;
  std::uint64_t operator[](std::uint64_t i) const { return entries != nullptr ? entries[i] : i * stride; }
};

struct BatchColumns {
  std::uint64_t key_count = 0;
  std::uint64_t val_count = 0;
  std::uint64_t update_count = 0;

  Offsets key_offsets;  // key_count + 1
  const char* key_bytes = nullptr;
  Offsets key_vals;     // key_count + 1
  Offsets val_offsets;  // val_count + 1
  const char* val_bytes = nullptr;
  Offsets val_updates;  // val_count + 1
  const Timestamp* times = nullptr;            // update_count
  const Diff* diffs = nullptr;                 // update_count

  std::string_view key(std::uint64_t i) const {
    return {key_bytes + key_offsets[i], key_offsets[i + 1] - key_offsets[i]};
  }
  std::string_view val(std::uint64_t j) const {
    return {val_bytes + val_offsets[j], val_offsets[j + 1] - val_offsets[j]};
  }
};

// A view plus whatever keeps its memory resident. In-memory storage needs no
// pin (the batch owns the arrays); spilled storage returns the block-cache
// entries it paged in, released when the last copy of `pin` goes away.
struct PinnedColumns {
  BatchColumns columns;
  std::shared_ptr<const void> pin;
};

}  // namespace tandem::compute
