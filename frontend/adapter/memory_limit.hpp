// Applies the system parameter `memory_limit` to the process's arrangement
// memory budget (compute/arrangement/memory_budget.hpp): at boot, after the
// catalog is loaded, and after every ALTER SYSTEM SET/RESET. 0 (the default)
// means tandemd's --memory-limit. Lowering the limit spills on the calling
// thread until the resident batches fit. Threading: any thread.
#pragma once

namespace tandem::catalog {
class Catalog;
}

namespace tandem::frontend {

class Coordinator;

void apply_memory_limit(const catalog::Catalog& catalog);

// Applies the system parameter `compaction_lag` to the coordinator's read
// policy (Coordinator::set_compaction_lag), at the same moments.
void apply_compaction_lag(const catalog::Catalog& catalog, Coordinator& coordinator);

}  // namespace tandem::frontend
