// Runtime: the in-process maintenance runtime, N worker threads behind the
// ComputeClient interface (compute/protocol/compute_client.hpp).
//
// send() broadcasts each command to every worker in one global order (a
// mutex serialises senders), so all workers build the same dataflows in the
// same order and see peeks after the dataflows they read. A Peek is
// registered with the PeekTracker before it is broadcast; a Peek of an index
// the runtime never created is answered at once with an error.
// Inputs: create_input(id) makes a source collection that dataflows import
// by id (Get kSource); feed it through the returned InputHandle. This is the
// seam where storage's listen will plug in.
// Logging: with options.logging the runtime installs its logging dataflows
// first (their index ids are logging::log_index_id, the same in every
// runtime), and every read is recorded in the PeekLog: a peek sent to the
// workers when it begins and when it is answered, a read answered on the
// caller's thread (peek_if_ready, scan_if_ready) when it ends.
// Interactive: with a publisher, the runtime serves peeks of
// the publisher's indexes and runs one-shot dataflows that import them,
// zero-copy, from the publisher's registry (see worker.hpp and
// multiplexer.hpp, which routes a cluster's commands between the two).
// Threading: all public methods may be called from any thread. The
// destructor stops and joins the workers.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "compute/logging/peek_log.hpp"
#include "compute/logging/worker_logger.hpp"
#include "compute/protocol/compute_client.hpp"
#include "compute/runtime/thread_class.hpp"
#include "compute/runtime/input_handle.hpp"
#include "compute/runtime/offload_pool.hpp"
#include "compute/runtime/peek_tracker.hpp"
#include "compute/runtime/publication_registry.hpp"
#include "compute/runtime/response_queue.hpp"
#include "compute/runtime/sink_tracker.hpp"
#include "compute/runtime/worker.hpp"

namespace tandem::compute {

struct RuntimeOptions {
  std::size_t workers = 1;
  // Logging dataflows: the mz_introspection indexes, created
  // with the runtime, one per log variant (compute/logging/log_variant.hpp).
  bool logging = true;
  // The runtime's name in the logs (mz_runtime_step_durations_histogram,
  // mz_recent_peeks).
  std::string name = "maintenance";
  // The runtime reads answered on the caller's thread from this runtime's
  // published arrangements are logged under (empty: `name`); "interactive"
  // when a cluster's interactive runtime is on.
  std::string reads_name;
  // How compute ids are printed in the logs (export_id, object_id); by
  // default the bare number.
  logging::IdFormatter format_id;
  // Where fast-path walks past the inline budget continue (walk_if_ready);
  // shared by every runtime of the process. None: they walk inline.
  std::shared_ptr<OffloadPool> offload_pool;
  // An interactive runtime reads the indexes `publisher` (the maintenance
  // runtime of its cluster, with as many workers, outliving it) exports;
  // it is given no logging of its own.
  class Runtime* publisher = nullptr;
  // Shared by a cluster's two runtimes (null: the runtime's own): the queue
  // both answer into, the log of reads, and the interactive runtime's step
  // durations (counted by it, logged by the maintenance runtime).
  std::shared_ptr<ResponseQueue> responses;
  std::shared_ptr<logging::PeekLog> peek_log;
  std::shared_ptr<logging::SharedSteps> record_steps;
  std::shared_ptr<logging::SharedSteps> peer_steps;
  // How the workers are scheduled (thread_class.hpp).
  ThreadClass thread_class = ThreadClass::Normal;
};

class Runtime final : public ComputeClient {
 public:
  explicit Runtime(RuntimeOptions options = {});
  ~Runtime() override;

  void send(ComputeCommand command) override;
  std::optional<ComputeResponse> try_recv() override { return responses_->try_pop(); }
  std::optional<ComputeResponse> recv(std::chrono::milliseconds timeout) override { return responses_->pop(timeout); }
  void set_response_waker(std::function<void()> waker) override { responses_->set_waker(std::move(waker)); }
  // Answers `peek` on the calling thread from the published arrangements
  // when every worker's part is sealed past its time (see
  // publication_registry.hpp); nullopt otherwise.
  std::optional<PeekResponse> peek_if_ready(const Peek& peek, std::size_t inline_budget) override;
  std::optional<Result<std::unique_ptr<IndexScan>>> scan_if_ready(const Peek& peek) override;
  // offloaded_walk.cpp
  std::optional<ReadyPeek> walk_if_ready(const Peek& peek, std::size_t inline_budget, bool offload) override;
  std::optional<Timestamp> published_upper(GlobalId id) const override;

  // REQUIRES: no input or index with this id exists yet.
  std::shared_ptr<InputHandle> create_input(GlobalId id);
  // Lets this runtime's dataflows read another runtime's input.
  void share_input(GlobalId id, std::shared_ptr<InputHandle> input);
  std::size_t workers() const { return workers_.size(); }
  // Every worker's publication of index `id` once all have published.
  std::optional<std::vector<PublicationRegistry::Part>> published(GlobalId id) const { return publications_.parts(id); }
  // Stops and joins the workers (idempotent; the destructor does it too).
  void stop();

  // The publisher's side (a maintenance runtime).
  PublicationRegistry& publications() { return publications_; }
  // Asks worker `worker` to log past `time`; when it is inside a step,
  // when that step started.
  StepStart request_logs(std::size_t worker, Timestamp time);

  // The interactive runtime's side, called by the multiplexer in its
  // command order: the standing hold on published index `id` at `as_of`
  // (REQUIRES before the publisher's workers see its CreateDataflow), and
  // its release when the index is dropped.
  void hold_published(GlobalId id, Timestamp as_of);
  void release_published(GlobalId id);

 private:
  // The snapshots of every part of `peek.target` when its time is sealed
  // and readable on all of them; nullopt otherwise.
  // With `publications`, also the publications the snapshots came from.
  std::optional<std::vector<IndexScan::Part>> sealed_parts(
      const Peek& peek, std::vector<PublicationRegistry::Part>* publications = nullptr);
  void wake(std::size_t worker) { workers_[worker]->wake(); }

  const std::string name_;
  const std::string reads_name_;
  // Shared with scans that may outlive the runtime's use of them.
  std::shared_ptr<logging::PeekLog> peek_log_;
  std::shared_ptr<ResponseQueue> responses_;
  std::shared_ptr<logging::SharedSteps> record_steps_;
  std::shared_ptr<logging::SharedSteps> peer_steps_;
  Runtime* publisher_;
  Peer peer_;
  // Lets the publisher's registry wake this runtime's workers until it stops.
  struct WakeGate {
    std::mutex mutex;
    Runtime* runtime = nullptr;
  };
  std::shared_ptr<WakeGate> gate_;
  PeekTracker peeks_;
  FrontierTracker frontiers_;
  SinkTracker sinks_;
  PublicationRegistry publications_;
  const std::shared_ptr<OffloadPool> offload_pool_;
  // Where the workers' offloaded walks answer: peeks_ until stop().
  std::shared_ptr<OffloadedAnswers> offloaded_answers_;
  std::vector<std::unique_ptr<Worker>> workers_;

  std::mutex mutex_;  // serialises send() and guards the registries below
  std::map<GlobalId, std::shared_ptr<InputHandle>> inputs_;
  std::set<GlobalId> shared_inputs_;  // of inputs_: another runtime's
  std::map<GlobalId, std::vector<GlobalId>> dataflow_of_export_;  // export -> all exports of its dataflow
  std::set<GlobalId> one_shot_exports_;  // of dataflows with an `until` (peek dataflows)
};

}  // namespace tandem::compute
