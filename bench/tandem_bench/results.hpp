#pragma once
// What a tandem-bench run measured, and its results.json form:
//   {"tool": "tandem-bench", "mode": "quick"|"full", "started": ISO time,
//    "scenarios": [{"name", "guards", "contended", "error"?,
//      "arms": [{"name", "settings": {param: value}, "error"?,
//        "phases": [{"name", "seconds",
//          "queries": [{"name", "kind": "latency"|"staleness", "background",
//            "load": "open"|"closed", "count", "errors", "qps", "avg_us",
//            "p50_us", "p95_us", "p99_us"?, "p99_9_us"?, "max_us",
//            "offered_qps"?, "capacity_qps"?, "utilization"?,
//            "queue_delay_avg_us"?, "queue_delay_p95_us"?, "first_error"?,
//            "timeline"?: [[arrival_s, latency_us|null], ...]}]}]}]}]}
// p99 / p99.9 are absent when the sample count does not support them
// (stats.hpp). Utilization is the offered rate over the capacity measured
// just before, closed loop, on the same server.
// Threading: plain values.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/tandem_bench/load_driver.hpp"
#include "bench/tandem_bench/stats.hpp"

namespace tandem::bench {

struct QueryResult {
  std::string name;
  std::string kind = "latency";  // or "staleness": the samples are read time minus the data's frontier
  bool background = false;
  bool open_loop = false;
  Summary latency;
  std::optional<Summary> queue_delay;  // open loop only
  std::optional<double> offered_qps;   // open loop only
  std::optional<double> capacity_qps;
  std::optional<double> utilization;
  std::string first_error;
  std::vector<TimelinePoint> timeline;
};

struct PhaseResult {
  std::string name;
  double seconds = 0;
  std::vector<QueryResult> queries;
};

using Settings = std::vector<std::pair<std::string, std::string>>;

struct ArmResult {
  std::string name;
  Settings settings;
  std::vector<PhaseResult> phases;
  std::string error;  // set when the arm could not run to its end
};

struct ScenarioResult {
  std::string name;
  std::string guards;
  bool contended = false;
  std::vector<ArmResult> arms;
};

struct RunResult {
  bool quick = false;
  std::string started;
  std::vector<ScenarioResult> scenarios;
};

nlohmann::json to_json(const RunResult& run);

// True when every arm of the scenario ran to its end and every query
// measured at least one sample (a success or a counted error).
bool produced_numbers(const ScenarioResult& s);

}  // namespace tandem::bench
