#pragma once
// ShardStore: tables as durable shards (DESIGN.md §7), the storage layer's
// public face for the coordinator and compute (append, snapshot, listen,
// compact).
//
// Design
// ------
// A shard is an append-only log of updates (row, time, diff) with two
// frontiers: `upper`, the least time not yet written (everything at times
// < upper is durable and will never change), and `since`, the least time at
// which reads are exact (history before it may have been consolidated).
// Invariant: since <= upper. Reads are valid at since <= as_of < upper.
//
// Every mutation (append, upper advance, create, drop, and compaction's
// rewrite) is a request on one queue served by a dedicated *committer*
// thread. The committer takes everything queued, validates each request in
// queue order against the shard state as the earlier requests of the same
// group leave it, writes all valid requests as ONE RocksDB WriteBatch (with
// WriteOptions.sync = DurableStoreOptions::sync_writes: one fsync per group),
// then publishes the new uppers, wakes listeners and completes each request
// with its own Status. This is group commit: while one group is being
// fsynced, the next one accumulates, so N concurrent writers cost far fewer
// than N fsyncs; an invalid request fails alone and never fails the others.
// The committer is the only writer of the `shards` family and of shard
// metadata, which is what makes validate-then-write race free. The one
// exception keeps that property: an uncontended writer may claim the commit
// lane (try_lead) and commit its own request, as a group of one, on its own
// thread; while it holds the lane the committer waits, and it claims only
// when nothing is queued or committing, so groups stay in queue order.
//
// Ordering rules that keep reads exact without holding locks during I/O:
//  * upper is raised in memory only after the data below it is durable, so a
//    reader that saw upper > t finds every update at t in RocksDB;
//  * since is raised in memory BEFORE compaction rewrites the history below
//    it, and snapshot() takes its RocksDB snapshot under the same mutex that
//    guards its since check, so a read at as_of >= since never observes a
//    rewrite to a later since.
//
// Compaction: compact() only records a target. A background compaction
// thread (woken by a condition variable) advances since to
// min(target, upper, every live listener's as_of). Raising since alone
// changes no stored byte: a read at as_of >= since sums every update at
// times <= as_of whether or not it was consolidated. Since is monotonic
// across restarts: a rewrite's commit stores the since it rewrote to, and
// when the thread runs out of work after raising a since without a rewrite
// it stores every such since with one metadata-only request (kSince), so a
// since is durable one group commit after it was raised, once per round of
// compaction however many shards moved (the coordinator compacts once a
// second), and never on an append's path. The *rewrite* that
// reclaims space runs only when it pays (ShardCompactionOptions): when the
// bytes appended since the last rewrite reach the size of the base it
// wrote, so each byte is rewritten a bounded number of times, as in a
// spine's geometric merging. A rewrite streams, in bounded memory:
//  1. the updates below since (appends, unsorted) are cut into runs of at
//     most run_bytes, each sorted and consolidated in memory and, when there
//     is more than one, staged as kRunPart chunks at time since;
//  2. runs are merged fan_in at a time into longer runs until few remain;
//  3. the last merge joins the remaining runs with the current base (sorted
//     already) and stages the consolidated output as kCompactedPart chunks
//     at time since;
//  4. one final request deletes everything below since and the runs, and
//     records base_time = since in the shard's metadata.
// Each step is a request through the committer (so a concurrent drop wins
// cleanly). Readers ignore kRunPart keys and kCompactedPart keys at times
// above the base_time they read from the same RocksDB snapshot as the data,
// so until step 4 commits they see the old history, after it the new base:
// never both, never neither. A crash before step 4 leaves only invisible
// staged keys, which the next rewrite clears (a rewrite at the same since
// deletes them first; a later one deletes everything below its since).
//
// Staged appends (shard_staging.cpp): an append too large to hold in
// memory (one COPY of any size) is written before its time is known, in
// pieces, by its one owner: begin_staged() puts a pending marker in `meta`,
// stage() writes each piece as chunks at the stage's own key range (a time
// no scan reaches, shard_codec.hpp), both directly and unsynced (nothing
// reads them, so the committer's ordering is not needed; the WAL is
// sequential, so the commit's fsync makes them durable). The commit is an
// ordinary append naming the stage (ShardAppend::staged) through the
// committer: in its group's one WriteBatch it deletes the marker and puts a
// reference at the append's time, so readers see every staged update at
// that time, or none. abort_staged() deletes the chunks and the marker;
// open() does the same for every marker a crash left. Compaction reads a
// reference's chunks like appended ones and its commit deletes them with
// the history below since; a drop deletes them with the shard.
//
// Threading: every public method is thread-safe. append(), create_shard(),
// drop_shard(), advance_uppers() block until their group is durable;
// append_async() does not. The store must be destroyed before its
// DurableStore is closed. Listeners should be destroyed first; one that
// outlives the store becomes inert (see storage/shard_listener.hpp).
//
// Errors (SQLSTATE):
//   42704 undefined_object     the shard does not exist (or is being dropped)
//   42710 duplicate_object     create_shard of an existing shard
//   40001 serialization_failure  append whose expected_upper != the upper;
//                              the caller re-reads the upper and retries
//   XX000 internal_error       malformed append (time outside
//                              [expected_upper, new_upper), upper regression)
//   72000 snapshot_too_old     read at as_of < since (history compacted)
//   55000 object_not_in_prerequisite_state  read at as_of >= upper (not yet
//                              sealed: the caller must wait, e.g. listen)
//   58030 io_error             RocksDB failed; the request had no effect
//   XX001 data_corrupted       an undecodable stored batch
//   57P01 admin_shutdown       the store is shutting down

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "storage/durable_store.hpp"
#include "storage/shard_codec.hpp"
#include "storage/shard_types.hpp"

