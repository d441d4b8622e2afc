#include "bench/tandem_bench/workload.hpp"

namespace tandem::bench {

std::string isolation_setup(const std::string& level) { return "SET transaction_isolation = '" + level + "'"; }

void quiet_then_loaded(ArmContext& ctx, std::vector<StreamSpec> measured, const std::vector<StreamSpec>& steady,
                       const StreamSpec& load, const std::string& loaded_phase, Duration d) {
  for (auto& m : measured) ctx.calibrate(m, static_cast<int>(measured.size()));
  std::vector<StreamSpec> streams = measured;
  streams.insert(streams.end(), steady.begin(), steady.end());
  ctx.phase("quiet", d, streams);
  streams.push_back(load);
  ctx.phase(loaded_phase, d, streams);
}

void load_keyed_table(ArmContext& ctx, const std::string& name, uint64_t rows) {
  ctx.sql().exec("CREATE TABLE " + name + " (k int, v int)");
  ctx.sql().copy_in(name, rows, [](uint64_t i, std::string& line) {
    line = std::to_string(i) + '\t' + std::to_string(i * 7 % 1000);
  });
  ctx.sql().exec("CREATE INDEX " + name + "_k ON " + name + " (k)");
  ctx.sql().query("SELECT v FROM " + name + " WHERE k = 0");  // strict: waits for hydration
}

void load_big_table(ArmContext& ctx, uint64_t rows) {
  ctx.sql().exec("CREATE TABLE big (id bigint, v int)");
  ctx.sql().copy_in("big", rows, [](uint64_t i, std::string& line) {
    line = std::to_string(i) + '\t' + std::to_string(i % 100003);
  });
}

StreamSpec point_lookups(const std::string& name, const std::string& table, uint64_t first_key, uint64_t keys,
                         const std::string& isolation, int connections) {
  StreamSpec s;
  s.name = name;
  s.connections = connections;
  s.session_setup = {isolation_setup(isolation)};
  s.prepares = {{"lookup", "SELECT v FROM " + table + " WHERE k = $1"}};
  s.iteration = [first_key, keys](uint64_t i) {
    return Iteration{{"lookup", {std::to_string(first_key + spread(i, keys))}, true}};
  };
  return s;
}

StreamSpec hydration_churn() {
  StreamSpec s;
  s.name = "hydration cycle (CREATE INDEX, lookup, DROP)";
  s.background = true;
  s.iteration = [](uint64_t i) {
    return Iteration{{"CREATE INDEX big_churn ON big (v)", {}},
                     {"SELECT id FROM big WHERE v = $1", {std::to_string(spread(i, 100003))}},
                     {"DROP INDEX big_churn", {}, false, true}};
  };
  return s;
}

StreamSpec index_walks(const std::string& table, int connections) {
  StreamSpec s;
  s.name = "full index walk";
  s.background = true;
  s.connections = connections;
  s.session_setup = {isolation_setup("serializable")};
  s.prepares = {{"walk", "SELECT k FROM " + table + " WHERE v = -1"}};
  s.iteration = [](uint64_t) { return Iteration{{"walk", {}, true}}; };
  return s;
}

}  // namespace tandem::bench
