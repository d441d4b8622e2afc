#include "bench/tandem_bench/compare.hpp"

#include <cstdio>
#include <map>

namespace tandem::bench {
namespace {

using nlohmann::json;

// The array under `key`, by reference (value() would copy, and the index
// below keeps pointers into the run), or an empty one.
const json& list(const json& j, const char* key) {
  static const json kEmpty = json::array();
  auto it = j.find(key);
  return it != j.end() && it->is_array() ? *it : kEmpty;
}

// (scenario/arm/phase/query) -> the query's object, for every query of a run.
std::map<std::string, const json*> index_queries(const json& run) {
  std::map<std::string, const json*> out;
  for (const auto& s : list(run, "scenarios"))
    for (const auto& a : list(s, "arms"))
      for (const auto& p : list(a, "phases"))
        for (const auto& q : list(p, "queries"))
          out[s.value("name", "") + " / " + a.value("name", "") + " / " + p.value("name", "") + " / " +
              q.value("name", "")] = &q;
  return out;
}

bool is_contended(const json& run, const std::string& where) {
  for (const auto& s : list(run, "scenarios"))
    if (where.rfind(s.value("name", "") + " / ", 0) == 0) return s.value("contended", false);
  return false;
}

}  // namespace

std::vector<CompareLine> compare_runs(const json& old_run, const json& new_run) {
  std::vector<CompareLine> lines;
  auto old_queries = index_queries(old_run);
  for (const auto& [where, now] : index_queries(new_run)) {
    auto it = old_queries.find(where);
    if (it == old_queries.end()) continue;
    const json& before = *it->second;
    bool gated = !now->value("background", false);
    double limit = is_contended(new_run, where) ? kContendedLimit : kQuietLimit;
    if (before.value("count", 0) > 0 && now->value("count", 0) == 0) {
      lines.push_back({where, "count", before.value("count", 0.0), 0, 0, 0, gated});
      continue;
    }
    for (const char* metric : {"qps", "avg_us", "p50_us", "p95_us", "p99_us"}) {
      if (!before.contains(metric) || !now->contains(metric)) continue;
      double o = before[metric].get<double>(), n = (*now)[metric].get<double>();
      if (o <= 0 || n <= 0) continue;
      bool higher_is_better = std::string(metric) == "qps";
      CompareLine line{where, metric, o, n, higher_is_better ? o / n : n / o, 0, false};
      if (gated && std::string(metric) != "p99_us") {
        line.limit = limit;
        line.regressed = line.worse_by > limit;
      }
      lines.push_back(line);
    }
  }
  return lines;
}

int print_comparison(const std::vector<CompareLine>& lines) {
  int regressions = 0;
  std::printf("\ncomparison with the old run (worse-by > limit is a regression; p99 not gated)\n");
  for (const auto& l : lines) {
    if (l.regressed) ++regressions;
    if (l.metric == "count") {
      std::printf("REGRESSION %-70s no successful samples (before: %.0f)\n", l.where.c_str(), l.old_value);
      continue;
    }
    std::printf("%-10s %-70s %-7s %12.1f -> %12.1f  worse-by %5.2fx%s\n", l.regressed ? "REGRESSION" : "",
                l.where.c_str(), l.metric.c_str(), l.old_value, l.new_value, l.worse_by,
                l.limit > 0 ? (" (limit " + std::to_string(l.limit).substr(0, 3) + "x)").c_str() : "");
  }
  std::printf("%d regression(s)\n", regressions);
  return regressions;
}

}  // namespace tandem::bench
