#pragma once
// Coordinator: the single sequencer of writes and of everything that changes
// what exists (DESIGN §2, §7). It owns the timestamp oracle, the table
// shards and the compute controller of the default cluster, and keeps every
// table's upper moving: after each write and at least once a second, all
// tables' uppers advance together, so idle tables stay readable at "now".
//
// Clusters: each cluster owns a compute runtime with its own workers
// (add_cluster); every table is a source in every runtime, so any cluster
// can read any table. Indexes and peeks run on one cluster's runtime.
//
// Tables: each table is a durable shard in storage and a source collection
// in compute. A write takes a timestamp from the oracle, is committed to its
// shards (group commit: concurrent writes share one fsync), and only then
// is applied to the oracle's read timestamp, fed to compute, and
// acknowledged.
//
// Table inputs: a cluster gets a table's compute input when its first
// dataflow imports the table; the input is filled from the shard on the
// replay thread (table_replay.hpp), never on the coordinator's, and every
// command for that cluster issued after the dataflow waits in the
// cluster's queue until the replays it needs have ended (dispatch): the
// cluster's compute gets its commands in the order the coordinator issued
// them, and a dataflow only ever sees a complete input. Peeks that need
// nothing queued pass the queue.
//
// Threading: one coordinator thread runs an io_context; every method that
// changes state runs there (post work with executor()). read_ts() is a
// lock-free read usable from any thread (DESIGN §9: timestamp selection is
// off the coordinator's path). Completion callbacks of write() run on
// whichever thread fed the write to compute (see the compute feed below).

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "common/row.hpp"
#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "compute/plan/global_id.hpp"
#include "compute/runtime/multiplexer.hpp"
#include "frontend/coord/frontiers.hpp"
#include "frontend/coord/hydration_tracker.hpp"
#include "frontend/coord/interactive_admission.hpp"
#include "frontend/coord/process_metrics.hpp"
#include "frontend/coord/staged_write.hpp"
#include "frontend/coord/table_replay.hpp"
#include "storage/shard_store.hpp"
#include "storage/timestamp_oracle.hpp"

namespace tandem::storage {
class DurableStore;
}

namespace tandem::frontend {

// How a cluster's compute is built (read when the cluster is created).
struct ClusterCompute {
  size_t workers = 1;
  bool interactive_runtime = true;    // enable_compute_interactive_runtime
  bool interactive_dataflows = true;  // enable_compute_interactive_dataflows
  // enable_compute_maintenance_background: with the interactive runtime on,
  // maintenance workers run as background work (compute/runtime/thread_class.hpp).
  bool background_maintenance = true;
};

struct CoordinatorOptions {
  // The default cluster's compute (id `default_cluster`).
  ClusterCompute default_compute;
  uint64_t default_cluster = 0;
  std::chrono::milliseconds upper_interval{1000};
  // The read policy's lag (system parameter `compaction_lag`): how far
  // the table read frontier (every table shard's since) trails the read
  // timestamp, and every index's and materialized view's since trails its
  // upper, when no read holds them back (Materialize's default compaction
  // window). An AS OF read older than this is refused.
  std::chrono::milliseconds compaction_lag{1000};
};

// Rows to add (diff +1) or remove (diff -1) from one table.
struct TableWrite {
  compute::GlobalId table = 0;
  std::vector<std::pair<Row, Diff>> updates;
};

class Coordinator {
 public:
  static Result<std::unique_ptr<Coordinator>> open(storage::DurableStore& durable, CoordinatorOptions options = {});
  ~Coordinator();
  Coordinator(const Coordinator&) = delete;
  Coordinator& operator=(const Coordinator&) = delete;

  boost::asio::io_context::executor_type executor() { return io_.get_executor(); }

  // The largest timestamp at which every acknowledged write is visible.
  Timestamp read_ts() const { return oracle_->read_ts(); }

  // ---- on any thread (the read path, off the coordinator's thread)

