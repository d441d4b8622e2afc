#pragma once
// The byte layout of table shards in RocksDB (storage/shard_store.hpp).
//
// `shards` family, one key per (shard, time, part):
//   key   = be64(shard) | be64(time) | u8(part)
//   value = a batch: repeated { varint(len(row)) | row | zigzag-varint(diff) }
// Big-endian integers make byte order = (shard, time) order, so a shard's
// history between two times is one bounded iterator range. `part` separates
// the two writers that may put updates at the same time: appends write
// kAppendPart (a time belongs to exactly one append, since appends partition
// time by their [expected_upper, new_upper) ranges), and compaction writes the
// consolidated history below `since` at time `since` as kCompactedPart.
//
// `meta` family, one key per shard:
//   key   = "shard/" | be64(shard)
//   value = be64(upper) | be64(since)
// Threading: pure functions.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/timestamp.hpp"
#include "storage/shard_types.hpp"

namespace tandem::storage {

inline constexpr uint8_t kCompactedPart = 0;
inline constexpr uint8_t kAppendPart = 1;
inline constexpr std::string_view kShardMetaPrefix = "shard/";

std::string shard_data_key(ShardId shard, Timestamp time, uint8_t part);
// The least key of `shard` at `time` (an inclusive lower / exclusive upper
// iterator bound).
inline std::string shard_data_bound(ShardId shard, Timestamp time) {
  return shard_data_key(shard, time, 0);
}
// The least key past every key of `shard`.
std::string shard_data_end(ShardId shard);

struct DataKey {
  ShardId shard = 0;
  Timestamp time = 0;
  uint8_t part = 0;
};
std::optional<DataKey> decode_shard_data_key(std::string_view key);

std::string shard_meta_key(ShardId shard);
std::optional<ShardId> decode_shard_meta_key(std::string_view key);
std::string encode_shard_meta(const ShardFrontiers& frontiers);
std::optional<ShardFrontiers> decode_shard_meta(std::string_view value);

// Appends one (row, diff) entry to a batch value.
void append_batch_entry(std::string* batch, std::string_view row, Diff diff);

// Walks a batch value. The views point into the value, which must outlive
// the reader.
class BatchReader {
 public:
  explicit BatchReader(std::string_view batch) : rest_(batch) {}
  // Returns false at the end or on corruption (then corrupt() is true).
  bool next(std::string_view* row, Diff* diff);
  bool corrupt() const { return corrupt_; }

 private:
  std::string_view rest_;
  bool corrupt_ = false;
};

}  // namespace tandem::storage
