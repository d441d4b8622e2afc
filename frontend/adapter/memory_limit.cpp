#include "frontend/adapter/memory_limit.hpp"

#include "catalog/catalog.hpp"
#include "catalog/system_vars.hpp"
#include "compute/arrangement/memory_budget.hpp"

namespace tandem::frontend {

void apply_memory_limit(const catalog::Catalog& catalog) {
  const auto budget = compute::MemoryBudget::current();
  if (budget == nullptr) return;
  const std::int64_t bytes = catalog.snapshot()->system_vars().get_bytes(catalog::kMemoryLimit);
  budget->set_parameter(bytes > 0 ? static_cast<std::uint64_t>(bytes) : 0);
}

}  // namespace tandem::frontend