  // Since and upper of every table and index, for timestamp selection.
  const CollectionFrontiers& frontiers() const { return frontiers_; }
  // Answers a peek of an index on the calling thread when it is sealed
  // (compute::ComputeClient::peek_if_ready); nullopt: submit it with peek().
  std::optional<compute::PeekResponse> peek_if_ready(uint64_t cluster, const compute::Peek& peek,
                                                     size_t inline_budget);
  // The upper `cluster` publishes index `id` at now
  // (compute::ComputeClient::published_upper): at or past the upper in
  // frontiers(), which advances only when the coordinator thread drains
  // compute's responses.
  std::optional<Timestamp> published_upper(uint64_t cluster, compute::GlobalId id);
  // peek_if_ready with offload (compute::ComputeClient::walk_if_ready): a
  // walk past `inline_budget` positions continues on the process's offload
  // pool when `offload`; nullopt: submit it with peek().
  std::optional<compute::ReadyPeek> walk_if_ready(uint64_t cluster, const compute::Peek& peek, size_t inline_budget,
                                                  bool offload);
  // A full scan of a sealed index, read piecewise on the calling thread
  // (compute::ComputeClient::scan_if_ready); nullopt: submit a peek.
  std::optional<Result<std::unique_ptr<compute::IndexScan>>> scan_if_ready(uint64_t cluster,
                                                                           const compute::Peek& peek);
  // What the controller knows now of every dataflow export's hydration and
  // frontiers, every collection's since and upper, and the process's cpu
  // and memory (the mz_internal controller relations).
  std::shared_ptr<const catalog::ControllerStatus> controller_status() const;
  // Each cluster's reads since boot, by the runtime and path that served
  // them (compute's PeekLog), for the read latency metrics.
  struct ClusterReads {
    uint64_t cluster = 0;
    std::vector<compute::logging::PeekLog::PathHistogram> reads;
  };
  std::vector<ClusterReads> read_histograms();
  // Admission control of peek dataflows, per cluster (any thread).
  InteractiveAdmission& admission() { return admission_; }
  compute::GlobalId allocate_transient_id() { return next_transient_.fetch_add(1, std::memory_order_relaxed); }

  // ---- on the coordinator thread ----

  // Creates (or, at boot, reopens) the table's shard and its compute input
  // `table`; on reopen the shard's contents are fed to compute.
  // `unique_keys` are enforced on every later write.
  Status open_table(compute::GlobalId table, storage::ShardId shard, std::vector<UniqueKey> unique_keys = {});
  // Enforces one more unique key on an open table (CREATE UNIQUE INDEX):
  // 23505 "could not create unique index" when the rows present (every
  // write sequenced so far included) already repeat a non-NULL key, and
  // nothing changes. With `null_key` (a primary key), a row present whose
  // key column c is NULL is refused first, with null_key(c)'s error.
  // Scans the table: not for the coordinator's thread.
  Status add_unique_key(compute::GlobalId table, UniqueKey key,
                        const std::function<Status(size_t column)>& null_key = {});
  // Stops enforcing the unique key named `name` (its index was dropped).
  void drop_unique_key(compute::GlobalId table, const std::string& name);
  // Drops the shard; the compute input stays until its dataflows are gone.
  Status drop_table(compute::GlobalId table);
  bool has_table(compute::GlobalId table) const { return tables_.count(table) != 0; }
  // The consolidated contents at `as_of` (REQUIRES as_of < the table's upper).
  Result<std::vector<std::pair<std::string, Diff>>> snapshot(compute::GlobalId table, Timestamp as_of);
  // Commits the writes at one new timestamp; `done` gets it (or the error:
  // 23505 when a row would duplicate a unique key, and nothing is written)
  // once compute has it, on any thread (post to your own executor).
  void write(std::vector<TableWrite> writes, std::function<void(Result<Timestamp>)> done);
  // Checks updates a transaction is about to add to its pending writes to
  // `table` against the table's unique keys: 23505 when a key would be
  // present twice once the transaction committed, counting the committed
  // rows and the transaction's earlier updates, whose net key counts
  // `pending_keys` holds (one map per constraint; extended here). Advisory
  // (the statement gets PostgreSQL's error): COMMIT checks again against
  // the rows committed by then. After an error the transaction fails, and
  // `pending_keys` with it. Any thread; waits for the write lane.
  Status check_pending_keys(compute::GlobalId table, const std::vector<std::pair<Row, Diff>>& updates,
                            std::vector<std::unordered_map<std::string, Diff>>& pending_keys);
  // write() for a transaction whose writes were computed from `read_tables`
  // as of `read_ts`: 40001 (and nothing written) when another commit wrote
  // one of those tables at a later time. The caller holds the modification
  // lock (lock_modifications), so no UPDATE or DELETE interleaves.
  void write_validated(std::vector<TableWrite> writes, Timestamp read_ts,
                       const std::vector<compute::GlobalId>& read_tables,
                       std::function<void(Result<Timestamp>)> done);
  // write() for a session thread: callable from any thread, it sequences
  // the write on the calling thread when the write lane is free (else posts
  // it to the coordinator thread), and `acked` runs on the storage committer
  // thread as soon as the write is durable and the oracle's read timestamp
  // covers it, a thread hop sooner than write()'s callback. Compute gets the
  // rows right after (from the coordinator thread), so a read at that
  // timestamp waits for them as for any time not yet sealed. `acked` must
  // not touch coordinator state; on an error before the commit it runs on
  // the calling or the coordinator thread.
  void write_and_ack(std::vector<TableWrite> writes, std::function<void(Result<Timestamp>)> acked);
  // write_and_ack() without any thread hop, for an uncontended writer:
  // when the write lane and the storage commit lane are both free, the
  // write is sequenced and committed (fsync included) on the calling
  // thread and its result returned. Otherwise nullopt, `writes` untouched:
  // call write_and_ack(). Callable from any thread but the coordinator's.
  // The committed rows wait in the feed queue; waking the coordinator to
  // feed them to compute is handed to `feed_later` (a session passes its
  // own executor's defer, so the wake-up costs the reply nothing), or done
  // at once when `feed_later` is empty.
  using FeedLater = std::function<void(std::function<void()>)>;
  std::optional<Result<Timestamp>> try_write_inline(std::vector<TableWrite>& writes,
                                                    const FeedLater& feed_later = {});

