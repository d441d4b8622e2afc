#include "bench/tandem_bench/report.hpp"

#include <cstdio>

namespace tandem::bench {
namespace {

std::string us(double v) {
  char buf[32];
  if (v >= 100000) std::snprintf(buf, sizeof buf, "%.0fms", v / 1000);
  else if (v >= 10000) std::snprintf(buf, sizeof buf, "%.1fms", v / 1000);
  else std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

std::string opt_us(const std::optional<double>& v) { return v ? us(*v) : "-"; }

const QueryResult* find(const ArmResult& arm, const std::string& phase, const std::string& query) {
  for (const auto& p : arm.phases)
    if (p.name == phase)
      for (const auto& q : p.queries)
        if (q.name == query) return &q;
  return nullptr;
}

}  // namespace

void print_scenario(const ScenarioResult& s) {
  std::printf("\n== %s: %s\n", s.name.c_str(), s.guards.c_str());
  std::printf("%-12s %-15s %-48s %-5s %7s %5s %9s %8s %8s %8s %8s %8s %8s %5s %8s\n", "arm", "phase", "query (µs)",
              "load", "count", "err", "qps", "avg", "p50", "p95", "p99", "p99.9", "max", "util", "qdel95");
  for (const auto& a : s.arms) {
    if (!a.error.empty()) std::printf("%-12s ERROR: %s\n", a.name.c_str(), a.error.c_str());
    for (const auto& p : a.phases)
      for (const auto& q : p.queries) {
        const Summary& l = q.latency;
        char util[16] = "-";
        if (q.utilization) std::snprintf(util, sizeof util, *q.utilization < 0.1 ? "%.1f%%" : "%.0f%%", *q.utilization * 100);
        std::printf("%-12s %-15s %-48.48s %-5s %7llu %5llu %9.1f %8s %8s %8s %8s %8s %8s %5s %8s\n", a.name.c_str(),
                    p.name.c_str(), q.name.c_str(), q.open_loop ? "open" : "closed",
                    static_cast<unsigned long long>(l.count), static_cast<unsigned long long>(l.errors), l.qps,
                    us(l.avg).c_str(), us(l.p50).c_str(), us(l.p95).c_str(), opt_us(l.p99).c_str(),
                    opt_us(l.p999).c_str(), us(l.max).c_str(), util,
                    q.queue_delay ? us(q.queue_delay->p95).c_str() : "-");
        if (!q.first_error.empty() && l.errors > 0) {
          std::string e = q.first_error;
          while (!e.empty() && e.back() == '\n') e.pop_back();
          std::printf("%-12s %-15s   first error: %s\n", "", "", e.substr(0, 160).c_str());
        }
      }
  }
  if (s.arms.size() < 2) return;
  const ArmResult& base = s.arms[0];
  const ArmResult& other = s.arms[1];
  std::printf("ratio %s / %s:\n", other.name.c_str(), base.name.c_str());
  for (const auto& p : base.phases)
    for (const auto& q : p.queries) {
      const QueryResult* o = find(other, p.name, q.name);
      if (!o || q.latency.count == 0 || o->latency.count == 0 || q.latency.p50 <= 0 || q.latency.qps <= 0) continue;
      std::printf("  %-15s %-48.48s p50 %.3gx  p95 %.3gx  qps %.3gx\n", p.name.c_str(), q.name.c_str(),
                  o->latency.p50 / q.latency.p50, o->latency.p95 / std::max(q.latency.p95, 1e-9),
                  o->latency.qps / q.latency.qps);
    }
}

}  // namespace tandem::bench
