// Trace: the owner's side of a shared arrangement: a Spine plus its
// publication to readers (TraceHandle).
//
// The owner (one maintenance worker) inserts batches and spends idle fuel.
// After each change the Trace (1) sets the spine's logical compaction to the
// least since held by live handles (unchanged while no handle is live) and
// (2) publishes a fresh TraceSnapshot of the spine's batch list, upper and
// since. Readers never see a half-done step: a snapshot lists the inputs of
// an unfinished merge, not its partial output.
//
// Threading: all methods are for the owner's thread only. Handles, snapshots
// and batches are what cross threads (see trace_handle.hpp).
#pragma once

#include <memory>

#include "compute/arrangement/spine.hpp"
#include "compute/arrangement/trace_handle.hpp"

namespace tandem::compute {

class Trace {
 public:
  explicit Trace(Timestamp lower = kMinTimestamp, SpineOptions options = {});
  // Adopts `placeholder` (a publication readers may already hold) in place.
  Trace(std::shared_ptr<TracePublication> placeholder, Timestamp lower = kMinTimestamp, SpineOptions options = {});

  // A new reader handle holding the current logical compaction frontier.
  TraceHandle handle() { return TraceHandle(publication_, spine_.since()); }

  // REQUIRES batch->lower() == upper().
  void insert(BatchPtr batch);
  // Seals [upper(), upper) with no updates. REQUIRES upper >= upper().
  void advance_upper(Timestamp upper);
  // Idle merging; see Spine::exert.
  void exert(std::int64_t& fuel);
  // Picks up changed holds and republishes; for steps that inserted nothing.
  void refresh();

  Timestamp upper() const { return spine_.upper(); }
  Timestamp since() const { return spine_.since(); }
  const Spine& spine() const { return spine_; }
  // For registries that hand out handles by copying one; any thread.
  const std::shared_ptr<TracePublication>& publication() const { return publication_; }

 private:
  void apply_holds();
  void publish();

  Spine spine_;
  std::shared_ptr<TracePublication> publication_;
};

}  // namespace tandem::compute
