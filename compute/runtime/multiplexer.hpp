// Multiplexer: a cluster's compute, behind the ComputeClient interface: a
// maintenance runtime and, when enabled, an interactive runtime with as
// many workers, routed between.
//
// Routing.
//  CreateDataflow   one-shot dataflows (an `until`, no sink: a peek's
//                   transient dataflow) to interactive while interactive
//                   dataflows are enabled; everything else (indexes,
//                   materialized views, subscribes) to maintenance, whose
//                   exports interactive then reads. For a maintenance
//                   dataflow the exports' placeholder publications are made
//                   and interactive's standing holds taken at the as_of
//                   before maintenance sees the command (tests/models/
//                   compaction_holds.pml: the hold must exist first).
//  Peek             to the runtime that owns a one-shot target; a
//                   maintenance export (an index, a log index) to
//                   interactive, which reads the published arrangement.
//  AllowCompaction  of a maintenance export to both: interactive applies it
//                   to its standing hold, in its own command order, so a
//                   read queued there before it keeps its as_of readable.
//  DropDataflow     to the owner; a maintenance export's holds are released
//                   on interactive after it.
//  CancelPeek       to both (the one without the peek ignores it).
// Fast-path reads on the caller's thread (peek_if_ready, walk_if_ready with
// its offload, scan_if_ready) read
// maintenance's registry, as before. Responses of both runtimes arrive in
// one queue; reads of both are logged in one PeekLog, and the interactive
// runtime's step durations are logged by maintenance's logging.
// With the interactive runtime off it is the maintenance runtime alone.
// Threading: like Runtime; send() is serialised by a mutex.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "compute/runtime/runtime.hpp"

namespace tandem::compute {

struct MultiplexerOptions {
  RuntimeOptions maintenance;
  bool interactive_runtime = true;    // enable_compute_interactive_runtime
  bool interactive_dataflows = true;  // enable_compute_interactive_dataflows
  // With the interactive runtime, maintenance workers run as
  // ThreadClass::Background, so reads preempt long steps.
  bool background_maintenance = true;
};

class Multiplexer final : public ComputeClient {
 public:
  explicit Multiplexer(MultiplexerOptions options);
  ~Multiplexer() override;

  void send(ComputeCommand command) override;
  std::optional<ComputeResponse> try_recv() override { return responses_->try_pop(); }
  std::optional<ComputeResponse> recv(std::chrono::milliseconds timeout) override { return responses_->pop(timeout); }
  void set_response_waker(std::function<void()> waker) override { responses_->set_waker(std::move(waker)); }
  std::optional<PeekResponse> peek_if_ready(const Peek& peek, std::size_t inline_budget) override {
    return maintenance_->peek_if_ready(peek, inline_budget);
  }
  std::optional<ReadyPeek> walk_if_ready(const Peek& peek, std::size_t inline_budget, bool offload) override {
    return maintenance_->walk_if_ready(peek, inline_budget, offload);
  }
  std::optional<Result<std::unique_ptr<IndexScan>>> scan_if_ready(const Peek& peek) override {
    return maintenance_->scan_if_ready(peek);
  }
  std::optional<Timestamp> published_upper(GlobalId id) const override { return maintenance_->published_upper(id); }

  // A table or view source: fed once, read by both runtimes.
  std::shared_ptr<InputHandle> create_input(GlobalId id);
  std::size_t workers() const { return maintenance_->workers(); }
  bool interactive() const { return interactive_ != nullptr; }
  // The log of both runtimes' reads (any thread).
  const logging::PeekLog& peek_log() const { return *peek_log_; }
  bool interactive_dataflows() const { return interactive_ != nullptr && interactive_dataflows_; }
  // The maintenance runtime's arrangement registry (what interactive reads).
  PublicationRegistry& publications() { return maintenance_->publications(); }
  // The runtime a dataflow with this description runs on.
  bool routes_to_interactive(const DataflowDescription& desc) const;

 private:
  std::shared_ptr<ResponseQueue> responses_;
  const bool interactive_dataflows_;
  std::shared_ptr<logging::PeekLog> peek_log_;
  std::unique_ptr<Runtime> maintenance_;
  std::unique_ptr<Runtime> interactive_;

  std::mutex mutex_;  // serialises send()
  // Each export's dataflow's exports, and those on interactive.
  std::map<GlobalId, std::vector<GlobalId>> dataflow_of_;
  std::set<GlobalId> interactive_exports_;
};

}  // namespace tandem::compute
