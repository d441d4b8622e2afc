// Scenarios that read while the same cluster hydrates a large index again
// and again (the long, run-to-completion maintenance steps).
#include <charconv>

#include "bench/tandem_bench/scenarios.hpp"
#include "bench/tandem_bench/workload.hpp"

namespace tandem::bench {
namespace {

// Parses a mz_timestamp (milliseconds) printed as text.
std::optional<uint64_t> millis(const char* text) {
  uint64_t v = 0;
  const char* end = text + std::char_traits<char>::length(text);
  auto [p, ec] = std::from_chars(text, end, v);
  if (ec != std::errc() || p != end || p == text) return std::nullopt;
  return v;
}

}  // namespace

// Guards the fast path during hydration: a point lookup on an index that is
// already built must not wait for another index's hydration step on the same
// cluster. Serializable lookups need no frontier to advance and show the
// isolation itself; strict serializable ones, reported separately, also wait
// for the oracle's read time to be sealed, which hydration may delay.
Scenario read_isolation_under_hydration() {
  Scenario s;
  s.name = "ReadIsolationUnderHydration";
  s.guards = "fast-path point reads at a fixed rate while the cluster hydrates a large new index again and again";
  s.contended = true;
  s.run = [](ArmContext& ctx) {
    const uint64_t keys = 10000;
    load_keyed_table(ctx, "kv", keys);
    load_big_table(ctx, ctx.scale().rows(2'000'000, 50'000));
    auto serializable = point_lookups("point lookup (serializable)", "kv", 0, keys, "serializable", 2);
    auto strict = point_lookups("point lookup (strict serializable)", "kv", 0, keys, "strict serializable", 2);
    quiet_then_loaded(ctx, {serializable, strict}, {}, hydration_churn(), "hydrating", ctx.scale().seconds(15, 1.5));
  };
  return s;
}

// A stream whose one query returns (mz_now(), a frontier); the latency is
// the query's, the staleness the read time minus the frontier (0 when the
// frontier is already past the read time).
StreamSpec staleness_probe(const std::string& name, const std::string& sql) {
  StreamSpec s;
  s.name = name;
  s.connections = 2;
  // Serializable: the read takes the latest time its inputs allow instead of
  // waiting for the oracle's, so a lagging frontier shows as staleness.
  s.session_setup = {isolation_setup("serializable")};
  s.iteration = [sql](uint64_t) { return Iteration{{sql, {}}}; };
  s.observe = [](const PGresult* res) -> std::optional<double> {
    if (PQntuples(res) != 1 || PQnfields(res) != 2 || PQgetisnull(res, 0, 1)) return std::nullopt;
    auto now = millis(PQgetvalue(res, 0, 0)), frontier = millis(PQgetvalue(res, 0, 1));
    if (!now || !frontier) return std::nullopt;
    return *frontier >= *now ? 0.0 : static_cast<double>(*now - *frontier) * 1000.0;  // µs
  };
  return s;
}

// Guards introspection during hydration: "what is my cluster doing?" must
// answer promptly exactly while hydration saturates the cluster, and with
// data not much older than the read. Two staleness probes: the highest
// frontier the logged introspection data reports
// (mz_introspection.mz_compute_frontiers: how far behind the last logged
// step is), and the write frontier of an index already built on the same
// cluster as the controller reports it (mz_internal.mz_frontiers: how far
// hydration holds back the cluster's maintained data). Relations that do not
// exist yet fail, and their queries are counted as errors.
Scenario introspection_under_hydration() {
  Scenario s;
  s.name = "IntrospectionUnderHydration";
  s.guards = "introspection reads (arrangement sizes) and their staleness while hydration churn saturates the cluster";
  s.contended = true;
  s.run = [](ArmContext& ctx) {
    load_keyed_table(ctx, "kv", 10000);
    load_big_table(ctx, ctx.scale().rows(2'000'000, 50'000));
    StreamSpec sizes;
    sizes.name = "mz_dataflow_arrangement_sizes";
    sizes.connections = 2;
    sizes.iteration = [](uint64_t) {
      return Iteration{{"SELECT count(*), sum(records) FROM mz_introspection.mz_dataflow_arrangement_sizes", {}}};
    };
    auto logged = staleness_probe("mz_compute_frontiers",
                                  "SELECT mz_now(), max(time) FROM mz_introspection.mz_compute_frontiers");
    auto controller = staleness_probe("mz_frontiers (index kv_k)",
                                      "SELECT mz_now(), f.write_frontier FROM mz_internal.mz_frontiers f "
                                      "JOIN mz_indexes i ON i.id = f.object_id WHERE i.name = 'kv_k'");
    quiet_then_loaded(ctx, {sizes, logged, controller}, {}, hydration_churn(), "hydrating",
                      ctx.scale().seconds(15, 1.5));
  };
  return s;
}

}  // namespace tandem::bench
