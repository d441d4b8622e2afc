#pragma once
// Plain data exchanged with the shard store (storage/shard_store.hpp): the
// updates a table shard holds and the requests that append them. Values only;
// safe to move between threads.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/timestamp.hpp"

namespace tandem::storage {

// A shard is named by the catalog id of the collection it stores.
using ShardId = uint64_t;

// One change to a collection: `row` (common/row.hpp's encoding; opaque here)
// gains `diff` copies at `time`.
struct Update {
  std::string row;
  Timestamp time = 0;
  Diff diff = 0;

  friend bool operator==(const Update&, const Update&) = default;
};

// Appends `updates` to `shard` and seals it up to `new_upper`.
// REQUIRES (checked, an error otherwise): the shard's upper is exactly
// `expected_upper`, expected_upper < new_upper (or == for a no-op append
// without updates), and expected_upper <= time < new_upper for every update.
// An append without updates only advances the upper: that is how an idle
// table stays readable at "now".
struct ShardAppend {
  ShardAppend() = default;
  ShardAppend(ShardId shard, std::vector<Update> updates, Timestamp expected_upper, Timestamp new_upper)
      : shard(shard), updates(std::move(updates)), expected_upper(expected_upper), new_upper(new_upper) {}

  ShardId shard = 0;
  std::vector<Update> updates;
  Timestamp expected_upper = 0;
  Timestamp new_upper = 0;
  // Instead of `updates` (not both): updates all at `encoded_time`, already
  // encoded as one batch value (shard_codec.hpp's append_batch_entry, any
  // order, not necessarily consolidated: readers consolidate). Writers build
  // it off the committer's thread and skip a copy and a sort per row.
  std::string encoded;
  Timestamp encoded_time = 0;
  // Instead of `updates` and `encoded` (not both): a staged append's id
  // (ShardStore::begin_staged, non-zero), whose chunks become the updates at
  // `encoded_time`. The commit writes one small reference, not the rows.
  uint64_t staged = 0;
  // False: an append without updates whose advance of the upper need not
  // survive a crash (nothing is written for it; after a restart the shard's
  // upper may be back where its last stored append left it). Only for
  // shards whose owner re-seals them at boot above every time it used
  // before: the coordinator's table shards, whose uppers all advance with
  // every write. Appended rows rewrite a shard's record or imply its upper
  // by their keys (the store reads them at open: shard_codec.hpp), so the
  // upper a shard reopens at is above every update stored in it.
  bool durable_upper = true;
};

// What a listener (storage/shard_listener.hpp) delivers: every update with
// lower <= time < upper, sorted by (time, row), consolidated per time (no two
// entries share (time, row); no zero diffs). After it, the shard is sealed up
// to `upper`: the next batch starts there. `updates` may be empty when only
// the upper advanced.
struct ListenBatch {
  Timestamp lower = 0;
  Timestamp upper = 0;
  std::vector<Update> updates;
};

// A shard's frontiers: reads are exact at since <= t < upper.
struct ShardFrontiers {
  Timestamp since = 0;
  Timestamp upper = 0;
};

}  // namespace tandem::storage
