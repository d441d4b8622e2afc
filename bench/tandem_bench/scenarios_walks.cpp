// Scenarios about long fast-path walks of an index sharing a cluster with
// short reads and with maintenance.
#include "bench/tandem_bench/scenarios.hpp"
#include "bench/tandem_bench/workload.hpp"

namespace tandem::bench {

// Guards point lookups against expensive peeks: a lookup on a small index
// must not queue behind full walks of a large index on the same cluster.
Scenario peek_isolation_under_expensive_peeks() {
  Scenario s;
  s.name = "PeekIsolationUnderExpensivePeeks";
  s.guards = "a point lookup must not queue behind full index walks on the same cluster";
  s.contended = true;
  s.run = [](ArmContext& ctx) {
    const uint64_t keys = 10000;
    load_keyed_table(ctx, "kv", keys);
    load_keyed_table(ctx, "wide", ctx.scale().rows(1'000'000, 20'000));
    auto lookups = point_lookups("point lookup (serializable)", "kv", 0, keys, "serializable", 2);
    quiet_then_loaded(ctx, {lookups}, {}, index_walks("wide", 1), "index walks", ctx.scale().seconds(15, 1.5));
  };
  return s;
}

// Guards maintenance against expensive peeks: the walks of the scenario
// above must not hold back the frontier of an index maintained on the same
// cluster. One sample writes a row and reads the indexed view that counts it
// (strict serializable, so the read waits until the index has applied the
// write): the write-to-visible time.
Scenario freshness_under_peek_walks() {
  Scenario s;
  s.name = "FreshnessUnderPeekWalks";
  s.guards = "full index walks must not hold back a maintained index's frontier (write-to-visible time)";
  s.contended = true;
  s.run = [](ArmContext& ctx) {
    const uint64_t groups = 1000;
    load_keyed_table(ctx, "wide", ctx.scale().rows(1'000'000, 20'000));
    ctx.sql().exec("CREATE TABLE w (k int, v int)");
    ctx.sql().exec("CREATE VIEW agg AS SELECT k, count(*) AS c FROM w GROUP BY k");
    ctx.sql().exec("CREATE INDEX agg_k ON agg (k)");
    StreamSpec fresh;
    fresh.name = "INSERT then strict read of the indexed view";
    fresh.connections = 2;
    fresh.prepares = {{"write", "INSERT INTO w VALUES ($1, 1)"}, {"read", "SELECT c FROM agg WHERE k = $1"}};
    fresh.iteration = [groups](uint64_t i) {
      std::string k = std::to_string(spread(i, groups));
      return Iteration{{"write", {k}, true}, {"read", {k}, true}};
    };
    quiet_then_loaded(ctx, {fresh}, {}, index_walks("wide", 1), "index walks", ctx.scale().seconds(15, 1.5));
  };
  return s;
}

// Guards the fast path against one skewed key: a key holding millions of
// rows makes one lookup walk them all (a fast-path lookup with a filter no
// row passes); normal lookups arriving at 100/s meanwhile must not
// stall behind it (the offload pool takes long walks off the inline path):
// their p99 is compared with a quiet phase without walks. The walk repeats
// every second of its phase, so about a quarter of the normal lookups
// arrive while one runs (not two walks a phase, whose few overlapping
// lookups left the p99 to chance).
// Every normal lookup is kept on a timeline, so the stall windows show.
Scenario skewed_point_lookup() {
  Scenario s;
  s.name = "SkewedPointLookup";
  s.guards = "normal lookups at 100/s, alone and while a lookup walks a key holding millions of rows every second (timeline)";
  s.contended = true;
  s.run = [](ArmContext& ctx) {
    const uint64_t normal_keys = 10000;
    const uint64_t skewed_rows = ctx.scale().rows(2'000'000, 50'000);
    ctx.sql().exec("CREATE TABLE sk (k int, v int)");
    ctx.sql().copy_in("sk", skewed_rows + normal_keys, [&](uint64_t i, std::string& l) {
      l = (i < skewed_rows ? std::string("0") : std::to_string(i - skewed_rows + 1)) + '\t' + std::to_string(i);
    });
    ctx.sql().exec("CREATE INDEX sk_k ON sk (k)");
    ctx.sql().query("SELECT v FROM sk WHERE k = 1");  // hydrated
    StreamSpec skewed;
    skewed.name = "skewed lookup (walks the hot key)";
    skewed.background = true;
    skewed.timeline = true;  // its arrivals mark the stall windows on the timeline chart
    skewed.session_setup = {isolation_setup("serializable")};
    skewed.prepares = {{"skewed", "SELECT v FROM sk WHERE k = 0 AND v < 0"}};
    skewed.iteration = [](uint64_t) { return Iteration{{"skewed", {}, true}}; };
    Duration d = ctx.scale().seconds(20, 2);
    std::vector<Duration> walk_offsets;
    for (int i = 0; i < 20; ++i) walk_offsets.push_back(d * i / 20 + d / 40);
    skewed.schedule = Schedule::at_offsets(std::move(walk_offsets));
    // 100 lookups/s for 20 s: 2,000 samples a phase (p99 is the 20th
    // slowest), first without walks (the baseline the goal compares with:
    // p99 during walks <= 2x), then with the skewed walk every second.
    for (const bool walks : {false, true}) {
      auto lookups = point_lookups("normal lookup", "sk", 1, normal_keys, "serializable", 2);
      lookups.timeline = true;
      ctx.fix_rate(lookups, Schedule::fixed_rate(100.0), !walks);
      std::vector<StreamSpec> streams{lookups};
      if (walks) streams.push_back(skewed);
      ctx.phase(walks ? "skewed walks" : "quiet", d, streams);
    }
  };
  return s;
}

}  // namespace tandem::bench
