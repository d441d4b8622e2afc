// Batcher: accumulates unsorted updates and seals them into batches.
//
// push() buffers (key, val, time, diff) in any order. seal(upper) takes the
// buffered updates with time < upper, sorts them by (key, val, time),
// consolidates them (sums diffs of equal (key, val, time), drops zeros) and
// builds a batch with Description{lower, upper, since}, where lower is the
// previous seal's upper (or the constructor's lower). Updates at times >=
// upper stay buffered for a later seal.
//
// REQUIRES: pushed times are >= lower() (the current lower); upper passed to
// seal is >= lower(). A seal with since > time advances those times to since
// before consolidating.
//
// Performance: updates are kept as fixed-size index records over one byte
// arena (no per-update allocation). Sorting is an MSD radix sort on 16 bytes
// of (key, val) prefix held as two integers in each record, finished by
// comparison sorts of small or tied ranges; it touches the arena only when
// those prefixes tie (keys longer than 16 bytes sharing them, or equal keys
// of up to 8 bytes whose vals share 8 bytes, or equal longer keys). Input
// already in order is detected in one pass.
//
// Threading: single-threaded (owned by the arrange operator's worker).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compute/arrangement/batch.hpp"

namespace tandem::compute {

class Batcher {
 public:
  explicit Batcher(Timestamp lower = kMinTimestamp) : lower_(lower) {}

  void push(std::string_view key, std::string_view val, Timestamp time, Diff diff);
  // Capacity for `updates` more pushes of `bytes` key and val bytes in all.
  void reserve(std::size_t updates, std::size_t bytes);

  BatchPtr seal(Timestamp upper, Timestamp since = kMinTimestamp);

  Timestamp lower() const { return lower_; }
  std::uint64_t buffered() const { return records_.size(); }
  // Least buffered time, or kMaxTimestamp if nothing is buffered.
  Timestamp least_buffered_time() const;

  // A buffered update: bytes [offset, offset + key_len) are the key and the
  // val follows. p0 is the key's bytes [0, 8) and p1 the key's bytes [8, 16)
  // if the key is longer than 8 bytes, else the val's bytes [0, 8); each
  // big-endian and zero-padded, so integer order on them agrees with memcmp
  // order up to that length.
  struct Record {
    std::uint64_t p0;
    std::uint64_t p1;
    std::uint64_t offset;
    std::uint32_t key_len;
    std::uint32_t val_len;
    Timestamp time;
    Diff diff;
  };

 private:
  std::string arena_;
  std::vector<Record> records_;
  Timestamp lower_;
};

}  // namespace tandem::compute
