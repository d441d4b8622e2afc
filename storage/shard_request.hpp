#pragma once
// A mutation queued for ShardStore's committer (internal to shard_store*.cpp;
// see "Design" in storage/shard_store.hpp). Owned by the queue, then by the
// committer thread; `done` is called exactly once, without store locks held.

#include <string>
#include <vector>

#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "storage/shard_store.hpp"
#include "storage/shard_types.hpp"

namespace tandem::storage {

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