  // ---- staged writes (coordinator_staged.cpp): one COPY of any size

  // A staged write into `table` (any thread but the coordinator's): its
  // rows go to storage as they arrive, invisible until commit_staged.
  // 42P01 if the table has no storage.
  Result<std::unique_ptr<StagedWrite>> begin_staged_write(compute::GlobalId table);
  // Commits a staged write at one new timestamp, as write_and_ack commits
  // rows (same threading and callback): 23505 if one of its keys is
  // present in the table (nothing is visible then, and the stage is
  // deleted). Once committed, compute reads the write back from storage in
  // bounded pieces (with the feed of its timestamp).
  void commit_staged(std::unique_ptr<StagedWrite> write, std::function<void(Result<Timestamp>)> acked);

  // Starts the runtime of cluster `cluster` (a catalog cluster id, packed)
  // with `workers` threads, feeding it every table's contents so far.
  Status add_cluster(uint64_t cluster, ClusterCompute compute);
  // How the cluster's compute routes reads: (interactive runtime on,
  // interactive dataflows on); (false, false) for an unknown cluster. Any thread.
  std::pair<bool, bool> read_routing(uint64_t cluster);
  // The offload pool every cluster's long fast-path walks continue on (and
  // streamed scans of spilled indexes). Any thread.
  const std::shared_ptr<compute::OffloadPool>& offload_pool() const { return offload_pool_; }
  // Stops the cluster's runtime (its dataflows must have been dropped).
  void drop_cluster(uint64_t cluster);
  bool has_cluster(uint64_t cluster) const { return runtimes_.count(cluster) != 0; }

  // Sends `peek` to the cluster's runtime (after `dataflow`, if given: a
  // one-shot dataflow dropped once the peek is answered) and calls `done`
  // with the response, on the coordinator thread.
  // Returns the peek's id (0 if it was answered at once with an error).
  compute::PeekId peek(uint64_t cluster, std::optional<compute::DataflowDescription> dataflow, compute::Peek peek,
                       std::function<void(compute::PeekResponse)> done);
  // Cancels a pending peek: it is answered Canceled at once (exactly one
  // answer per peek), and compute is told to stop and drop its dataflow.
  void cancel_peek(compute::PeekId id);
  // Sends a command to the cluster's runtime (index dataflows, drops), in
  // the order of every command issued to the cluster: a CreateDataflow
  // importing a table the cluster has no input for yet waits for the
  // input's replay (see "Table inputs" above), and later commands wait
  // behind it. Checks (read holds, 72000) are made at once.
  Status send(uint64_t cluster, compute::ComputeCommand command);
  // Calls `done` on the coordinator thread once every command issued to
  // the cluster so far has reached its compute (at once if none waits): a
  // CREATE INDEX or MATERIALIZED VIEW answers after it, so its dataflow
  // runs over complete inputs by the time the statement returns.
  void when_dispatched(uint64_t cluster, std::function<void()> done);
  // A fresh shard id, unique across restarts (a write timestamp).
  Result<storage::ShardId> allocate_shard_id() { return oracle_->write_ts(); }

