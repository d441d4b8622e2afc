#include "bench/tandem_bench/schedule.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace tandem::bench {

Schedule Schedule::fixed_rate(double per_second) {
  assert(per_second > 0);
  Schedule s;
  s.per_second_ = per_second;
  return s;
}

Schedule Schedule::at_offsets(std::vector<Duration> offsets) {
  Schedule s;
  s.fixed_ = false;
  std::sort(offsets.begin(), offsets.end());
  s.offsets_ = std::move(offsets);
  return s;
}

std::optional<Duration> Schedule::arrival(uint64_t i, Duration end) const {
  Duration at;
  if (fixed_) {
    // Computed from i, not accumulated, so rounding never drifts the schedule.
    at = Duration(static_cast<int64_t>(std::llround(static_cast<double>(i) * 1e9 / per_second_)));
  } else {
    if (i >= offsets_.size()) return std::nullopt;
    at = offsets_[i];
  }
  if (at >= end) return std::nullopt;
  return at;
}

uint64_t Schedule::arrivals_before(Duration end) const {
  if (!fixed_) return static_cast<uint64_t>(std::lower_bound(offsets_.begin(), offsets_.end(), end) - offsets_.begin());
  uint64_t n = static_cast<uint64_t>(std::ceil(static_cast<double>(end.count()) * per_second_ / 1e9));
  // ceil() may count an arrival that falls exactly on `end` or round the other way.
  while (n > 0 && !arrival(n - 1, end)) --n;
  while (arrival(n, end)) ++n;
  return n;
}

double Schedule::rate(Duration end) const {
  if (fixed_) return per_second_;
  double seconds = std::chrono::duration<double>(end).count();
  return seconds > 0 ? static_cast<double>(arrivals_before(end)) / seconds : 0;
}

}  // namespace tandem::bench
