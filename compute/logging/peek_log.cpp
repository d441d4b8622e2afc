#include "compute/logging/peek_log.hpp"

#include <algorithm>

#include <bit>

namespace tandem::compute::logging {

std::uint64_t duration_bucket(std::uint64_t ns) {
  if (ns <= 1) return 1;
  if (ns > (std::uint64_t{1} << 63)) return std::uint64_t{1} << 63;
  return std::bit_ceil(ns);
}

std::size_t duration_bucket_index(std::uint64_t ns) {
  return static_cast<std::size_t>(std::countr_zero(duration_bucket(ns)));
}

Timestamp wall_clock_ms() {
  return static_cast<Timestamp>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

const char* read_path_name(ReadPath path) {
  switch (path) {
    case ReadPath::kFastPath: return "fast_path";
    case ReadPath::kDataflow: return "dataflow";
    case ReadPath::kOffloaded: return "offloaded";
  }
  return "fast_path";
}

void PeekLog::begin(PeekId id, GlobalId target, Timestamp time, ReadPath path, std::string runtime) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  pending_[id] = Pending{Active{next_seq_++, target, time}, path, std::move(runtime), now};
}

void PeekLog::finish(PeekId id) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  auto it = pending_.find(id);
  if (it == pending_.end()) return;
  const Pending& p = it->second;
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now - p.start).count();
  record(Finished{p.active.seq, p.active.target, p.runtime, p.path, static_cast<std::uint64_t>(ns), wall_clock_ms()});
  pending_.erase(it);
}

void PeekLog::served(GlobalId target, ReadPath path, std::string runtime,
                     std::chrono::steady_clock::time_point start) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
  const Timestamp at = wall_clock_ms();
  std::lock_guard lock(mutex_);
  record(Finished{next_seq_++, target, std::move(runtime), path, static_cast<std::uint64_t>(ns), at});
}

void PeekLog::record(Finished finished) {
  const std::size_t bucket = duration_bucket_index(finished.duration_ns);
  ++histogram_[bucket];
  auto it = std::find_if(by_path_.begin(), by_path_.end(), [&](const PathHistogram& h) {
    return h.path == finished.path && h.runtime == finished.runtime;
  });
  if (it == by_path_.end()) it = by_path_.insert(by_path_.end(), PathHistogram{finished.runtime, finished.path});
  ++it->histogram[bucket];
  ++it->count;
  it->sum_ns += finished.duration_ns;
  recent_.push_back(std::move(finished));
  while (recent_.size() > window_) recent_.pop_front();
}

std::vector<PeekLog::PathHistogram> PeekLog::path_histograms() const {
  std::lock_guard lock(mutex_);
  return by_path_;
}

PeekLog::Snapshot PeekLog::snapshot() const {
  std::lock_guard lock(mutex_);
  Snapshot s;
  s.histogram = histogram_;
  s.recent.assign(recent_.begin(), recent_.end());
  for (const auto& [id, p] : pending_) s.active.push_back(p.active);
  return s;
}

}  // namespace tandem::compute::logging
