#include "bench/tandem_bench/results.hpp"

namespace tandem::bench {
namespace {

using nlohmann::json;

json query_json(const QueryResult& q) {
  json j = {{"name", q.name},
            {"kind", q.kind},
            {"background", q.background},
            {"load", q.open_loop ? "open" : "closed"},
            {"count", q.latency.count},
            {"errors", q.latency.errors},
            {"qps", q.latency.qps},
            {"avg_us", q.latency.avg},
            {"p50_us", q.latency.p50},
            {"p95_us", q.latency.p95},
            {"max_us", q.latency.max}};
  if (q.latency.p99) j["p99_us"] = *q.latency.p99;
  if (q.latency.p999) j["p99_9_us"] = *q.latency.p999;
  if (q.offered_qps) j["offered_qps"] = *q.offered_qps;
  if (q.capacity_qps) j["capacity_qps"] = *q.capacity_qps;
  if (q.utilization) j["utilization"] = *q.utilization;
  if (q.queue_delay) {
    j["queue_delay_avg_us"] = q.queue_delay->avg;
    j["queue_delay_p95_us"] = q.queue_delay->p95;
  }
  if (!q.first_error.empty()) j["first_error"] = q.first_error;
  if (!q.timeline.empty()) {
    json points = json::array();
    for (const auto& p : q.timeline) points.push_back(json::array({p.at_s, p.ok ? json(p.latency_us) : json()}));
    j["timeline"] = std::move(points);
  }
  return j;
}

}  // namespace

nlohmann::json to_json(const RunResult& run) {
  json scenarios = json::array();
  for (const auto& s : run.scenarios) {
    json arms = json::array();
    for (const auto& a : s.arms) {
      json settings = json::object();
      for (const auto& [k, v] : a.settings) settings[k] = v;
      json phases = json::array();
      for (const auto& p : a.phases) {
        json queries = json::array();
        for (const auto& q : p.queries) queries.push_back(query_json(q));
        phases.push_back({{"name", p.name}, {"seconds", p.seconds}, {"queries", std::move(queries)}});
      }
      json arm = {{"name", a.name}, {"settings", std::move(settings)}, {"phases", std::move(phases)}};
      if (!a.error.empty()) arm["error"] = a.error;
      arms.push_back(std::move(arm));
    }
    scenarios.push_back(
        {{"name", s.name}, {"guards", s.guards}, {"contended", s.contended}, {"arms", std::move(arms)}});
  }
  return {{"tool", "tandem-bench"},
          {"mode", run.quick ? "quick" : "full"},
          {"started", run.started},
          {"scenarios", std::move(scenarios)}};
}

bool produced_numbers(const ScenarioResult& s) {
  if (s.arms.empty()) return false;
  for (const auto& a : s.arms) {
    if (!a.error.empty() || a.phases.empty()) return false;
    for (const auto& p : a.phases)
      for (const auto& q : p.queries)
        if (q.latency.count + q.latency.errors == 0) return false;
  }
  return true;
}

}  // namespace tandem::bench