  // ---- materialized views (coordinator_mv.cpp), on the coordinator thread

  // Makes `mv` a collection every runtime can read, persisted in `shard`,
  // and installs `dataflow` on the cluster's runtime: it computes the view
  // and sinks it (dataflow.sink_exports names `mv`); each SinkBatch is
  // appended to the shard and, once durable, fed to every runtime. A new
  // shard starts at the dataflow's as_of. At boot the shard exists: its
  // contents are the collection until the first SinkBatch, which also
  // retracts them (at the as_of), so the shard converges to what the view
  // computes now.
  Status create_materialized_view(compute::GlobalId mv, storage::ShardId shard, uint64_t cluster,
                                  compute::DataflowDescription dataflow);
  // Drops the view's dataflow and shard; its compute inputs stay until
  // dataflows reading them are gone.
  Status drop_materialized_view(compute::GlobalId mv);
  bool has_materialized_view(compute::GlobalId mv) const { return mvs_.count(mv) != 0; }

  // ---- subscribes (coordinator_subscribe.cpp), on the coordinator thread

  // Installs a subscribe's `dataflow` on the cluster's runtime: it computes
  // the query from its as_of on and sinks its export into `sink_id`. Each
  // SinkBatch (complete for every time below its upper, in upper order) goes
  // to `deliver`, on the coordinator thread; once `deliver` returns false
  // (UP TO reached, an error, a full buffer, the client gone) the dataflow is
  // dropped, which releases its read holds.
  Status create_subscribe(compute::GlobalId sink_id, uint64_t cluster, compute::DataflowDescription dataflow,
                          std::function<bool(compute::SinkBatch)> deliver);
  // Ends a subscribe whose consumer went away: drops its dataflow.
  void drop_subscribe(compute::GlobalId sink_id);
  size_t active_subscribes() const { return subscribes_.size(); }

  // Read-then-write statements (UPDATE, DELETE) hold this lock from their
  // read to their write's completion, so they never interleave. `granted`
  // runs (on the coordinator thread) once the lock is held.
  void lock_modifications(std::function<void()> granted);
  void unlock_modifications();

  // Changes the read policy's lag (at least 1 ms). Any thread.
  void set_compaction_lag(std::chrono::milliseconds lag);

  // The default cluster's runtime (tests).
  compute::Multiplexer& compute() { return *runtimes_.begin()->second; }
  storage::ShardStore& shards() { return *shards_; }

 private:
  Coordinator(CoordinatorOptions options) : options_(options) {}
  void schedule_upper_tick();
  // write() and write_and_ack(), with write_mutex_ held: takes the writes
  // and `done` and queues the commit (with `ack_on_commit`, `done` runs on
  // the committer thread once the write is durable), or returns the error
  // for the caller to report after unlocking (nothing is taken then).
  // With `lead`, the commit is queued on it (the caller runs it after
  // unlocking) and an error is reported to `done` on the lead's thread.
  Status sequence_write(std::vector<TableWrite>& writes, std::function<void(Result<Timestamp>)>& done,
                        bool ack_on_commit, storage::ShardStore::Lead* lead = nullptr);
  // sequence_write under write_mutex_ (waiting for it), reporting an error
  // to `done` after unlocking.
  void lock_and_sequence(std::vector<TableWrite>& writes, std::function<void(Result<Timestamp>)>& done,
                         bool ack_on_commit);
  // Moves every table's upper (and compute frontier) to a new timestamp.
  void advance_all();
  // Advances the table read frontier to the read timestamp less the lag
  // (as far as holds allow) and asks storage to compact every table shard
  // to it, and every materialized view's shard to its last sealed time
  // (only boot reads it, at that time). Coordinator thread, with the tick.
  void compact_shards();
  // Moves every index's and materialized view's since to its upper less
  // the lag, as far as read holds allow, and tells compute (AllowCompaction).
  // Coordinator thread: when uppers advance and when a hold that kept a
  // since back is dropped (never on a timer of its own).
  void compact_indexes();
  // The least time a new dataflow importing `desc`'s indexes can read from:
  // desc.as_of raised to their sinces.
  Timestamp readable_as_of(const compute::DataflowDescription& desc) const;
  // 'XX000' (logged) if a read at `time` of `id` would be below its since:
  // the read's hold did not keep the since back.
  Status check_read_hold(compute::GlobalId id, Timestamp time) const;
  std::atomic<int64_t> compaction_lag_ms_{1000};
  std::atomic<bool> compaction_posted_{false};

