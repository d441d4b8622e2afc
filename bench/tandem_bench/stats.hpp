#pragma once
// Latency statistics of one measured query: what results.json and the table
// report per scenario, arm, phase and query.
//
// Percentiles are nearest-rank over the successful samples (the value at
// rank ceil(p/100 * n)). A percentile is reported only when the sample count
// supports it: p99 needs at least kMinSamplesP99 samples and p99.9 at least
// kMinSamplesP999; with fewer it is absent (nullopt), never guessed from a
// handful of points. Failed queries are counted in `errors` and never enter
// the latency figures; qps counts successes only.
// Threading: plain values and pure functions.

#include <cstdint>
#include <optional>
#include <vector>

namespace tandem::bench {

inline constexpr std::size_t kMinSamplesP99 = 1000;
inline constexpr std::size_t kMinSamplesP999 = 10000;

// The nearest-rank percentile of `sorted` (ascending, non-empty), p in (0, 100].
double nearest_rank(const std::vector<double>& sorted, double p);

struct Summary {
  uint64_t count = 0;   // successful samples
  uint64_t errors = 0;  // failed (or unanswered) queries
  double qps = 0;       // successes per second of the phase
  double avg = 0;       // the rest in microseconds; 0 when count == 0
  double p50 = 0;
  double p95 = 0;
  std::optional<double> p99;
  std::optional<double> p999;
  double max = 0;
};

// Summarizes `samples` (µs, any order) taken over `seconds` of wall clock.
Summary summarize(std::vector<double> samples, uint64_t errors, double seconds);

}  // namespace tandem::bench
