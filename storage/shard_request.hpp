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
};

struct ShardStore::Group {
  std::map<ShardId, PendingShard> shards;
  std::vector<ShardId> marked_dropping;  // to revert if the write fails
};

// 42704 for a shard that does not exist (or is being dropped).
Status no_shard(ShardId shard);
// 57P01: the store is shutting down.
Status shutting_down();

struct ShardStore::Request {
  enum class Kind { kAppend, kAdvance, kCreate, kDrop, kRewrite };
  Kind kind = Kind::kAppend;
  std::vector<ShardAppend> appends;  // kAppend
  ShardId shard = 0;                 // kCreate, kDrop, kRewrite
  // kCreate: the initial upper; kAdvance: the new upper; kRewrite: the since
  // below which `rewrite_batch` replaces the shard's history.
  Timestamp time = 0;
  uint64_t incarnation = 0;   // kRewrite: the shard it was computed for
  std::string rewrite_batch;  // kRewrite: consolidated history, may be empty
  Done done;
  Status result;  // set by validation, then by the write
};

}  // namespace tandem::storage
