#pragma once
// HydrationTracker: the controller's record of every maintained dataflow
// export (index, materialized view, subscribe) on each replica, for
// mz_internal's hydration and replica frontier relations
// (catalog/controller_status.hpp).
//
// An export is *hydrated* once its output frontier has passed its as_of:
// compute reports an index export's upper as the least over all workers
// (FrontierUpper) and a sink's upper once every worker has sealed it
// (SinkBatch), so `upper > as_of` means every worker has computed the
// snapshot. hydration_time is the wall time from the dataflow's creation
// command to the report that crossed the as_of, as the coordinator saw it.
//
// Threading: written on the coordinator thread, read from any thread (a
// read plans mz_internal relations on the session's thread); one mutex,
// held only to update an entry or copy them all.
#include <chrono>
#include <map>
#include <mutex>
#include <vector>

#include "catalog/controller_status.hpp"
#include "compute/plan/global_id.hpp"

namespace tandem::frontend {

class HydrationTracker {
 public:
  using Clock = std::chrono::steady_clock;

  // A dataflow was created on `cluster` as of `as_of`: `object` (an index,
  // or the view or subscribe a sink writes) is exported through the
  // dataflow's index export `export_id` (the id DropDataflow names and
  // FrontierUpper reports).
  void created(compute::GlobalId object, compute::GlobalId export_id, uint64_t cluster, Timestamp as_of,
               Clock::time_point now = Clock::now());
  // FrontierUpper (`id` = the export) or SinkBatch (`id` = the sink): the
  // output frontier advanced to `upper`. Unknown ids are ignored.
  void advanced(compute::GlobalId id, Timestamp upper, Clock::time_point now = Clock::now());
  // DropDataflow of `export_id`: its objects are gone.
  void dropped(compute::GlobalId export_id);

  std::vector<catalog::ComputeObjectStatus> statuses() const;

 private:
  struct Export {
    catalog::ComputeObjectStatus status;
    compute::GlobalId export_id = 0;
    Clock::time_point created;
  };
  mutable std::mutex mutex_;
  std::map<compute::GlobalId, Export> objects_;             // by object id
  std::map<compute::GlobalId, compute::GlobalId> by_export_;  // export id -> object id
};

}  // namespace tandem::frontend