namespace rocksdb {
class WriteBatch;
}  // namespace rocksdb

namespace tandem::storage {

class ShardListener;
struct PendingShard;

// The write batch one stage's owner reuses for each of its pieces: a piece
// is copied into a batch of several MiB, and a fresh one per piece would be
// a fresh mapping to fault in and unmap each time (the malloc mmap
// threshold is fixed, frontend/server/process_memory.cpp).
class StageBuffer {
 public:
  StageBuffer();
  ~StageBuffer();
  StageBuffer(const StageBuffer&) = delete;
  StageBuffer& operator=(const StageBuffer&) = delete;

 private:
  friend class ShardStore;
  std::unique_ptr<rocksdb::WriteBatch> batch_;
};

struct ShardStoreStats {
  uint64_t write_batches = 0;  // RocksDB writes (one fsync each when syncing)
  uint64_t requests = 0;       // requests committed or rejected
  uint64_t compactions = 0;    // history rewrites committed
  uint64_t staged_chunks = 0;  // chunks rewrites wrote before their commit
  // The most bytes of updates one rewrite held in memory at once (its run
  // buffer, the chunk each merged cursor is on, the output chunk).
  uint64_t rewrite_peak_bytes = 0;
};

// When and how compaction rewrites a shard's history (see "Compaction").
struct ShardCompactionOptions {
  size_t chunk_bytes = kMaxChunkBytes;  // a staged chunk's size (about)
  size_t run_bytes = size_t{8} << 20;   // updates sorted in memory per run
  size_t fan_in = 8;                    // runs merged at once (>= 2)
  // A rewrite waits until the bytes appended since the last one reach
  // base_ratio times the base's size, and either minimum (0, 0 and 0:
  // rewrite whenever since moves).
  double base_ratio = 1.0;
  size_t min_rewrite_bytes = size_t{256} << 10;
  size_t min_rewrite_batches = 64;
};

// What a shard keeps in RocksDB (ShardStore::stored, storage_stats).
struct ShardStorage {
  ShardFrontiers frontiers;
  Timestamp base_time = 0;
  uint64_t stored_batches = 0;  // keys (chunks) a reader would visit
  uint64_t stored_bytes = 0;    // their value bytes
  uint64_t pending_chunks = 0;  // chunks of stages not committed
};

class ShardStore {
  struct Request;

 public:
  using Done = std::function<void(Status)>;

