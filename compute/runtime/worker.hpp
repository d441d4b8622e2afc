// Worker: one thread of a runtime. It owns its instances of every dataflow,
// the index exports they publish, and the peeks parked on them. A worker of
// the interactive runtime (with a Peer) also reads the indexes its
// publisher exports: peeks of them park until the published part is sealed
// past their time (woken by the registry, which marks the id dirty; only
// the reads on dirty ids are re-examined), and its one-shot dataflows import
// them (SharedImportOp), held by the standing holds of HoldPublished.
//
// Loop. The thread sleeps on a condition variable until a command arrives
// or something wakes it (an InputHandle released updates, another worker
// exchanged data to it). It then applies the queued commands in order, steps
// every dataflow once (producers before consumers; an operator step runs to
// completion on the input available), and afterwards (1) reports export
// uppers that advanced and (2) re-examines only the peeks parked on exports
// whose upper advanced. No polling: with nothing queued the thread waits.
// Peeks: a peek at t is answered once the export's upper > t; below the
// export's read hold (since) it is an error. While parked it holds both
// traces at t (a TraceHandle), so compaction cannot pass it. A `stream`
// peek is answered with the snapshots rather than rows: the worker does no
// walk whose pace a client would set. A walk that would read spilled blocks
// back is moved to the offload pool (worker_offload.cpp),
// so no worker waits on the spill's I/O for a read.
// Compaction: AllowCompaction moves an export's read hold; the traces
// consolidate below it as their merges run, and after that step each gets
// kCompactionMergeFuel of merge work, so an index whose input went quiet
// still shrinks to its live records.
// Sinks: a sink export subscribes to its index export's sealed batches and,
// after each step, reports them with the export's upper to the SinkTracker.
// Heap limits: a dataflow with a heap limit (a peek dataflow) reports the
// bytes of its arrangements after each step; once the sum over the workers
// passes the limit, every worker stops stepping it and fails the peeks of
// its exports with 53200; the controller then drops it.
// Logging: with a WorkerLogger, the worker times each step and
// each operator of the dataflows it maintains. A peek of a log index asks
// the logger for its time; at the next step boundary (before stepping) the
// worker pulls a LogState from its dataflows and flushes it into the
// logging dataflows, which it then steps with the rest. Logging dataflows are not logged themselves (no feedback loop:
// a flush never causes another). Their exports are compacted by the worker
// (kLogRetention behind the last flush) and not reported as FrontierUpper.
// Threading: enqueue() and wake() from any thread; everything else runs on
// the worker thread. No lock is held while a dataflow steps.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <variant>
#include <vector>

#include "compute/arrangement/trace_handle.hpp"
#include "compute/dataflow/arrange_op.hpp"
#include "compute/dataflow/dataflow.hpp"
#include "compute/dataflow/render.hpp"
#include "compute/logging/peek_log.hpp"
#include "compute/logging/worker_logger.hpp"
#include "compute/protocol/command.hpp"
#include "compute/runtime/dataflow_shared.hpp"
#include "compute/runtime/offloaded_walk.hpp"
#include "compute/runtime/peek_tracker.hpp"
#include "compute/runtime/publication_registry.hpp"
#include "compute/runtime/sink_tracker.hpp"
#include "compute/runtime/thread_class.hpp"

