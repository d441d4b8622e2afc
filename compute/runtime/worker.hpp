// Worker: one maintenance thread. It owns its instances of every dataflow,
// the index exports they publish, and the peeks parked on them.
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
// walk whose pace a client would set.
// Sinks: a sink export subscribes to its index export's sealed batches and,
// after each step, reports them with the export's upper to the SinkTracker.
// Logging (DESIGN §6): with a WorkerLogger, the worker times each step and
// each operator of the dataflows it maintains. A peek of a log index asks
// the logger for its time; at the next step boundary (before stepping) the
// worker pulls a LogState from its dataflows and flushes it into the
// logging dataflows, which it then steps with the rest. Logging dataflows are not logged themselves (no feedback loop:
// a flush never causes another). Their exports are compacted by the worker
// (kLogRetention behind the last flush) and not reported as FrontierUpper.
// Threading: enqueue() and wake() from any thread; everything else runs on
// the worker thread. No lock is held while a dataflow steps.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "compute/arrangement/trace_handle.hpp"
#include "compute/dataflow/arrange_op.hpp"
#include "compute/dataflow/dataflow.hpp"
#include "compute/logging/peek_log.hpp"
#include "compute/logging/worker_logger.hpp"
#include "compute/protocol/command.hpp"
#include "compute/runtime/dataflow_shared.hpp"
#include "compute/runtime/peek_tracker.hpp"
#include "compute/runtime/sink_tracker.hpp"

namespace tandem::compute {

struct WorkerCommand {
  ComputeCommand command;
  std::shared_ptr<DataflowShared> shared;  // CreateDataflow only
};

class Worker {
 public:
  // `logger` may be null (no logging); `peek_log` is read by worker 0's
  // flushes only.
  Worker(std::size_t index, PeekTracker* peeks, FrontierTracker* frontiers, SinkTracker* sinks,
         std::unique_ptr<logging::WorkerLogger> logger = nullptr, const logging::PeekLog* peek_log = nullptr);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  void start();
  // Stops the thread after the commands already queued; joins it.
  void shutdown();
  void enqueue(WorkerCommand command);
  void wake();

 private:
  struct Export {
    ArrangeOp* op = nullptr;
    TraceHandle oks_hold;  // the read hold AllowCompaction advances
    TraceHandle errs_hold;
    Timestamp reported = kMinTimestamp;
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
  };
  struct Parked {
    Peek peek;
    TraceHandle oks_hold;
    TraceHandle errs_hold;
  };

  void run();
  void handle(WorkerCommand& command);
  void create(const CreateDataflow& create, DataflowShared& shared);
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

  std::vector<Installed> dataflows_;
  std::unordered_map<GlobalId, Export> exports_;
  std::unordered_map<GlobalId, std::vector<Parked>> parked_;
  std::map<GlobalId, Sink> sink_exports_;

  std::unique_ptr<logging::WorkerLogger> logger_;
  const logging::PeekLog* peek_log_;
  std::int64_t next_log_id_ = 1;
};

// How far behind its last flush a log index keeps history (ms).
inline constexpr Timestamp kLogRetention = 60'000;

}  // namespace tandem::compute