  // Loads shard metadata from `durable` and starts the committer and
  // compaction threads. `durable` must outlive the returned store.
  static Result<std::unique_ptr<ShardStore>> open(DurableStore& durable, ShardCompactionOptions options = {});
  // Completes queued requests, stops both threads and wakes blocked
  // listeners (their next() returns 57P01).
  ~ShardStore();
  ShardStore(const ShardStore&) = delete;
  ShardStore& operator=(const ShardStore&) = delete;

  // A new, empty shard with since = 0 and upper = initial_upper.
  Status create_shard(ShardId shard, Timestamp initial_upper);
  // Deletes the shard's metadata and all of its data. Its listeners' next()
  // returns 42704.
  Status drop_shard(ShardId shard);
  std::vector<ShardId> list_shards() const;
  Result<ShardFrontiers> frontiers(ShardId shard) const;
  Result<Timestamp> upper(ShardId shard) const;
  Result<Timestamp> since(ShardId shard) const;

  // Atomically applies every ShardAppend (see shard_types.hpp for the rules):
  // either all of them are written and their uppers advanced, or none is.
  // Returns once durable.
  Status append(std::vector<ShardAppend> appends);
  // As append(), but returns at once; `done` runs on the committer thread
  // after the commit, without store locks held. It must be quick (hand the
  // result to another thread) and must not wait on the store. The commit
  // lane stays held until every `done` of a group has returned, so the
  // callbacks of all requests (appended, led or queued) run one at a time,
  // in commit order (the coordinator's compute feed relies on it).
  void append_async(std::vector<ShardAppend> appends, Done done);
  // Runs `hook` on the committer thread after the `done` callbacks of each
  // group it commits, still holding the lane, without store locks: one call
  // per group where a caller would otherwise act per request (the
  // coordinator feeds compute once per group, without waking its own
  // thread). Not run for a Lead's commit. Set before the first request.
  void set_after_group(std::function<void()> hook) { after_group_ = std::move(hook); }
  // Inline group commit: the caller's thread commits its own request when
  // the commit lane is free, saving the committer's wakeup and the hop back
  // on an uncontended write. A Lead is a claim on the lane: while it is
  // held, every other request queues behind it, so commit order is the
  // order of claims and enqueues. Movable; destroying a claimed Lead runs it.
  class Lead {
   public:
    Lead();
    Lead(Lead&& other) noexcept;
    Lead& operator=(Lead&&) = delete;
    ~Lead();
    explicit operator bool() const { return store_ != nullptr; }
    // As append_async(), but committed by run(), on the thread that runs it.
    // At most one request per Lead.
    void append(std::vector<ShardAppend> appends, Done done);
    // Writes the claimed request (if any), runs its `done` on this thread
    // without store locks, and releases the lane to the committer.
    void run();

   private:
    friend class ShardStore;
    explicit Lead(ShardStore* store);
    ShardStore* store_ = nullptr;
    std::unique_ptr<Request> request_;
  };
  // Claims the lane if no request is queued or being committed (else an
  // empty Lead). Never blocks. The claim must be run() promptly.
  Lead try_lead();
  // Advances the upper of every shard whose upper is below `new_upper` to
  // `new_upper`, in one commit. The coordinator calls this after each write
  // and at least once a second, so that all tables stay readable at "now".
  Status advance_uppers(Timestamp new_upper);

  // The consolidated contents at `as_of`: for each row the sum of diffs of
  // its updates at times <= as_of; rows summing to zero are dropped; sorted
  // by row bytes. REQUIRES since <= as_of < upper (72000 / 55000 otherwise).
  Result<std::vector<std::pair<std::string, Diff>>> snapshot(ShardId shard,
                                                            Timestamp as_of) const;
  // The same contents streamed, for a shard larger than memory: calls
  // `visit(row, diff)` for every stored update at times <= as_of, in time
  // order and NOT consolidated (summing the diffs of each row gives
  // snapshot()), one stored batch in memory at a time. The view is valid
  // only during the call, which runs on the caller's thread without store
  // locks. Same REQUIRES and errors as snapshot().
  Status scan_snapshot(ShardId shard, Timestamp as_of,
                       const std::function<void(std::string_view, Diff)>& visit) const;
  // The contents at `as_of` followed by the history up to `until`, streamed
  // as scan_snapshot streams: `visit(time, row, diff)` for every stored
  // update at times < until, in time order and not consolidated, each at
  // max(time, as_of). REQUIRES since <= as_of < until <= upper (72000 /
  // 55000 otherwise).
  Status scan_history(ShardId shard, Timestamp as_of, Timestamp until,
                      const std::function<void(Timestamp, std::string_view, Diff)>& visit) const;