  // The compute feed. Commits (writes and upper ticks) queue their feed in
  // commit order, from whichever thread committed them (commit callbacks
  // run in commit order: storage holds its commit lane through them). One
  // drain at a time (drain_mutex_) empties the whole queue, so feeds reach
  // compute in timestamp order however late each drain runs, and one drain
  // feeds every commit queued before it (one advance of every input for a
  // whole group of writes). A session that committed inline drains on its
  // own thread after its reply when no other drain runs (feed_or_post): a
  // one-client INSERT loop then wakes no other thread. The storage
  // committer drains after each group it commits (ShardStore::
  // set_after_group), so group commits wake no coordinator thread either.
  // When another drain runs, the coordinator thread drains what is left
  // (post_feed_drain), as it drains any queue holding a staged write (its
  // rows are read back from storage: long work for a committer).
  // A committed staged write: its table, shard and stage.
  struct StagedFeed {
    compute::GlobalId table = 0;
    storage::ShardId shard = 0;
    uint64_t stage = 0;
  };
  struct CommittedFeed {
    Timestamp time = 0;  // every table's inputs advance past it
    std::shared_ptr<std::vector<TableWrite>> writes;  // null for an upper tick
    std::function<void(Result<Timestamp>)> done;  // write()'s callback, after the feed
    std::optional<StagedFeed> staged;  // read back from storage at `time`
  };
  // REQUIRES drain_mutex_ held. Feeds a staged write to the inputs of its
  // table: first `pending` (the table's updates of earlier feeds, then
  // cleared) released up to its time, then the write, read back from the
  // shard one stored chunk at a time into SnapshotLoaders.
  void feed_staged(const CommittedFeed& feed, std::shared_ptr<std::vector<compute::Update>>* pending);
  // Under write_mutex_: checks and reserves a staged write's keys, takes
  // its timestamp and queues its commit (see commit_staged).
  Status sequence_staged(std::shared_ptr<StagedWrite> write, std::function<void(Result<Timestamp>)>& acked);
  void release_staged_keys(const StagedWrite& write);
  void queue_feed(CommittedFeed feed);
  // Posts drain_feeds() unless one is posted already or nothing is queued.
  // Any thread.
  void post_feed_drain();
  // Drains on this thread if no drain is running, else post_feed_drain().
  // Any thread but the coordinator's (a session's, the storage committer's).
  void feed_or_post();
  void drain_feeds();  // coordinator thread
  // Feeds the queued commits to compute, releases `drain` (drain_mutex_),
  // then runs write()'s callbacks.
  void drain_feeds(std::unique_lock<std::mutex> drain);
  // REQUIRES drain_mutex_ held. Feeds the queued commits to compute and
  // returns them.
  std::vector<CommittedFeed> feed_compute();
  // Held by whichever thread drains, by the coordinator thread while it
  // changes what a drain reads: tables_' membership, a Table's inputs and
  // replays, and fed_upper_ (with the replay's start that reads it,
  // ensure_table_inputs), and by the replay thread while it takes a
  // replay's backlog and joins its input to the table. So a session thread
  // may drain while the coordinator thread works elsewhere.
  // Order: write_mutex_, then drain_mutex_, then feed_mutex_. Never held
  // across a wait for another thread.
  std::mutex drain_mutex_;
  std::mutex feed_mutex_;  // leaf lock: feeds_, feed_drain_posted_
  std::vector<CommittedFeed> feeds_;
  bool feed_drain_posted_ = false;
  bool staged_queued_ = false;  // feeds_ holds a staged write: feed_or_post posts

