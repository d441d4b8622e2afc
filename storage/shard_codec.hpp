#pragma once
// The byte layout of table shards in RocksDB (storage/shard_store.hpp).
//
// `shards` family, one key per (shard, time, part, chunk):
//   key   = be64(shard) | be64(time) | u8(part) | be32(chunk)
//   value = a batch: repeated { varint(len(row)) | row | zigzag-varint(diff) }
// Big-endian integers make byte order = (shard, time) order, so a shard's
// history between two times is one bounded iterator range. `part` separates
// the writers that may put updates at the same time: appends write
// kAppendPart (a time belongs to exactly one append, since appends partition
// time by their [expected_upper, new_upper) ranges), and compaction writes the
// consolidated history below `since` at time `since` as kCompactedPart (the
// shard's *base*, sorted by row across its chunks) and its temporary sorted
// runs as kRunPart (never read by readers). An update batch is split into
// chunks of at most about kMaxChunkBytes (cut at entry boundaries), so no
// RocksDB value grows with a statement or a table. Keys written before
// chunks existed are 17 bytes (no chunk) and read as chunk 0.
//
// Staged appends (one large COPY, see "Staged appends" in
// storage/shard_store.hpp) keep their chunks at time staged_time(stage), a
// time with the top bit set that no upper ever reaches, as kStagedPart;
// while the append is pending, `meta` holds its marker key
// "staged/" | be64(shard) | be64(stage). Its commit deletes the marker and
// puts one kStagedRefPart key at the append's time whose value is
// be64(stage): readers then read the stage's chunks as that time's appended
// updates (shard_scan.hpp).
//
// `meta` family, one key per shard:
//   key   = "shard/" | be64(shard)
//   value = be64(upper) | be64(since) | be64(base_time)
//           | be64(stored_batches) | be64(stored_bytes)
// base_time is the time of the base written by the last committed
// compaction rewrite: kCompactedPart keys at later times belong to a rewrite
// in progress (or one a crash interrupted) and are invisible to readers
// (see "Compaction" in storage/shard_store.hpp). A 16-byte value (written
// before base_time existed) reads as base_time = since. stored_batches and
// stored_bytes count the keys (chunks) a reader visits and their value bytes
// (ShardStore::stored); a 16- or 24-byte value (written before they existed)
// reads as not counted, and the store counts the shard once when it opens.
// An append of rows whose last time is right below its new upper does not
// rewrite the record (one memtable insert per commit, not two): the
// kAppendPart keys at or above the stored upper are such appends, and the
// store adds them to the record's upper and counts when it opens.
// Threading: pure functions.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/timestamp.hpp"
#include "storage/shard_types.hpp"

namespace tandem::storage {

inline constexpr uint8_t kCompactedPart = 0;
inline constexpr uint8_t kAppendPart = 1;
inline constexpr uint8_t kRunPart = 2;
inline constexpr uint8_t kStagedRefPart = 3;
inline constexpr uint8_t kStagedPart = 4;
// Times at and above this bit hold staged chunks (never a real time).
inline constexpr Timestamp kStagedTimeBit = Timestamp{1} << 63;
inline constexpr std::string_view kStagedMarkerPrefix = "staged/";
inline constexpr std::string_view kShardMetaPrefix = "shard/";
// The encoded size at which a stored batch is cut into another chunk. A
// chunk is a RocksDB value, so a block of its own: every open iterator holds
// the block it is on in each sorted run (memtable, L0 file, level) it
// reads, and at 1 MiB the scans and the merges of a rewrite during a
// full-size hydration held 23-45 MiB of blocks (bench/HISTORY.md).
inline constexpr size_t kMaxChunkBytes = size_t{256} << 10;

std::string shard_data_key(ShardId shard, Timestamp time, uint8_t part, uint32_t chunk = 0);
// The least key of `shard` at `time` (an inclusive lower / exclusive upper
// iterator bound).
std::string shard_data_bound(ShardId shard, Timestamp time);
// The least key of `shard` at (`time`, `part`).
std::string shard_part_bound(ShardId shard, Timestamp time, uint8_t part);
// The least key past every key of `shard`.
std::string shard_data_end(ShardId shard);

// The key range of a stage's chunks: [first, second).
std::pair<std::string, std::string> staged_range(ShardId shard, uint64_t stage);
std::string staged_marker_key(ShardId shard, uint64_t stage);
// (shard, stage) of a marker key.
std::optional<std::pair<ShardId, uint64_t>> decode_staged_marker_key(std::string_view key);
std::string encode_staged_ref(uint64_t stage);
std::optional<uint64_t> decode_staged_ref(std::string_view value);

struct DataKey {
  ShardId shard = 0;
  Timestamp time = 0;
  uint8_t part = 0;
  uint32_t chunk = 0;
};
std::optional<DataKey> decode_shard_data_key(std::string_view key);

std::string shard_meta_key(ShardId shard);
std::optional<ShardId> decode_shard_meta_key(std::string_view key);

struct ShardMeta {
  ShardFrontiers frontiers;
  Timestamp base_time = 0;
  bool counted = true;  // false: an old record without the counts below
  uint64_t stored_batches = 0;
  uint64_t stored_bytes = 0;
};
std::string encode_shard_meta(const ShardMeta& meta);
std::optional<ShardMeta> decode_shard_meta(std::string_view value);

// Appends one (row, diff) entry to a batch value.
void append_batch_entry(std::string* batch, std::string_view row, Diff diff);
// Cuts an encoded batch at entry boundaries into pieces of at most about
// `max_bytes` (a piece exceeds it only by its last entry). Views into
// `batch`. Empty for an empty batch; on corruption the rest is one piece.
std::vector<std::string_view> split_batch(std::string_view batch, size_t max_bytes = kMaxChunkBytes);

// Walks a batch value. The views point into the value, which must outlive
// the reader.
class BatchReader {
 public:
  explicit BatchReader(std::string_view batch) : rest_(batch) {}
  // Returns false at the end or on corruption (then corrupt() is true).
  bool next(std::string_view* row, Diff* diff);
  bool corrupt() const { return corrupt_; }
  // Bytes not yet read.
  size_t remaining() const { return rest_.size(); }

 private:
  std::string_view rest_;
  bool corrupt_ = false;
};

}  // namespace tandem::storage
