// WorkerLogger: one maintenance worker's side of logging
// (introspection).
//
// Hot path. While a worker steps, nothing here takes a lock or allocates:
// a dataflow accumulates its operators' scheduling time in place
// (Dataflow::elapsed_ns), arrangements keep their own sizes, and a step's
// duration is one counter increment (record_step). At a flush the worker
// describes what it runs now as a LogState (pulled from its dataflows:
// operators, arrangement sizes, export and import frontiers, error counts;
// worker 0 adds the runtime's PeekLog snapshot), and the logger turns it
// into rows of the raw logs (log_variant.hpp), diffs them against what it
// published before, and pushes the difference into the worker's log feeds
// at one time. So a dropped dataflow's rows are retracted by the next flush,
// and a measure that changed is one retraction plus one insertion.
//
// Time. A flush happens at a step boundary when a peek of a log index needs
// a time t the logs are not complete at yet (request_time): its updates are
// stamped t and the feeds' frontier moves to t + 1, so that peek reads the
// state as of its arrival, and an older read (t below the frontier) reads an
// earlier flush, exactly. Log times therefore advance with the reads of them
// and never run ahead of the timestamps reads pick (a strict serializable
// read takes the oracle's time, which may trail the wall clock). Between
// flushes nothing accumulates but counters and the current state (the
// LogState is pulled at the flush), and no timer wakes an idle worker.
// Threading: owned by one worker thread; the feeds are read by the same
// worker's logging dataflows.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/row.hpp"
#include "compute/dataflow/source_op.hpp"
#include "compute/logging/log_variant.hpp"
#include "compute/logging/peek_log.hpp"

namespace tandem::compute::logging {

// Prints a compute id the way the catalog names it ("u5", "t3").
using IdFormatter = std::function<std::string(GlobalId)>;

// One arrangement's sizes (mz_arrangement_sizes). `size` is the arrangement's
// bytes wherever they live: resident_bytes (in memory: batch columns and
// headers; a spilled batch keeps only its fences) plus spilled_bytes
// (written to the spill).
struct ArrangementSize {
  std::int64_t records = 0;
  std::int64_t batches = 0;
  std::int64_t size = 0;
  std::int64_t capacity = 0;
  std::int64_t allocations = 0;
  std::int64_t resident_bytes = 0;
  std::int64_t spilled_bytes = 0;
};

struct LoggedOperator {
  std::int64_t id = 0;
  std::string name;
  std::uint64_t elapsed_ns = 0;
  std::optional<ArrangementSize> arrangement;
};

struct LoggedExport {
  GlobalId id = 0;
  Timestamp upper = kMinTimestamp;
  std::int64_t error_count = 0;
};

struct LoggedImport {
  GlobalId id = 0;
  Timestamp frontier = kMinTimestamp;
};

struct LoggedDataflow {
  std::int64_t id = 0;
  std::string name;
  std::vector<LoggedOperator> operators;
  std::vector<LoggedExport> exports;
  std::vector<LoggedImport> imports;
};

// Cumulative counts of step durations in power-of-two buckets.
using StepHistogram = std::array<std::uint64_t, 64>;

// Step durations of a runtime that runs no logging of its own (the
// interactive runtime): its workers count them here and the
// maintenance worker with the same index logs them at each flush, under
// the other runtime's name. Relaxed atomics: a flush may trail by a step.
class SharedSteps {
 public:
  SharedSteps(std::string runtime, std::size_t workers) : runtime_(std::move(runtime)), counts_(workers) {}
  void record(std::size_t worker, std::chrono::nanoseconds duration) {
    counts_[worker][duration_bucket_index(duration.count())].fetch_add(1, std::memory_order_relaxed);
  }
  StepHistogram read(std::size_t worker) const {
    StepHistogram out{};
    if (worker >= counts_.size()) return out;
    for (std::size_t b = 0; b < out.size(); ++b) out[b] = counts_[worker][b].load(std::memory_order_relaxed);
    return out;
  }
  const std::string& runtime() const { return runtime_; }

 private:
  const std::string runtime_;
  std::vector<std::array<std::atomic<std::uint64_t>, 64>> counts_;
};

struct LogState {
  std::vector<LoggedDataflow> dataflows;
  const StepHistogram* steps = nullptr;
  // The other runtime's step durations on this worker index (its name, counts).
  std::optional<std::pair<std::string, StepHistogram>> peer_steps;
  std::optional<PeekLog::Snapshot> peeks;  // worker 0 only
};

using LogRows = std::array<std::vector<Row>, kLogSourceCount>;

// The raw log rows that describe `state` on worker `worker` of runtime
// `runtime` (column layouts in log_variant.hpp).
LogRows log_rows(const LogState& state, std::size_t worker, const std::string& runtime, const IdFormatter& format_id);

// Keeps what was published per raw log and turns new rows into updates.
class LogPublisher {
 public:
  // Updates (unkeyed: the row in `val`) at `time` that change the published
  // rows of each log into `rows`.
  std::array<std::vector<Update>, kLogSourceCount> publish(const LogRows& rows, Timestamp time);

 private:
  std::array<std::map<std::string, Diff>, kLogSourceCount> published_;
};

class WorkerLogger {
 public:
  WorkerLogger(std::size_t worker, std::string runtime, IdFormatter format_id);

  // This worker's feed of log source `id`, or null if `id` is no log source.
  std::shared_ptr<SourceFeed> feed(GlobalId id) const;
  void record_step(std::chrono::nanoseconds duration) { ++steps_[duration_bucket_index(duration.count())]; }
  // A peek of a log index at `time`: the next flush logs past it.
  void request_time(Timestamp time) { requested_ = std::max(requested_, time + 1); }
  // Whether a flush is due at a step boundary.
  bool flush_due() const { return requested_ > frontier_; }
  // Publishes `state` (its steps pointer is filled in here) and returns the
  // time the updates were stamped with; the feeds' frontier is past it.
  Timestamp flush(LogState state);
  // The least time the next flush may use: every log is complete below it.
  Timestamp frontier() const { return frontier_; }

 private:
  const std::size_t worker_;
  const std::string runtime_;
  IdFormatter format_id_;
  std::array<std::shared_ptr<SourceFeed>, kLogSourceCount> feeds_;
  LogPublisher publisher_;
  StepHistogram steps_{};
  Timestamp frontier_ = kMinTimestamp;
  Timestamp requested_ = kMinTimestamp;
};

}  // namespace tandem::compute::logging
