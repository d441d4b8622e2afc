#pragma once
// A scenario is code: a name, what read path it guards, its arms, and a run
// function that loads data into a fresh tandemd and runs its phases through
// an ArmContext. Each arm is a name plus system parameter settings, given to
// a new server at boot (--system-parameter-default: parameters such as
// enable_compute_interactive_runtime are read when a cluster is provisioned,
// the default cluster included), so arms differ by nothing but those
// settings and are measured one after the other in one invocation.
// Threading: one thread runs a scenario.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/tandem_bench/load_driver.hpp"
#include "bench/tandem_bench/results.hpp"
#include "bench/tandem_bench/sql_session.hpp"

namespace tandem::bench {

struct Arm {
  std::string name;
  Settings settings;
};

// Sizes and durations: full mode is the measurement, quick mode proves in a
// few seconds that the scenario runs and produces numbers.
struct Scale {
  bool quick = false;
  uint64_t rows(uint64_t full, uint64_t quick_rows) const { return quick ? quick_rows : full; }
  Duration seconds(double full, double quick_s) const {
    return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(quick ? quick_s : full));
  }
  Duration capacity_window() const { return seconds(3, 0.4); }
  Duration drain_limit() const { return seconds(120, 30); }
};

// Latency arms run at this fraction of the capacity measured just before.
inline constexpr double kTargetUtilization = 0.3;

// The offered rate of each calibrated stream (by name), decided by the
// scenario's first arm and reused by the others, so that all arms carry the
// same load and differ only by their settings (each arm still measures and
// reports its own capacity and utilization).
using RateBook = std::map<std::string, double>;

class ArmContext {
 public:
  ArmContext(Scale scale, std::string conninfo, ArmResult& out, RateBook& rates);

  const Scale& scale() const { return scale_; }
  const std::string& conninfo() const { return conninfo_; }
  // A blocking session (user materialize) for set-up statements.
  SqlSession& sql();

  // Measures `spec`'s closed-loop capacity (successful iterations per second
  // over the capacity window, with its own connections), then makes it open
  // loop at kTargetUtilization of that capacity divided by `sharing` (the
  // number of latency streams that run at once, so their sum stays at the
  // target) — or at the rate the first arm chose (RateBook). A query that
  // never succeeds has capacity 0 and runs at `fallback_qps` (its failures
  // are counted, and no utilization shown).
  void calibrate(StreamSpec& spec, int sharing = 1, double fallback_qps = 5);
  // Makes `spec` open loop on `schedule`; its utilization is reported
  // against a capacity measured now (when `measure`) or not at all.
  void fix_rate(StreamSpec& spec, Schedule schedule, bool measure);

  // Runs one phase of all `streams` and records it. Calibrated and fixed-rate
  // streams report capacity and utilization; a stream with `observe` also
  // reports its second metric as "<name> staleness".
  void phase(const std::string& name, Duration duration, const std::vector<StreamSpec>& streams);

 private:
  double measure_capacity(const StreamSpec& spec);

  Scale scale_;
  std::string conninfo_;
  ArmResult& out_;
  RateBook& rates_;
  std::unique_ptr<SqlSession> sql_;
  std::vector<std::pair<std::string, double>> capacity_;  // stream name -> qps
};

struct Scenario {
  std::string name;
  std::string guards;  // one line for the table, the JSON and the README
  bool contended = false;
  std::vector<Arm> arms;
  std::function<void(ArmContext&)> run;
};

// Every scenario, in the order a run measures them.
std::vector<Scenario> all_scenarios();

}  // namespace tandem::bench
