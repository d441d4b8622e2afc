// InputHandle: a source collection fed from outside the runtime (tests and,
// until storage's listen plugs in here, tables).
//
// send() buffers updates; advance_to(f) promises no update with time < f
// will follow, releases the buffered updates to every subscribed dataflow
// and wakes the workers that have a live subscriber. Updates are spread over
// the N workers by row hash (any spread is correct: every stateful operator
// exchanges by key).
// A dataflow subscribing later first receives the whole history (the log
// stands in for a storage snapshot; a real source replays from its shard).
// Released updates are kept once, per worker, as shared read-only chunks
// (UpdateChunk) that live subscribers and later ones read without a copy per
// subscriber; the chunks are merged like a binary counter (a chunk at least
// as large as the one before it is merged with it, into a new chunk) so
// their number stays logarithmic under many small writes. A chunk that
// reaches kHistoryBatchUpdates becomes a *history batch*: an arrangement
// batch of (row, empty val, time, diff) built by a Batcher, so it is
// consolidated, counted by the memory budget and spilled under pressure
// like any arrangement (compute/arrangement/memory_budget.hpp); history
// batches are merged like a binary counter too, block by block. A late
// subscriber reads them through its SourceOp a step's worth at a time. So
// a table much larger than the budget is not held in memory by its input.
// A table's contents at boot (or when a runtime is added) arrive through a
// SnapshotLoader instead: streamed from storage straight into one Batcher
// per worker, which cuts spilled runs under the budget, and sealed as one
// history batch per worker, so they are never held as Update vectors. A
// live input takes one large write the same way (a COPY staged in storage,
// read back piecewise): the sealed batches also go to every subscriber as
// history, which its SourceOp walks a step at a time.
//
// Threading: any thread may call send/advance_to (one feeder at a time);
// subscribe is called by workers while rendering. A mutex guards the log and
// the subscriber list and is held only to copy/move vectors.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "common/row.hpp"
#include "compute/arrangement/batcher.hpp"
#include "compute/dataflow/source_op.hpp"

namespace tandem::compute {

class InputHandle;

// Feeds an input the updates of one time, in pieces of any size (see
// "SnapshotLoader" above): a fresh input its collection's contents, a live
// one a large write. finish() releases them as advance_to(time + 1) would,
// to the history and every subscriber. Dropping a loader unfinished
// releases nothing. Threading: one thread; the input is not used
// meanwhile.
class SnapshotLoader {
 public:
  // A row of the collection with its multiplicity (rows may repeat).
  void push(RowRef row, Diff diff);
  void finish();

 private:
  friend class InputHandle;
  SnapshotLoader(InputHandle& input, Timestamp time);
  InputHandle& input_;
  Timestamp time_;
  std::vector<Batcher> batchers_;  // per worker
};

class InputHandle {
 public:
  using Waker = std::function<void(std::size_t worker)>;
  InputHandle(std::size_t workers, Waker waker)
      : workers_(workers),
        waker_(std::move(waker)),
        history_(workers),
        history_batches_(workers),
        history_upper_(workers, kMinTimestamp),
        history_errs_(workers) {}

  // REQUIRES time >= frontier().
  void send(Row row, Timestamp time, Diff diff);
  // Many updates at once. REQUIRES every time >= frontier().
  void send_batch(std::vector<Update> updates);
  // Updates other inputs may share (feeding one table to many runtimes):
  // never modified here; with one worker the chunk itself is released and
  // kept, with more it is copied out by worker. REQUIRES every time >=
  // frontier().
  void send_shared(std::shared_ptr<const std::vector<Update>> updates);
  // Error rows (compute/dataflow/error_row.hpp) as vals, for sources whose
  // collection carries errors. REQUIRES every time >= frontier().
  void send_errors(std::vector<Update> errors);
  // REQUIRES frontier >= frontier(). Publishes and wakes workers.
  void advance_to(Timestamp frontier);
  Timestamp frontier() const;

  // REQUIRES nothing sent and not yet released (advance_to first),
  // time >= frontier().
  SnapshotLoader load_snapshot(Timestamp time) { return SnapshotLoader(*this, time); }

  // Released chunks of at least this many updates become history batches.
  static constexpr std::size_t kHistoryBatchUpdates = 16 * 1024;

  // One feed per worker, primed with the history released so far. A
  // subscriber on another runtime than the handle's (the interactive
  // runtime shares the maintenance runtime's inputs) passes its own waker.
  std::vector<std::shared_ptr<SourceFeed>> subscribe(Waker waker = nullptr);

 private:
  friend class SnapshotLoader;
  using Chunk = std::shared_ptr<const std::vector<Update>>;
  using History = std::vector<std::vector<Chunk>>;  // per worker, oldest first

  std::size_t worker_of(const Update& u) const { return hash_row(u.val) % workers_; }
  // One chunk per worker (null where a worker gets nothing).
  std::vector<Chunk> partition(std::vector<Update>&& updates) const;
  // Appends a released chunk to a worker's history, turning the oldest
  // chunks into history batches once they are large.
  void append_history(std::size_t worker, Chunk chunk);
  static void append_chunk(std::vector<Chunk>& chunks, Chunk chunk);
  // Turns a worker's history chunks into a history batch ending at
  // frontier_ (a loader's batch follows it). REQUIRES mutex_ held.
  void seal_history(std::size_t worker);

  const std::size_t workers_;
  Waker waker_;
  mutable std::mutex mutex_;
  std::vector<Update> buffered_;
  // One worker only: shared chunks sent while buffered_ was empty, in order.
  std::vector<Chunk> shared_;
  History history_;
  // Per worker: older history as batches, oldest first (before history_'s
  // chunks in time), and the upper of the last one.
  std::vector<std::vector<BatchPtr>> history_batches_;
  std::vector<Timestamp> history_upper_;
  std::vector<Update> buffered_errs_;
  History history_errs_;
  Timestamp frontier_ = kMinTimestamp;
  struct Subscription {
    Waker waker;  // null: the handle's own
    std::vector<std::weak_ptr<SourceFeed>> feeds;  // per worker
  };
  std::vector<Subscription> subscribers_;
};

}  // namespace tandem::compute
