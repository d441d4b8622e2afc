#include "compute/runtime/sink_tracker.hpp"

#include <algorithm>

namespace tandem::compute {
namespace {

// Moves the updates of `from` with time < upper to `to`.
void take_before(std::vector<SinkUpdate>& from, Timestamp upper, std::vector<SinkUpdate>* to) {
  auto keep = std::stable_partition(from.begin(), from.end(), [&](const SinkUpdate& u) { return u.time >= upper; });
  to->insert(to->end(), std::make_move_iterator(keep), std::make_move_iterator(from.end()));
  from.erase(keep, from.end());
}

}  // namespace

void SinkTracker::report(GlobalId sink, std::size_t worker, Timestamp upper, std::vector<SinkUpdate> oks,
                         std::vector<SinkUpdate> errs) {
  std::lock_guard lock(mutex_);
  Entry& e = sinks_[sink];
  if (e.per_worker.empty()) e.per_worker.assign(workers_, kMinTimestamp);
  e.per_worker[worker] = std::max(e.per_worker[worker], upper);
  for (SinkUpdate& u : oks) e.oks.push_back(std::move(u));
  for (SinkUpdate& u : errs) e.errs.push_back(std::move(u));
  const Timestamp least = *std::min_element(e.per_worker.begin(), e.per_worker.end());
  if (least <= e.reported) return;
  e.reported = least;
  SinkBatch batch;
  batch.sink_id = sink;
  batch.upper = least;
  take_before(e.oks, least, &batch.oks);
  take_before(e.errs, least, &batch.errs);
  responses_->push(std::move(batch));
}

void SinkTracker::forget(GlobalId sink) {
  std::lock_guard lock(mutex_);
  sinks_.erase(sink);
}

}  // namespace tandem::compute