  // ---- staged appends (see "Staged appends" above) ----
  // A new pending stage of `shard` (its id, > 0), its marker written.
  // 42704 if the shard does not exist.
  Result<uint64_t> begin_staged(ShardId shard);
  // Writes `encoded` (a batch value, shard_codec.hpp) as the stage's next
  // chunks, through `buffer` (cleared first). One caller per stage at a
  // time. 42704 for an unknown stage.
  Status stage(ShardId shard, uint64_t stage, std::string_view encoded, StageBuffer& buffer);
  // Deletes a pending stage's chunks and marker (a no-op for an unknown or
  // committed stage).
  Status abort_staged(ShardId shard, uint64_t stage);
  // Calls `visit(row, diff)` for every update of a stage, pending or
  // committed and not yet compacted away, one chunk in memory at a time.
  Status scan_staged(ShardId shard, uint64_t stage, const std::function<void(std::string_view, Diff)>& visit) const;
  // Pending stages (begun, neither committed nor aborted).
  size_t pending_stages() const;

  // A listener that delivers every update at times > as_of, in time order,
  // each exactly once (see storage/shard_listener.hpp). While it lives it
  // holds the shard's since at or below the as_of of what it has delivered.
  // REQUIRES since <= as_of (72000 otherwise); as_of may be >= upper.
  Result<std::unique_ptr<ShardListener>> listen(ShardId shard, Timestamp as_of);

  // Asks for the shard's since to advance to `new_since` (a no-op if not
  // beyond the current target). The background compaction thread moves since
  // to min(target, upper, listener holds) and rewrites the history below it;
  // since never moves backwards. Returns at once.
  Status compact(ShardId shard, Timestamp new_since);
  // Blocks until the compaction thread has nothing left to do (every shard's
  // since reached its achievable target and the rewrites are durable).
  void wait_for_compaction();

  ShardStoreStats stats() const;
  // The shard's frontiers and what it stores, from counters kept with its
  // metadata (no I/O; for introspection): the chunks a reader visits and
  // their bytes, as of the last commit.
  Result<ShardStorage> stored(ShardId shard) const;
  // The same counted by a scan of the shard's keys and values at one
  // snapshot (tests check the counters against it).
  Result<ShardStorage> storage_stats(ShardId shard) const;

  // An append of rows ending right below its new upper leaves the shard's
  // record as it is (its keys imply the upper: shard_codec.hpp) unless it is
  // the kRecordEvery-th such append since the record was written.
  static constexpr uint64_t kRecordEvery = 256;

 private:
  friend class ShardListener;
  struct Group;
  struct ShardState {
    ShardFrontiers frontiers;
    Timestamp since_target = 0;
    uint64_t incarnation = 0;  // tells a re-created shard from its old self
    bool dropping = false;     // a drop is being committed: reads fail
    std::set<ShardListener*> listeners;
    Timestamp base_time = 0;  // as stored (shard_codec.hpp)
    // Since the last rewrite (or open): what appends added; and the size of
    // the base that rewrite wrote (0 when unknown).
    uint64_t appended_bytes = 0;
    uint64_t appended_batches = 0;
    uint64_t base_bytes = 0;
    // The visible chunks and their bytes, as stored with the metadata.
    uint64_t stored_batches = 0;
    uint64_t stored_bytes = 0;
    Timestamp stored_since = 0;  // the since in the stored metadata
    // Appends of rows since the stored record was written: it is rewritten
    // every kRecordEvery of them, so open() reads at most that many keys
    // past it (shard_codec.hpp).
    uint64_t unrecorded_appends = 0;
  };

  ShardStore(DurableStore& durable, ShardCompactionOptions options);