  // The write lane: held to take a write timestamp and queue its commit, so
  // timestamps, uppers and commits stay in one order whichever thread
  // sequences. Guards upper_, every Table's key_counts, and changes to
  // tables_' membership (the coordinator thread may read tables_ without
  // it: only that thread changes it). Never held across a wait for another
  // thread, except by the coordinator thread's open_table.
  std::mutex write_mutex_;
  // Writes whose inline commit failed: their keys are released by the next
  // reserve_keys (under write_mutex_). Leaf lock.
  std::mutex unreserve_mutex_;
  std::vector<std::shared_ptr<const std::vector<TableWrite>>> unreserve_;

  struct Table {
    storage::ShardId shard = 0;
    // Opened (at boot, or created) at this time: the history before it
    // reaches compute consolidated at it.
    Timestamp opened_at = 0;
    // One input per cluster runtime that has read the table (created by the
    // first dataflow importing it there, ensure_table_inputs): a cluster
    // that never reads a table keeps no copy of its history, and a write
    // feeds only the clusters that read it.
    std::map<uint64_t, std::shared_ptr<compute::InputHandle>> inputs;
    // Inputs being filled on the replay thread, by cluster; each joins
    // `inputs` when complete (table_replay.hpp). Under drain_mutex_.
    std::map<uint64_t, std::shared_ptr<TableReplay>> replays;
    std::vector<UniqueKey> unique_keys;
    // Per unique key: the key rows present, with their multiplicity. Kept on
    // the coordinator thread in write order, so checks see every earlier
    // write even before it is durable.
    std::vector<std::unordered_map<std::string, Diff>> key_counts;
    // The time of the latest commit that wrote the table (0: none since
    // boot), for write_validated.
    Timestamp last_write = 0;
  };
  // Checks `writes` against the unique keys and, if they pass, applies them
  // to the key counts (undo() reverses that if the commit fails).
  Status reserve_keys(const std::vector<TableWrite>& writes);
  // REQUIRES write_mutex_ held. Gives back the keys of writes whose inline
  // commit failed (queued in unreserve_).
  void release_failed_reservations();
  void release_keys(const std::vector<TableWrite>& writes);
  // Adds `diff` to the counts of `row`'s keys; the first constraint whose
  // key now counts more than once, if any.
  std::optional<size_t> count_keys(Table& table, RowRef row, Diff diff);
  // Feeds fresh `inputs` the contents of `shard` as of `as_of` and counts
  // them into `keyed`'s unique keys (when given), streamed from storage one
  // stored batch at a time into spillable history batches
  // (compute::SnapshotLoader): a table larger than the memory budget is
  // never held whole.
  Status load_snapshot(storage::ShardId shard, Timestamp as_of,
                       const std::vector<compute::InputHandle*>& inputs, Table* keyed);
  // Gives `cluster` an input for every table `desc` imports that it has none
  // for yet, holding what it can still read from the shard: the contents at
  // max(opened_at, the table read frontier), then every update fed to
  // compute since (times below fed_upper_) at its own time, streamed from
  // the shard on the replay thread (a TableReplay, table_replay.hpp); the
  // replays `desc` must wait for (new or still running) are added to
  // `waits`. 72000 if desc.as_of is below that start (a read that took no
  // TableHold). Coordinator thread, before the dataflow is dispatched.
  Status ensure_table_inputs(uint64_t cluster, const compute::DataflowDescription& desc,
                             std::vector<std::shared_ptr<TableReplay>>* waits);
  // The replay thread's job: scans the shard into the input, applies the
  // backlog and joins the input to its table (see table_replay.hpp), then
  // posts finish_replay.
  void run_replay(const std::shared_ptr<TableReplay>& replay);
  // Coordinator thread: the replay has ended. A failed scan leaves the
  // cluster an input carrying the error (every read of the table there
  // reports it, never a partial table); then the cluster's queue moves.
  void finish_replay(const std::shared_ptr<TableReplay>& replay, Status scanned);
  // REQUIRES drain_mutex_ held. Marks the replays of `table` (of `cluster`
  // only, when given) cancelled and forgets them.
  void cancel_replays(Table& table, std::optional<uint64_t> cluster);

