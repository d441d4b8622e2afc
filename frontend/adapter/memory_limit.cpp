#include "frontend/adapter/memory_limit.hpp"

#include "catalog/catalog.hpp"
#include "catalog/system_vars.hpp"
#include "compute/arrangement/memory_budget.hpp"
#include "frontend/coord/coordinator.hpp"

namespace tandem::frontend {

void apply_memory_limit(const catalog::Catalog& catalog) {
  const auto budget = compute::MemoryBudget::current();
  if (budget == nullptr) return;
  const std::int64_t bytes = catalog.snapshot()->system_vars().get_bytes(catalog::kMemoryLimit);
  budget->set_parameter(bytes > 0 ? static_cast<std::uint64_t>(bytes) : 0);
}

void apply_compaction_lag(const catalog::Catalog& catalog, Coordinator& coordinator) {
  const std::int64_t us = catalog.snapshot()->system_vars().get_duration_us(catalog::kCompactionLag);
  coordinator.set_compaction_lag(std::chrono::milliseconds(std::max<std::int64_t>(1, us / 1000)));
}

}  // namespace tandem::frontend
