#include "bench/tandem_bench/scenario.hpp"

#include <algorithm>

namespace tandem::bench {

ArmContext::ArmContext(Scale scale, std::string conninfo, ArmResult& out, RateBook& rates)
    : scale_(scale), conninfo_(std::move(conninfo)), out_(out), rates_(rates) {}

SqlSession& ArmContext::sql() {
  if (!sql_) sql_ = std::make_unique<SqlSession>(conninfo_);
  return *sql_;
}

double ArmContext::measure_capacity(const StreamSpec& spec) {
  StreamSpec closed = spec;
  closed.schedule.reset();
  closed.timeline = false;
  LoadDriver driver(conninfo_);
  auto outcome = driver.run({closed}, scale_.capacity_window(), scale_.drain_limit());
  double seconds = std::chrono::duration<double>(scale_.capacity_window()).count();
  double qps = static_cast<double>(outcome[0].latency_us.size()) / seconds;
  capacity_.emplace_back(spec.name, qps);
  return qps;
}

void ArmContext::calibrate(StreamSpec& spec, int sharing, double fallback_qps) {
  double capacity = measure_capacity(spec);
  auto [it, first_arm] = rates_.try_emplace(spec.name, 0.0);
  if (first_arm) it->second = std::max(capacity > 0 ? kTargetUtilization * capacity / sharing : fallback_qps, 1.0);
  spec.schedule = Schedule::fixed_rate(it->second);
}

void ArmContext::fix_rate(StreamSpec& spec, Schedule schedule, bool measure) {
  if (measure) measure_capacity(spec);
  spec.schedule = std::move(schedule);
}

void ArmContext::phase(const std::string& name, Duration duration, const std::vector<StreamSpec>& streams) {
  LoadDriver driver(conninfo_);
  auto outcomes = driver.run(streams, duration, scale_.drain_limit());
  PhaseResult phase{name, std::chrono::duration<double>(duration).count(), {}};
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const StreamSpec& spec = streams[i];
    StreamOutcome& o = outcomes[i];
    QueryResult q;
    q.name = spec.name;
    q.background = spec.background;
    q.open_loop = spec.schedule.has_value();
    q.latency = summarize(o.latency_us, o.errors, phase.seconds);
    q.first_error = o.first_error;
    q.timeline = std::move(o.timeline);
    if (spec.schedule) {
      q.queue_delay = summarize(o.queue_us, 0, phase.seconds);
      q.offered_qps = spec.schedule->rate(duration);
      auto cap = std::find_if(capacity_.rbegin(), capacity_.rend(), [&](auto& c) { return c.first == spec.name; });
      if (cap != capacity_.rend()) {
        q.capacity_qps = cap->second;
        if (cap->second > 0) q.utilization = *q.offered_qps / cap->second;
      }
    }
    phase.queries.push_back(std::move(q));
    if (spec.observe) {
      QueryResult s;
      s.name = spec.name + " staleness";
      s.kind = "staleness";
      s.background = spec.background;
      s.open_loop = spec.schedule.has_value();
      s.latency = summarize(o.observed, o.errors + o.observe_missing, phase.seconds);
      s.first_error = o.observe_missing > 0 && o.first_error.empty() ? "no frontier in the result" : o.first_error;
      phase.queries.push_back(std::move(s));
    }
  }
  out_.phases.push_back(std::move(phase));
}

}  // namespace tandem::bench
