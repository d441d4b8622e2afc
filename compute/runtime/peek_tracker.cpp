#include "compute/runtime/peek_tracker.hpp"

#include <algorithm>

namespace tandem::compute {

void PeekTracker::fail(PeekId id, Status status) {
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
    pending_.erase(it);
  }
  PeekResponse r;
  r.uuid = id;
  r.kind = PeekResponse::Kind::kError;
  r.error = std::move(status);
  if (on_answered_) on_answered_(id);
  responses_->push(std::move(r));
}

void PeekTracker::contribute(PeekId id, std::vector<std::pair<Row, Diff>> rows, IndexPart part, Status status,
                             bool canceled) {
  PeekResponse r;
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
    Pending& p = it->second;
    p.canceled |= canceled;
    if (!status.is_ok() && p.error.is_ok()) p.error = std::move(status);
    for (auto& row : rows) p.rows.push_back(std::move(row));
    if (part.first) p.parts.push_back(std::move(part));
    if (--p.remaining > 0) return;
    r.uuid = id;
    if (p.canceled) {
      r.kind = PeekResponse::Kind::kCanceled;
    } else if (!p.error.is_ok()) {
      r.kind = PeekResponse::Kind::kError;
      r.error = std::move(p.error);
    } else if (!p.parts.empty()) {
      r.kind = PeekResponse::Kind::kSnapshots;
      r.parts = std::move(p.parts);
    } else {
      r.kind = PeekResponse::Kind::kRows;
      r.rows = std::move(p.rows);
    }
    pending_.erase(it);
  }
  // Logged before the answer leaves, so a read that follows it sees it.
  if (on_answered_) on_answered_(id);
  responses_->push(std::move(r));
}

void FrontierTracker::report(GlobalId id, std::size_t worker, Timestamp upper) {
  // Pushed under the lock so reports for one id leave in increasing order.
  std::lock_guard lock(mutex_);
  Entry& e = uppers_[id];
  if (e.per_worker.empty()) e.per_worker.assign(workers_, kMinTimestamp);
  e.per_worker[worker] = std::max(e.per_worker[worker], upper);
  const Timestamp least = *std::min_element(e.per_worker.begin(), e.per_worker.end());
  if (least <= e.reported) return;
  e.reported = least;
  responses_->push(FrontierUpper{id, least});
}

}  // namespace tandem::compute
