#pragma once
// Table replays: how a cluster gets a table's compute input without the
// coordinator thread reading the table (Coordinator::ensure_table_inputs).
//
// Contract. A replay fills one fresh InputHandle of one cluster with what
// that cluster may read of the table: the contents at `start`, then every
// update at a time in (start, until) at its own time, read from the shard
// (ShardStore::scan_history) on the replay thread; `until` is the
// coordinator's fed_upper_ when the replay was made, so every later commit
// reaches the input through the feed instead. While the replay runs, the
// feed (under the coordinator's drain_mutex_) appends what it gives the
// table's live inputs to the replay's `backlog`, in feed order, instead of
// touching the input; the replay thread applies the backlog after the scan
// and joins the input to the table's live inputs, under drain_mutex_, once
// the backlog is empty. So the input sees the history below `until` from
// storage and every commit at or past it from the feed, each exactly once
// and in time order, and its frontier only moves forward. Until it joins,
// the replay thread is the input's only feeder; no dataflow reads it
// (dataflows importing the table on that cluster are held back until the
// replay has ended: Coordinator::dispatch).
//
// `since_hold` (a listener on the shard, never read) holds the shard's
// since at `start` until the input has joined, so neither the scan nor a
// staged write in the backlog is compacted away before it is read.
//
// Threading: see each field. ReplayThread runs jobs in submission order on
// one thread, `table-replay`, which sleeps until a job arrives.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "compute/plan/global_id.hpp"
#include "compute/runtime/input_handle.hpp"
#include "storage/shard_listener.hpp"
#include "storage/shard_store.hpp"

namespace tandem::frontend {

// One step of the feed, as the live inputs of the replay's table got it.
struct FeedOp {
  enum class Kind : uint8_t {
    kSend,     // send_shared(chunk)
    kAdvance,  // advance_to(time), unless the input is there already
    kStaged,   // a committed staged write at `time`, read back from the shard
  };
  Kind kind = Kind::kSend;
  std::shared_ptr<const std::vector<compute::Update>> chunk;
  Timestamp time = 0;
  storage::ShardId shard = 0;
  uint64_t stage = 0;
};

// Applies `ops` to `input` in order (a staged write through a
// SnapshotLoader, one stored chunk in memory at a time). A staged write
// that cannot be read back is logged and skipped, as the live feed does
// (Coordinator::feed_staged). REQUIRES the caller is the input's only feeder.
void apply_feed_ops(const storage::ShardStore& shards, compute::InputHandle& input, const std::vector<FeedOp>& ops);

struct TableReplay {
  // Set when made (coordinator thread), read-only after.
  compute::GlobalId table = 0;
  uint64_t cluster = 0;
  storage::ShardId shard = 0;
  Timestamp start = 0;
  Timestamp until = 0;
  std::shared_ptr<compute::InputHandle> input;

  // Under the coordinator's drain_mutex_.
  std::vector<FeedOp> backlog;
  std::unique_ptr<storage::ShardListener> since_hold;
  // Set under drain_mutex_ when the table or the cluster is dropped (or the
  // coordinator stops); read without it only to skip work.
  std::atomic<bool> cancelled{false};

  // Coordinator thread only: the replay has ended (joined, failed or
  // cancelled) and the dataflows waiting for it may go.
  bool ended = false;
};

// One thread running jobs in submission order; it sleeps until a job
// arrives. The destructor waits for the running job, drops queued ones.
// Threading: submit() from any thread.
class ReplayThread {
 public:
  ReplayThread();
  ~ReplayThread();
  ReplayThread(const ReplayThread&) = delete;
  ReplayThread& operator=(const ReplayThread&) = delete;

  void submit(std::function<void()> job);
  // Stops taking jobs and joins the thread (idempotent).
  void stop();

 private:
  void run();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tandem::frontend
