#include "bench/tandem_bench/stats.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

namespace tandem::bench {

double nearest_rank(const std::vector<double>& sorted, double p) {
  assert(!sorted.empty() && p > 0 && p <= 100);
  // The epsilon keeps p * n that is a whole number in exact arithmetic (99.9%
  // of 10,000) from rounding up to the next rank in floating point.
  auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size()) / 100.0 - 1e-9));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

Summary summarize(std::vector<double> samples, uint64_t errors, double seconds) {
  Summary s;
  s.count = samples.size();
  s.errors = errors;
  s.qps = seconds > 0 ? static_cast<double>(s.count) / seconds : 0;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.avg = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.count);
  s.p50 = nearest_rank(samples, 50);
  s.p95 = nearest_rank(samples, 95);
  if (s.count >= kMinSamplesP99) s.p99 = nearest_rank(samples, 99);
  if (s.count >= kMinSamplesP999) s.p999 = nearest_rank(samples, 99.9);
  s.max = samples.back();
  return s;
}

}  // namespace tandem::bench
