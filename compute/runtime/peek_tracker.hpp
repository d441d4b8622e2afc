// PeekTracker: combines the N workers' partial answers to one peek into the
// single PeekResponse the protocol promises.
//
// The runtime registers a peek before any worker sees it, expecting N
// partials. Each worker contributes exactly once per registered peek: its
// rows, an error, or "canceled". When the last partial arrives the response
// is queued and the entry forgotten, so a late cancel finds nothing and
// produces nothing. Precedence: any cancel -> Canceled, else any error -> the
// first error, else the union of the rows, or of the snapshot parts for a
// `stream` peek (each worker contributes the one or the other). fail() answers a peek at once
// (e.g. unknown index) and makes later partials no-ops.
// Threading: any worker thread; one mutex, held to merge a partial.
#pragma once

#include <functional>
#include <map>
#include <mutex>

#include "compute/protocol/response.hpp"
#include "compute/runtime/response_queue.hpp"

namespace tandem::compute {

class PeekTracker {
 public:
  PeekTracker(std::size_t workers, ResponseQueue* responses) : workers_(workers), responses_(responses) {}
  // Called (on the answering thread, no lock held) once a peek's one
  // response is queued. Set before any peek begins.
  void set_on_answered(std::function<void(PeekId)> on_answered) { on_answered_ = std::move(on_answered); }

  void begin(PeekId id) {
    std::lock_guard lock(mutex_);
    pending_[id] = Pending{workers_, {}, {}, {}, false};
  }
  void rows(PeekId id, std::vector<std::pair<Row, Diff>> rows) { contribute(id, std::move(rows), {}, Status(), false); }
  void snapshots(PeekId id, IndexPart part) { contribute(id, {}, std::move(part), Status(), false); }
  void error(PeekId id, Status status) { contribute(id, {}, {}, std::move(status), false); }
  void canceled(PeekId id) { contribute(id, {}, {}, Status(), true); }
  void fail(PeekId id, Status status);
  std::size_t outstanding() const {
    std::lock_guard lock(mutex_);
    return pending_.size();
  }

 private:
  struct Pending {
    std::size_t remaining;
    std::vector<std::pair<Row, Diff>> rows;
    std::vector<IndexPart> parts;
    Status error;
    bool canceled;
  };
  // `part` is empty (null snapshots) unless the worker answered with one.
  void contribute(PeekId id, std::vector<std::pair<Row, Diff>> rows, IndexPart part, Status status, bool canceled);

  const std::size_t workers_;
  ResponseQueue* responses_;
  std::function<void(PeekId)> on_answered_;
  mutable std::mutex mutex_;
  std::map<PeekId, Pending> pending_;
};

// FrontierTracker: reports an export's upper when the least upper over all
// workers advances. Threading: any worker thread; one mutex.
class FrontierTracker {
 public:
  FrontierTracker(std::size_t workers, ResponseQueue* responses) : workers_(workers), responses_(responses) {}
  void report(GlobalId id, std::size_t worker, Timestamp upper);
  void forget(GlobalId id) {
    std::lock_guard lock(mutex_);
    uppers_.erase(id);
  }

 private:
  struct Entry {
    std::vector<Timestamp> per_worker;
    Timestamp reported = kMinTimestamp;
  };
  const std::size_t workers_;
  ResponseQueue* responses_;
  std::mutex mutex_;
  std::map<GlobalId, Entry> uppers_;
};

}  // namespace tandem::compute
