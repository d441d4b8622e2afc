#pragma once
// The human side of a run: the results table a scenario prints when it
// ends (one line per arm, phase and query, then the ratio between the arms)
// and the SVG charts written beside results.json.
// Threading: called from the run's thread.

#include <string>

#include "bench/tandem_bench/results.hpp"

namespace tandem::bench {

void print_scenario(const ScenarioResult& s);

// Latency percentiles (p50, p95, p99 where supported) per arm, phase and
// query, log scale; plus, for queries with a timeline, each sample's latency
// against its arrival time, one panel per arm and phase.
std::string scenario_svg(const ScenarioResult& s);

}  // namespace tandem::bench
