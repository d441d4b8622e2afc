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
  Worker(std::size_t index, PeekTracker* peeks, FrontierTracker* frontiers, SinkTracker* sinks);
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
};

}  // namespace tandem::compute
