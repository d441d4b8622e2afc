#include "frontend/coord/hydration_tracker.hpp"

namespace tandem::frontend {

void HydrationTracker::created(compute::GlobalId object, compute::GlobalId export_id, uint64_t cluster,
                               Timestamp as_of, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  Export e;
  e.status.object_id = object;
  e.status.cluster = cluster;
  e.status.as_of = as_of;
  e.status.write_frontier = as_of;
  e.export_id = export_id;
  e.created = now;
  objects_[object] = e;
  by_export_[export_id] = object;
}

void HydrationTracker::advanced(compute::GlobalId id, Timestamp upper, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto it = objects_.find(id);
  if (it == objects_.end()) {
    auto e = by_export_.find(id);
    if (e == by_export_.end()) return;
    it = objects_.find(e->second);
    if (it == objects_.end()) return;
  }
  catalog::ComputeObjectStatus& s = it->second.status;
  if (upper > s.write_frontier) s.write_frontier = upper;
  if (!s.hydrated && s.write_frontier > s.as_of) {
    s.hydrated = true;
    s.hydration_time_us = std::chrono::duration_cast<std::chrono::microseconds>(now - it->second.created).count();
  }
}

void HydrationTracker::dropped(compute::GlobalId export_id) {
  std::lock_guard lock(mutex_);
  auto e = by_export_.find(export_id);
  if (e == by_export_.end()) return;
  auto it = objects_.find(e->second);
  // A later dataflow may have re-used the object id's slot only through a
  // new create, which re-pointed it at its own export.
  if (it != objects_.end() && it->second.export_id == export_id) objects_.erase(it);
  by_export_.erase(e);
}

std::vector<catalog::ComputeObjectStatus> HydrationTracker::statuses() const {
  std::lock_guard lock(mutex_);
  std::vector<catalog::ComputeObjectStatus> out;
  out.reserve(objects_.size());
  for (const auto& [id, e] : objects_) out.push_back(e.status);
  return out;
}

}  // namespace tandem::frontend
