#pragma once
// Internal to storage/shard_*.cpp: a mutation queued for ShardStore's
// committer and the state one group of them is validated against (see
// "Design" in storage/shard_store.hpp). A Request is owned by the queue, then
// by the committer thread; `done` is called exactly once, without store
// locks held.

#include <map>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "storage/shard_codec.hpp"
#include "storage/shard_store.hpp"
#include "storage/shard_types.hpp"

namespace tandem::storage {

// A shard as the requests validated so far in one group leave it.
struct PendingShard {
  bool exists = false;
  ShardFrontiers frontiers;
  uint64_t incarnation = 0;
  bool created = false;     // created by this group (a new ShardState)
  bool dropped = false;     // the pre-group shard is dropped by this group
  bool meta_dirty = false;  // its metadata record must be rewritten
  Timestamp base_time = 0;
  uint64_t appended_bytes = 0;    // by this group's appends
  uint64_t appended_batches = 0;
  uint64_t rewritten_bytes = 0;   // appended history this group's rewrite folded
  uint64_t rewritten_batches = 0;
  // The visible chunks and their bytes once the group is written (stored
  // with the metadata).
  uint64_t stored_batches = 0;
  uint64_t stored_bytes = 0;
  uint64_t unrecorded_appends = 0;  // ShardState::unrecorded_appends
};

struct ShardStore::Group {
  std::map<ShardId, PendingShard> shards;
  std::vector<ShardId> marked_dropping;  // to revert if the write fails
};

// 42704 for a shard that does not exist (or is being dropped).
Status no_shard(ShardId shard);
// 57P01: the store is shutting down.
Status shutting_down();

// A chunk a compaction rewrite writes at its since (kCompactedPart for the
// new base, kRunPart for a sorted run).
struct StagedChunk {
  uint8_t part = kCompactedPart;
  uint32_t chunk = 0;
  std::string value;
};

struct ShardStore::Request {
  // kStage: chunks of a rewrite in progress (invisible to readers);
  // kRewrite: its commit (see "Compaction" in shard_store.hpp); kSince:
  // stores every since raised in memory since its shard's last metadata
  // write.
  enum class Kind { kAppend, kAdvance, kCreate, kDrop, kStage, kRewrite, kSince };
  Kind kind = Kind::kAppend;
  std::vector<ShardAppend> appends;  // kAppend
  ShardId shard = 0;                 // kCreate, kDrop, kStage, kRewrite
  // kCreate: the initial upper; kAdvance: the new upper; kStage, kRewrite:
  // the since below which the rewrite replaces the shard's history.
  Timestamp time = 0;
  uint64_t incarnation = 0;         // kStage, kRewrite: the shard's
  std::vector<StagedChunk> chunks;  // kStage, kRewrite: chunks to put
  // kRewrite: the appended bytes and batches below `time` it folds into the
  // base (the rewrite policy's counters drop by them).
  uint64_t folded_bytes = 0;
  uint64_t folded_batches = 0;
  // kRewrite: the visible chunks (and bytes) it deletes, and those of the
  // new base it makes visible (the staged ones and `chunks`).
  uint64_t removed_batches = 0;
  uint64_t removed_bytes = 0;
  uint64_t base_batches = 0;
  uint64_t base_bytes = 0;
  // kStage, kRewrite: keys of the shards family deleted by the commit
  // (storage/key_delete.hpp: point deletes, never a range tombstone).
  std::vector<std::string> deleted_keys;
  Done done;
  Status result;  // set by validation, then by the write
};

}  // namespace tandem::storage
