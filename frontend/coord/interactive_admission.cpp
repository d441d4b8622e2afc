#include "frontend/coord/interactive_admission.hpp"

#include <algorithm>

namespace tandem::frontend {

InteractiveAdmission::Ticket InteractiveAdmission::acquire(uint64_t cluster, size_t limit,
                                                           std::function<void()> admitted, Clock::time_point now) {
  Ticket ticket = 0;
  std::vector<std::function<void()>> grant;
  {
    std::lock_guard lock(mutex_);
    ticket = next_ticket_++;
    Cluster& c = clusters_[cluster];
    c.totals.cluster = cluster;
    c.limit = std::max<size_t>(1, limit);
    c.queue.push_back(Waiter{ticket, now, std::move(admitted)});
    waiting_[ticket] = cluster;
    admit_waiters(c, now, grant);
  }
  for (auto& g : grant) g();
  return ticket;
}

bool InteractiveAdmission::cancel(Ticket ticket) {
  std::lock_guard lock(mutex_);
  auto it = waiting_.find(ticket);
  if (it == waiting_.end()) return false;
  Cluster& c = clusters_[it->second];
  waiting_.erase(it);
  auto w = std::find_if(c.queue.begin(), c.queue.end(), [ticket](const Waiter& w) { return w.ticket == ticket; });
  if (w != c.queue.end()) c.queue.erase(w);
  ++c.totals.canceled_total;
  return true;
}

void InteractiveAdmission::release(uint64_t cluster, Clock::time_point now) {
  std::vector<std::function<void()>> grant;
  {
    std::lock_guard lock(mutex_);
    auto it = clusters_.find(cluster);
    if (it == clusters_.end() || it->second.active == 0) return;
    --it->second.active;
    admit_waiters(it->second, now, grant);
  }
  for (auto& g : grant) g();
}

void InteractiveAdmission::admit_waiters(Cluster& c, Clock::time_point now,
                                         std::vector<std::function<void()>>& grant) {
  while (c.active < c.limit && !c.queue.empty()) {
    Waiter w = std::move(c.queue.front());
    c.queue.pop_front();
    waiting_.erase(w.ticket);
    ++c.active;
    const auto waited = std::chrono::duration_cast<std::chrono::nanoseconds>(now - w.since).count();
    const uint64_t ns = static_cast<uint64_t>(std::max<int64_t>(0, waited));
    ++c.totals.admitted_total;
    if (ns > 0) ++c.totals.waited_total;
    c.totals.wait_ns_total += ns;
    c.totals.wait_ns_max = std::max(c.totals.wait_ns_max, ns);
    grant.push_back(std::move(w.admitted));
  }
}

std::vector<catalog::InteractiveAdmissionStatus> InteractiveAdmission::stats() const {
  std::lock_guard lock(mutex_);
  std::vector<catalog::InteractiveAdmissionStatus> out;
  for (const auto& [id, c] : clusters_) {
    catalog::InteractiveAdmissionStatus s = c.totals;
    s.limit = c.limit;
    s.active = c.active;
    s.queued = c.queue.size();
    out.push_back(s);
  }
  return out;
}

}  // namespace tandem::frontend