namespace tandem::compute {

// Internal commands of an interactive runtime (not part of the protocol),
// ordered with the ComputeCommands it receives.
//  HoldPublished     the standing hold on this worker's part of an index
//                    the publisher exports, taken (at its as_of) before the
//                    publisher saw its CreateDataflow; AllowCompaction of
//                    the index advances it, so the published since never
//                    passes a read queued here before that AllowCompaction.
//  ReleasePublished  the index was dropped: release the hold and fail the
//                    reads parked on it.
struct HoldPublished {
  GlobalId id = 0;
  TraceHandle oks;
  TraceHandle errs;
};
struct ReleasePublished {
  GlobalId id = 0;
};

struct WorkerCommand {
  std::variant<ComputeCommand, HoldPublished, ReleasePublished> command;
  std::shared_ptr<DataflowShared> shared;  // CreateDataflow only
};

// What an interactive worker reads of its publisher (the maintenance
// runtime of the same cluster, with as many workers): its registry, and a
// way to ask its worker `worker` to log past `time` (see WorkerLogger),
// which answers when that worker's current step started if it is inside
// one (it flushes only after it), else nullopt.
using StepStart = std::optional<std::chrono::steady_clock::time_point>;
struct Peer {
  PublicationRegistry* registry = nullptr;
  std::function<StepStart(std::size_t worker, Timestamp time)> request_logs;
};

// How long a log read waits for a publisher inside a step before it reads
// the last completed step's logs instead (introspection during hydration).
inline constexpr std::chrono::milliseconds kStaleLogReadAfter{10};

class Worker {
 public:
  // `logger` may be null (no logging); `peek_log` is read by worker 0's
  // flushes only.
  struct Options {
    // This runtime's registry: exports adopt their placeholders and report
    // advances there.
    PublicationRegistry* publications = nullptr;
    // Null: no logging.
    std::unique_ptr<logging::WorkerLogger> logger;
    // Read by worker 0's flushes only.
    const logging::PeekLog* peek_log = nullptr;
    // An interactive worker's publisher (null for maintenance).
    const Peer* peer = nullptr;
    // Where a read that would page spilled blocks in is walked, and where
    // it answers (both null: walked on the worker).
    std::shared_ptr<OffloadPool> offload_pool;
    std::shared_ptr<OffloadedAnswers> offloaded_answers;
    // Step durations: an interactive worker counts its own here; a
    // maintenance worker logs the other runtime's from here.
    logging::SharedSteps* record_steps = nullptr;
    const logging::SharedSteps* peer_steps = nullptr;
    // The thread's name (e.g. "maintenance-0") and scheduling class.
    std::string thread_name;
    ThreadClass thread_class = ThreadClass::Normal;
  };
  Worker(std::size_t index, PeekTracker* peeks, FrontierTracker* frontiers, SinkTracker* sinks, Options options);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  void start();
  // Stops the thread after the commands already queued; joins it.
  void shutdown();
  void enqueue(WorkerCommand command);
  void wake();
  // The publisher advanced index `id` (an interactive worker's reads wait on it).
  void mark_dirty(GlobalId id);
  // Logs past `time` at the next step boundary; when the worker is inside
  // a step now (so the flush waits for the step's end), when it started.
  StepStart request_logs(Timestamp time);

 private:
  struct Export {
    ArrangeOp* op = nullptr;
    TraceHandle oks_hold;  // the read hold AllowCompaction advances
    TraceHandle errs_hold;
    Timestamp reported = kMinTimestamp;
    Timestamp notified = kMinTimestamp;  // the upper last told to the registry
    bool compacted = false;  // AllowCompaction advanced the hold: merge at the step's end
    // Its dataflow passed its heap limit: peeks of it fail with this.
    std::optional<Status> failed;
  };
  // An index the publisher exports, with this runtime's standing hold.
  struct Published {
    TraceHandle oks;
    TraceHandle errs;
  };
  struct Sink {
    GlobalId index_id = 0;
    std::shared_ptr<ArrangementFeed> feed;
    Timestamp reported = kMinTimestamp;
  };
  struct Installed {
    std::unique_ptr<Dataflow> dataflow;
    std::vector<GlobalId> exports;
    // Logging: ids (the same on every worker: dataflows are created in one
    // order), the operators reading imports, and whether it is a logging
    // dataflow (not logged).
    std::int64_t id = 0;
    std::int64_t first_operator_id = 0;
    std::vector<std::pair<GlobalId, const Operator*>> imports;
    bool is_logging = false;
    // Imports of published indexes not read yet (watched in the registry).
    std::vector<std::pair<GlobalId, const SharedImportOp*>> shared_imports;
    // The heap limit (DataflowDescription::heap_limit_bytes) and what the
    // workers' instances share to enforce it; `failed` once past it (the
    // dataflow is no longer stepped).
    std::uint64_t heap_limit = 0;
    std::shared_ptr<DataflowShared> shared;
    bool failed = false;
  };
  struct Parked {
    Peek peek;
    TraceHandle oks_hold;
    TraceHandle errs_hold;
  };

