#pragma once
// PeekStash: peek results kept in the `stash` column family instead of
// memory while a client reads them (DESIGN §6, issue 8 item 7). A result
// too large to hold (over compute_peek_response_stash_threshold_bytes) is
// written here once, in order, as blocks of rows; the memory that produced
// it is released; then it is read back block by block as the client asks,
// so the process holds one block of it at a time.
//
// Layout: key = be64(stash id) | be64(block number), value = a block in
// the shard batch format (shard_codec.hpp: varint(len) | row | diff 1),
// about kBlockBytes each. Writes skip the WAL and are never synced: a stash
// lives no longer than its statement, and what a crash leaves behind is
// discarded when the next process opens the stash.
//
// Lifetime: a StashedRows deletes its blocks (one range deletion) when it
// is destroyed: at the statement's end, on error, cancel or disconnect,
// whoever drops the result. PeekStash counts the live stashes, so "nothing
// is left behind" is observable (stats()).
//
// Threading: PeekStash is thread-safe. A StashedRows belongs to one thread
// at a time (the statement's); it keeps its PeekStash alive.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/row.hpp"
#include "common/status.hpp"

namespace tandem::storage {

class DurableStore;
class StashedRows;

class PeekStash : public std::enable_shared_from_this<PeekStash> {
 public:
  // Rows are written in blocks of about this many bytes.
  static constexpr std::size_t kBlockBytes = 64 * 1024;

  // Opens the stash of `store`, first discarding whatever it holds (what a
  // previous process left; stats().discarded counts its blocks). `store`
  // must outlive the stash and every StashedRows it made.
  static Result<std::shared_ptr<PeekStash>> open(DurableStore& store);
  // The blocks in `store`'s stash family now (a full scan of its keys).
  static Result<uint64_t> count_blocks(DurableStore& store);

  // A new, empty stash for one result.
  std::unique_ptr<StashedRows> begin();

  struct Stats {
    int64_t live = 0;        // stashes not yet deleted
    int64_t live_bytes = 0;  // rows' bytes in them
    int64_t created = 0;     // stashes ever begun by this process
    int64_t discarded = 0;   // blocks a previous process left, discarded at open
  };
  Stats stats() const;

 private:
  friend class StashedRows;
  explicit PeekStash(DurableStore& store) : store_(store) {}
  DurableStore& store_;
  std::atomic<uint64_t> next_id_{1};
  std::atomic<int64_t> live_{0};
  std::atomic<int64_t> live_bytes_{0};
  std::atomic<int64_t> created_{0};
  int64_t discarded_ = 0;
};

// One result's rows in the stash: appended in order, sealed, then read
// back in the same order.
class StashedRows {
 public:
  ~StashedRows();
  StashedRows(const StashedRows&) = delete;
  StashedRows& operator=(const StashedRows&) = delete;

  // ---- writing. REQUIRES: not sealed.
  Status append(const Row& row);
  // Writes the last partial block; reading may begin.
  Status seal();

  // ---- reading. REQUIRES: sealed.
  // The next rows in order, at most `max_rows` (0: the rest of the current
  // block); an empty vector once every row was returned.
  Result<std::vector<Row>> read(std::size_t max_rows);

  uint64_t id() const { return id_; }
  const std::shared_ptr<PeekStash>& stash() const { return stash_; }
  uint64_t rows() const { return rows_; }
  int64_t bytes() const { return bytes_; }

 private:
  friend class PeekStash;
  StashedRows(std::shared_ptr<PeekStash> stash, uint64_t id) : stash_(std::move(stash)), id_(id) {}
  Status write_block();
  Status load_block();

  std::shared_ptr<PeekStash> stash_;
  const uint64_t id_;
  uint64_t rows_ = 0;
  int64_t bytes_ = 0;
  bool sealed_ = false;
  // writing: the block being filled; reading: the block being returned
  std::string block_;
  uint64_t blocks_ = 0;      // blocks written
  uint64_t next_block_ = 0;  // next block to read
  std::vector<Row> loaded_;  // the current block's rows, not yet returned
  std::size_t loaded_pos_ = 0;
};

}  // namespace tandem::storage
