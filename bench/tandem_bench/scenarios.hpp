#pragma once
// The scenario catalogue, one factory per scenario (see each definition for
// what it guards). all_scenarios() (scenarios.cpp) gives them their arms.

#include "bench/tandem_bench/scenario.hpp"

namespace tandem::bench {

Scenario read_isolation_under_hydration();
Scenario temporary_dataflow_floor();
Scenario introspection_under_hydration();
Scenario freshness_under_peek_dataflows();
Scenario peek_isolation_under_expensive_peeks();
Scenario freshness_under_peek_walks();
Scenario skewed_point_lookup();

}  // namespace tandem::bench