  void run();
  void step_dataflows();
  void handle(WorkerCommand& command);
  void handle(ComputeCommand& command, const std::shared_ptr<DataflowShared>& shared);
  void hold_published(HoldPublished& hold);
  void release_published(GlobalId id);
  std::optional<SharedIndex> shared_index(GlobalId id, Timestamp as_of);
  void peek_published(Peek peek);
  // Answers a parked read of a published index if it can; true if answered.
  bool try_answer_published(Parked& parked);
  void recheck_dirty(const std::vector<GlobalId>& dirty);
  // Whether a log read at `time` may read the last completed step's logs:
  // the publisher has been inside a step for kStaleLogReadAfter; if it is
  // in a shorter one, a recheck is scheduled for when that much has passed.
  bool stale_log_read_ok(Timestamp time);
  void unwatch_done_imports(Installed& installed);
  void create(const CreateDataflow& create, const std::shared_ptr<DataflowShared>& shared);
  // Reports each heap-limited dataflow's bytes and fails those past the
  // limit (here or on another worker).
  void check_heaps();
  void fail_heap(Installed& installed, std::uint64_t total);
  void peek(Peek peek);
  void cancel(PeekId id);
  void allow_compaction(const AllowCompaction& allow);
  void drop(GlobalId export_id);
  void after_step();
  void report_sinks();
  void flush_logs();
  logging::LoggedDataflow describe(const Installed& installed) const;
  // Answers the peek if its time is sealed; true if answered.
  bool try_answer(Parked& parked, const Export& exp);
  // Answers the peek from these snapshots (REQUIRES since <= time).
  void answer(const Parked& parked, std::shared_ptr<const TraceSnapshot> oks, std::shared_ptr<const TraceSnapshot> errs);
  // worker_offload.cpp: moves the walk to the offload pool when it would
  // page spilled blocks in; true if it did (the pool answers).
  bool offload_answer(const Parked& parked, const std::shared_ptr<const TraceSnapshot>& oks,
                      const std::shared_ptr<const TraceSnapshot>& errs);
  // Cancels an offloaded walk of peek `id`; false if there is none.
  bool cancel_offloaded(PeekId id);

  const std::size_t index_;
  PeekTracker* peeks_;
  FrontierTracker* frontiers_;
  SinkTracker* sinks_;
  std::thread thread_;

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<WorkerCommand> inbox_;
  bool woken_ = false;
  bool stop_ = false;
  std::vector<GlobalId> dirty_;            // published ids advanced since the last look
  Timestamp log_request_ = kMinTimestamp;  // request_logs from other threads, + 1
  bool stepping_ = false;                  // between taking the inbox and the step's end
  std::chrono::steady_clock::time_point step_started_;
  // Interactive: when to re-examine parked log reads (see stale_log_read_ok).
  std::optional<std::chrono::steady_clock::time_point> recheck_at_;

  std::vector<Installed> dataflows_;
  std::unordered_map<GlobalId, Export> exports_;
  std::unordered_map<GlobalId, std::vector<Parked>> parked_;
  std::map<GlobalId, Sink> sink_exports_;
  std::unordered_map<GlobalId, Published> published_;
  std::unordered_map<GlobalId, std::vector<Parked>> parked_published_;

  PublicationRegistry* publications_;
  std::shared_ptr<OffloadPool> offload_pool_;
  std::shared_ptr<OffloadedAnswers> offloaded_answers_;
  std::unordered_map<PeekId, std::weak_ptr<OffloadedPeek>> offloaded_;  // walks on the pool
  std::unique_ptr<logging::WorkerLogger> logger_;
  const logging::PeekLog* peek_log_;
  const Peer* peer_;
  logging::SharedSteps* record_steps_;
  const logging::SharedSteps* peer_steps_;
  const std::string thread_name_;
  const ThreadClass thread_class_;
  std::int64_t next_log_id_ = 1;
};

// Merge work (Spine::exert fuel) an export's traces get after a step in
// which AllowCompaction advanced their hold: with no insert to drive them,
// merges would not consolidate an idle index's history. About a few ms of
// merging, at most once per AllowCompaction (the controller sends them as
// uppers advance).
inline constexpr std::int64_t kCompactionMergeFuel = 64 * 1024;

// How far behind its last flush a log index keeps history (ms).
inline constexpr Timestamp kLogRetention = 60'000;

}  // namespace tandem::compute
