// Scenarios that read while the same cluster hydrates a large index again
// and again (the long, run-to-completion maintenance steps of DESIGN §1).
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

// Guards introspection during hydration: "what is my cluster doing?" must
// answer promptly exactly while hydration saturates the cluster, and with
// data that is not much older than the read. Staleness is the read time
// (mz_now()) minus the most advanced frontier the introspection data reports
// (mz_introspection.mz_compute_frontiers): how far behind the last logged
// step is. Until those relations exist the queries fail and are counted as
// errors.
Scenario introspection_under_hydration() {
  Scenario s;
  s.name = "IntrospectionUnderHydration";
  s.guards = "introspection reads (arrangement sizes) and their staleness while hydration churn saturates the cluster";
  s.contended = true;
  s.run = [](ArmContext& ctx) {
    load_big_table(ctx, ctx.scale().rows(2'000'000, 50'000));
    StreamSpec sizes;
    sizes.name = "mz_dataflow_arrangement_sizes";
    sizes.connections = 2;
    sizes.iteration = [](uint64_t) {
      return Iteration{{"SELECT count(*), sum(records) FROM mz_introspection.mz_dataflow_arrangement_sizes", {}}};
    };
    StreamSpec frontier;
    frontier.name = "mz_compute_frontiers";
    frontier.connections = 2;
    frontier.iteration = [](uint64_t) {
      return Iteration{{"SELECT mz_now(), max(time) FROM mz_introspection.mz_compute_frontiers", {}}};
    };
    frontier.observe = [](const PGresult* res) -> std::optional<double> {
      if (PQntuples(res) != 1 || PQnfields(res) != 2 || PQgetisnull(res, 0, 1)) return std::nullopt;
      auto now = millis(PQgetvalue(res, 0, 0)), upper = millis(PQgetvalue(res, 0, 1));
      if (!now || !upper) return std::nullopt;
      return *upper >= *now ? 0.0 : static_cast<double>(*now - *upper) * 1000.0;  // µs
    };
    quiet_then_loaded(ctx, {sizes, frontier}, {}, hydration_churn(), "hydrating", ctx.scale().seconds(15, 1.5));
  };
  return s;
}

}  // namespace tandem::bench
