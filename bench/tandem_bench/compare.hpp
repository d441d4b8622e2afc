#pragma once
// The regression gate of `tandem-bench --compare OLD.json`: every measured
// (scenario, arm, phase, query) of the new run is matched by name with the old
// run's, and qps, avg, p50 and p95 are gated: worse by more than
// kContendedLimit on a contended scenario (one that runs load beside what it
// measures) or kQuietLimit elsewhere is a regression. p99 is reported beside
// them, never gated (its sample counts are small and it moves with the
// machine). Background load (hydration churn, walks) is not gated. A query
// that had successful samples before and has none now is a regression.
// "Worse" is old/new for qps and new/old for latencies.
// Threading: pure functions.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tandem::bench {

inline constexpr double kContendedLimit = 1.5;
inline constexpr double kQuietLimit = 1.2;

struct CompareLine {
  std::string where;   // scenario / arm / phase / query
  std::string metric;  // qps, avg_us, p50_us, p95_us, p99_us, count
  double old_value = 0;
  double new_value = 0;
  double worse_by = 0;  // > 1: worse
  double limit = 0;     // 0: reported only
  bool regressed = false;
};

std::vector<CompareLine> compare_runs(const nlohmann::json& old_run, const nlohmann::json& new_run);

// Prints the comparison; returns the number of regressions.
int print_comparison(const std::vector<CompareLine>& lines);

}  // namespace tandem::bench
