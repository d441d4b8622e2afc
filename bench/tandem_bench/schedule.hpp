#pragma once
// When the open-loop driver issues its queries: arrivals on a fixed
// wall-clock schedule, decided before the run and never moved by how long
// earlier queries take (no coordinated omission). A query whose arrival finds
// every connection of its pool busy waits in a client-side queue, and that
// wait is part of its latency (reported separately as queue delay).
//
// Arrival i is at offset(i) from the phase start; a schedule is either a
// fixed rate (offset(i) = i / rate) or an explicit list of offsets (the
// skewed query injected at chosen moments). Arrivals at or after the phase's
// end are not issued.
// Threading: plain value.

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace tandem::bench {

using Duration = std::chrono::nanoseconds;

class Schedule {
 public:
  // `per_second` arrivals a second, the first at offset 0. REQUIRES rate > 0.
  static Schedule fixed_rate(double per_second);
  // Arrivals at the given offsets (sorted here).
  static Schedule at_offsets(std::vector<Duration> offsets);

  // The offset of arrival `i`, or nullopt if there is none before `end`.
  std::optional<Duration> arrival(uint64_t i, Duration end) const;
  // Number of arrivals before `end`.
  uint64_t arrivals_before(Duration end) const;
  // Arrivals per second (fixed rate), or the list's count over `end`.
  double rate(Duration end) const;

 private:
  double per_second_ = 0;
  std::vector<Duration> offsets_;
  bool fixed_ = true;
};

}  // namespace tandem::bench
