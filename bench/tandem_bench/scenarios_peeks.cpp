// Scenarios about peek dataflows (temporary dataflows built for one read).
#include "bench/tandem_bench/scenarios.hpp"
#include "bench/tandem_bench/workload.hpp"

namespace tandem::bench {

// Guards the fixed cost of a peek dataflow: a join of two small indexed
// tables on a quiet cluster, closed loop on one connection, so the latency
// is the create / run / tear-down floor of a temporary dataflow (Materialize
// measures ~900 ms; tandem aims at ≤ 1 ms).
Scenario temporary_dataflow_floor() {
  Scenario s;
  s.name = "TemporaryDataflowFloor";
  s.guards = "the fixed cost of a peek dataflow: a join of two small indexed tables, closed loop, quiet cluster";
  s.contended = false;
  s.run = [](ArmContext& ctx) {
    ctx.sql().exec("CREATE TABLE ja (id int, v int)");
    ctx.sql().exec("CREATE TABLE jb (id int, w int)");
    ctx.sql().copy_in("ja", 100, [](uint64_t i, std::string& l) { l = std::to_string(i) + '\t' + std::to_string(2 * i); });
    ctx.sql().copy_in("jb", 100, [](uint64_t i, std::string& l) { l = std::to_string(i) + '\t' + std::to_string(3 * i); });
    ctx.sql().exec("CREATE INDEX ja_id ON ja (id)");
    ctx.sql().exec("CREATE INDEX jb_id ON jb (id)");
    StreamSpec join;
    join.name = "join of two indexed 100-row tables";
    join.prepares = {{"join", "SELECT ja.id, ja.v, jb.w FROM ja JOIN jb ON ja.id = jb.id"}};
    join.iteration = [](uint64_t) { return Iteration{{"join", {}, true}}; };
    ctx.phase("quiet", ctx.scale().seconds(10, 1), {join});
  };
  return s;
}

// Guards maintenance freshness against peek dataflows: ad-hoc queries that
// build temporary dataflows on the cluster maintaining a materialized view
// must not hold back the view. Measured by strict serializable reads of the
// view from another cluster while rows are written to its input at a fixed
// rate: a strict read waits until the view's upper passes the read time, so
// its latency is how far the view lags the writes.
Scenario freshness_under_peek_dataflows() {
  Scenario s;
  s.name = "FreshnessUnderPeekDataflows";
  s.guards = "a materialized view's freshness (strict reads from another cluster) while its cluster runs peek dataflows";
  s.contended = true;
  s.run = [](ArmContext& ctx) {
    const uint64_t groups = 1000;
    ctx.sql().exec("CREATE CLUSTER maint (SIZE = '1')");
    ctx.sql().exec("CREATE CLUSTER reader (SIZE = '1')");
    ctx.sql().exec("CREATE TABLE t (k int, v int)");
    ctx.sql().copy_in("t", ctx.scale().rows(1'000'000, 20'000), [&](uint64_t i, std::string& l) {
      l = std::to_string(i % groups) + '\t' + std::to_string(i);
    });
    ctx.sql().exec(
        "CREATE MATERIALIZED VIEW mv IN CLUSTER maint AS SELECT k, count(*) AS c, sum(v) AS s FROM t GROUP BY k");
    StreamSpec reads;
    reads.name = "strict read of the view from another cluster";
    reads.connections = 2;
    reads.session_setup = {"SET cluster = reader"};
    reads.prepares = {{"read", "SELECT c FROM mv WHERE k = $1"}};
    reads.iteration = [groups](uint64_t i) { return Iteration{{"read", {std::to_string(spread(i, groups))}, true}}; };
    StreamSpec writes;
    writes.name = "INSERT into the view's input";
    writes.background = true;
    writes.connections = 2;
    writes.prepares = {{"write", "INSERT INTO t VALUES ($1, 1)"}};
    writes.iteration = [groups](uint64_t i) { return Iteration{{"write", {std::to_string(spread(i, groups))}, true}}; };
    writes.schedule = Schedule::fixed_rate(ctx.scale().quick ? 50 : 100);
    StreamSpec peeks;
    peeks.name = "peek dataflow on the view's cluster";
    peeks.background = true;
    peeks.session_setup = {"SET cluster = maint", isolation_setup("serializable")};
    peeks.prepares = {{"peek", "SELECT count(*), max(v) FROM t WHERE v > $1"}};
    peeks.iteration = [](uint64_t i) { return Iteration{{"peek", {std::to_string(i % 100)}, true}}; };
    ctx.sql().query("SELECT c FROM mv WHERE k = 0");  // the view is hydrated
    quiet_then_loaded(ctx, {reads}, {writes}, peeks, "peek dataflows", ctx.scale().seconds(15, 1.5));
  };
  return s;
}

}  // namespace tandem::bench