  // The per-cluster command queue. An entry runs once every replay in
  // `waits` has ended and every entry before it has run; `run` gets OK, or
  // the error that makes sending pointless (a table or the cluster was
  // dropped meanwhile) and then sends nothing. `exports` are the ids a
  // queued CreateDataflow will export: a peek passes the queue (`bypass`
  // lists what it reads) only when it waits for no replay and reads none
  // of them (a peek reads under its read holds, so commands still queued,
  // AllowCompaction or DropDataflow, cannot take what it reads from under
  // it).
  struct Deferred {
    std::vector<std::shared_ptr<TableReplay>> waits;
    std::vector<compute::GlobalId> exports;
    std::function<void(Status)> run;
  };
  void dispatch(uint64_t cluster, Deferred deferred, const std::vector<compute::GlobalId>* bypass = nullptr);
  // Runs the entries at the head of the cluster's queue that may run.
  void pump(uint64_t cluster);
  // A command for the cluster's runtime, in queue order.
  void submit(uint64_t cluster, compute::ComputeCommand command);
  std::map<uint64_t, std::deque<Deferred>> deferred_;
  std::unique_ptr<ReplayThread> replay_thread_;
  struct MaterializedView {
    storage::ShardId shard = 0;
    uint64_t cluster = 0;
    compute::GlobalId export_id = 0;  // the dataflow's index export, sinked
    std::map<uint64_t, std::shared_ptr<compute::InputHandle>> inputs;
    Timestamp upper = 0;       // durable in the shard and fed to compute
    bool appending = false;    // one append in flight at a time
    std::optional<compute::SinkBatch> pending;  // sinked, not yet appended
    // Boot: the shard's contents, retracted at `correction_time` by the
    // first append.
    std::vector<std::pair<std::string, Diff>> correction;
    Timestamp correction_time = 0;
  };
  void on_sink_batch(compute::SinkBatch batch);
  // A SinkBatch of a subscribe; false if `batch` is not one.
  bool on_subscribe_batch(compute::SinkBatch& batch);
  struct Subscription {
    uint64_t cluster = 0;
    compute::GlobalId export_id = 0;
    std::function<bool(compute::SinkBatch)> deliver;
  };
  std::map<compute::GlobalId, Subscription> subscribes_;
  void append_sink(compute::GlobalId mv);
  void add_view_inputs(uint64_t cluster, compute::Multiplexer& runtime);
  // Runs on the coordinator thread whenever compute has queued responses.
  void drain_compute_responses(uint64_t cluster);

  struct PendingPeek {
    uint64_t cluster = 0;
    bool sent = false;  // in compute (else still in the cluster's queue)
    std::optional<compute::GlobalId> drop_after;  // one-shot dataflow export
    std::function<void(compute::PeekResponse)> done;
  };
  std::map<compute::PeekId, PendingPeek> peeks_;
  bool modifying_ = false;
  std::deque<std::function<void()>> modify_waiters_;
  compute::PeekId next_peek_ = 1;
  // Transient ids live in their own range (catalog::to_compute_id's tag 2).
  std::atomic<compute::GlobalId> next_transient_{(compute::GlobalId{2} << 62) + 1};

  CoordinatorOptions options_;
  std::unique_ptr<storage::ShardStore> shards_;
  std::unique_ptr<storage::TimestampOracle> oracle_;
  // Shared by every cluster's runtime (DESIGN §2: the offload pool).
  std::shared_ptr<compute::OffloadPool> offload_pool_ = std::make_shared<compute::OffloadPool>();
  std::map<uint64_t, std::unique_ptr<compute::Multiplexer>> runtimes_;
  // Changes to runtimes_ (on the coordinator thread) exclude peek_if_ready
  // callers on other threads.
  std::shared_mutex runtimes_mutex_;
  CollectionFrontiers frontiers_;
  HydrationTracker hydration_;
  InteractiveAdmission admission_;
  ProcessMetrics process_metrics_;
  // Records the dataflow's exports with hydration_ (send()).
  void track_hydration(uint64_t cluster, const compute::DataflowDescription& desc);
  std::map<compute::GlobalId, Table> tables_;
  std::map<compute::GlobalId, MaterializedView> mvs_;
  // The upper every table has been advanced to (all move together).
  // The upper every table's compute inputs have been fed to (under
  // drain_mutex_; trails upper_ while commits are in flight).
  Timestamp fed_upper_ = 0;
  Timestamp upper_ = 0;
  // Writes in flight keep later uppers from overtaking them.
  size_t writes_in_flight_ = 0;

  boost::asio::io_context io_;
  std::unique_ptr<boost::asio::steady_timer> ticker_;
  std::thread thread_;
  bool stopping_ = false;
};

}  // namespace tandem::frontend
