// OffloadedWalk: a fast-path walk moved to the offload pool.
// Runtime::walk_if_ready hands over a walk begun inline once it
// passes the inline budget, or before it begins when it would read spilled
// blocks back from the spill (spill_probe.hpp); a Worker hands over the walk
// of a peek it answers when that walk would page. So neither a session's
// thread nor a worker waits on the spill's I/O, and one
// long walk never stalls the lookups queued behind it.
//
// The walk owns what it reads: the snapshots it opens on the pool (`parts`)
// or the scan begun inline, and `holds` (since holds at the read's time).
// Both are released, and `on_end` runs, before the answer is delivered
// through the ticket, so a waiter that has the answer finds them released.
// The ticket's cancel() stops the walk between two slices of `slice`
// positions (or before it starts): it answers Canceled.
//
// Threading: built by one thread, then owned by the pool job (or by the
// caller that finishes it itself after the pool refused it).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "compute/arrangement/trace_handle.hpp"
#include "compute/protocol/command.hpp"
#include "compute/protocol/response.hpp"
#include "compute/runtime/index_scan.hpp"
#include "compute/runtime/offload_pool.hpp"
#include "compute/runtime/offloaded_peek.hpp"
#include "compute/runtime/peek_tracker.hpp"

namespace tandem::compute {

struct OffloadedWalk {
  Peek peek;                           // what `parts` are opened for
  std::vector<IndexScan::Part> parts;  // opened on the pool when `scan` is null
  std::unique_ptr<IndexScan> scan;     // or a walk begun inline
  PeekResponse response;               // its uuid, and the rows walked so far
  std::vector<TraceHandle> holds;
  std::function<void()> on_end;
};

// Walks `walk` to its end on this thread, opening its scan if needed; stops
// early once `ticket` (may be null) is canceled. The answer is in
// walk.response; the scan and parts are released.
void finish_walk(OffloadedWalk& walk, std::size_t slice, const OffloadedPeek* ticket);

// Queues `walk` on `pool` and returns the ticket that will answer; null when
// the pool refuses it (full or stopping), `walk` untouched.
std::shared_ptr<OffloadedPeek> submit_walk(OffloadPool& pool, std::shared_ptr<OffloadedWalk> walk,
                                           std::size_t slice);

// Where the walks a runtime's workers moved to the pool answer
// (worker_offload.cpp): the runtime's PeekTracker, as the worker's own
// partial answer, until the runtime stops (close()); a later answer is
// dropped, as nobody awaits it any more. Threading: any thread.
class OffloadedAnswers {
 public:
  explicit OffloadedAnswers(PeekTracker* peeks) : peeks_(peeks) {}
  void deliver(PeekId id, PeekResponse response);
  void close();

 private:
  std::mutex mutex_;
  PeekTracker* peeks_;  // guarded by mutex_; null once closed
};

}  // namespace tandem::compute