  // Staged appends (shard_staging.cpp). A stage begun and not yet
  // committed or aborted.
  struct Stage {
    uint64_t incarnation = 0;  // of its shard at begin_staged
    uint32_t chunks = 0;       // chunks written so far
    uint64_t bytes = 0;
  };
  // At open: deletes every stage a crash left pending and picks the next
  // stage id above every stored one.
  Status clear_pending_stages();
  // REQUIRES mutex_ held. Checks an append naming a stage against `p`.
  Status validate_staged(const ShardAppend& append, const PendingShard& p) const;
  // Puts the reference and deletes the marker of a validated staged append.
  void write_staged_commit(const ShardAppend& append, rocksdb::WriteBatch* batch);
  // REQUIRES mutex_ held, after the commit is durable: forgets the stage
  // `append` committed; returns its bytes (for the compaction policy).
  uint64_t settle_staged(const ShardAppend& append);

  void enqueue(std::unique_ptr<Request> request);
  Status submit(std::unique_ptr<Request> request);  // enqueue and wait
  void committer_loop();
  void commit_group(std::unique_lock<std::mutex>& lock);
  // REQUIRES mutex_ held (released during the write and the callbacks).
  // Validates, writes and completes `requests` as one group.
  void commit_requests(std::unique_lock<std::mutex>& lock, std::vector<std::unique_ptr<Request>>& requests);
  // REQUIRES mutex_ held. Checks `request` against the shards as the earlier
  // requests of `group` leave them and, if valid, records its effect there.
  Status validate(Request& request, Group& group);
  void compaction_loop();
  void compact_one(std::unique_lock<std::mutex>& lock, ShardId shard);
  // REQUIRES mutex_ held (released while the request commits). Stores every
  // shard's since that is ahead of its stored metadata (kSince).
  void store_sinces(std::unique_lock<std::mutex>& lock);
  // REQUIRES mutex_ held. Whether the history below since is worth rewriting.
  bool rewrite_due(const ShardState& state) const;
  // The streaming rewrite of the history below `since` (shard_rewrite.cpp),
  // on the compaction thread without mutex_; `base_bytes` gets the new
  // base's size.
  Status rewrite_history(ShardId shard, uint64_t incarnation, Timestamp since, Timestamp base_time,
                         uint64_t* base_bytes);

  // REQUIRES mutex_ held. The live (not dropping) state of a shard, or null.
  const ShardState* live_shard(ShardId shard) const;
  ShardState* live_shard(ShardId shard);
  // REQUIRES mutex_ held. The since compaction may reach now.
  Timestamp achievable_since(const ShardState& state) const;
  // REQUIRES mutex_ held. Queues the shard for the compaction thread if its
  // since can advance.
  void maybe_schedule_compaction(ShardId shard, const ShardState& state);
  // REQUIRES mutex_ held. Runs each listener's wakeup hook and cv.
  void notify_listeners(const ShardState& state);

  DurableStore& durable_;
  const ShardCompactionOptions compaction_options_;

  mutable std::mutex mutex_;
  std::map<ShardId, ShardState> shards_;
  // Every live listener, including those of dropped shards (they are
  // orphaned when the store is destroyed).
  std::set<ShardListener*> listeners_;
  uint64_t next_incarnation_ = 1;
  bool stopping_ = false;

  std::deque<std::unique_ptr<Request>> queue_;
  std::condition_variable queue_cv_;  // committer: the queue is non-empty
  bool committing_ = false;  // the committer is inside a group
  bool leading_ = false;     // a Lead holds the lane

  std::set<ShardId> compaction_dirty_;
  bool compaction_busy_ = false;
  bool since_unstored_ = false;  // a since was raised without a rewrite
  bool compaction_stopping_ = false;
  std::condition_variable compaction_cv_;       // compaction thread: work
  std::condition_variable compaction_idle_cv_;  // wait_for_compaction

  std::map<std::pair<ShardId, uint64_t>, Stage> staging_;
  uint64_t next_stage_ = 1;

  ShardStoreStats stats_;
  // Listener calls inside next_impl; the destructor waits for them to leave
  // before the mutex they sleep on goes away.
  int listener_calls_ = 0;
  std::condition_variable listener_calls_cv_;

  std::thread committer_;
  std::function<void()> after_group_;  // see set_after_group
  std::thread compactor_;
};

}  // namespace tandem::storage
