// SinkTracker: combines the N workers' sink reports into SinkBatch
// responses (compute/protocol/response.hpp).
//
// Each worker reports, after a step, the updates its part of the sinked
// arrangement sealed since its last report and its upper. A worker may run
// ahead of the others: its updates wait here until the least upper over all
// workers passes their time. Whenever that least upper advances, one
// SinkBatch carries every waiting update with time < it, so the controller
// sees each time's updates exactly once and complete.
// Threading: any worker thread; one mutex, held to merge a report.
#pragma once

#include <map>
#include <mutex>
#include <vector>

#include "compute/protocol/response.hpp"
#include "compute/runtime/response_queue.hpp"

namespace tandem::compute {

class SinkTracker {
 public:
  SinkTracker(std::size_t workers, ResponseQueue* responses) : workers_(workers), responses_(responses) {}

  void report(GlobalId sink, std::size_t worker, Timestamp upper, std::vector<SinkUpdate> oks,
              std::vector<SinkUpdate> errs);
  void forget(GlobalId sink);

 private:
  struct Entry {
    std::vector<Timestamp> per_worker;
    Timestamp reported = kMinTimestamp;
    std::vector<SinkUpdate> oks;
    std::vector<SinkUpdate> errs;
  };
  const std::size_t workers_;
  ResponseQueue* responses_;
  std::mutex mutex_;
  std::map<GlobalId, Entry> sinks_;
};

}  // namespace tandem::compute
