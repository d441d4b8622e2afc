#include "bench/tandem_bench/scenarios.hpp"

#include "catalog/system_vars.hpp"

namespace tandem::bench {

std::vector<Scenario> all_scenarios() {
  // One runtime per cluster (maintenance serves every read) against the
  // interactive runtime.
  const std::vector<Arm> runtime_arms = {
      {"one-runtime", {{catalog::kEnableComputeInteractiveRuntime, "off"}}},
      {"interactive", {{catalog::kEnableComputeInteractiveRuntime, "on"}}},
  };
  const std::vector<Arm> offload_arms = {
      {"no-offload", {{catalog::kEnableComputeIndexPeekOffload, "off"}}},
      {"offload", {{catalog::kEnableComputeIndexPeekOffload, "on"}}},
  };
  std::vector<Scenario> all = {read_isolation_under_hydration(), temporary_dataflow_floor(),
                               introspection_under_hydration(),  freshness_under_peek_dataflows(),
                               peek_isolation_under_expensive_peeks(), freshness_under_peek_walks(),
                               skewed_point_lookup()};
  for (auto& s : all) s.arms = s.name == "SkewedPointLookup" ? offload_arms : runtime_arms;
  return all;
}

}  // namespace tandem::bench
