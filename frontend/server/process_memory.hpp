// The process's memory as a whole: the allocator's configuration and a
// report of where resident memory is, for the issue-9 bound (the budget plus
// a fixed overhead; bench/HISTORY.md, "Peak resident set during hydration").
//
// tune_malloc() runs first thing in main, before any thread starts.
// memory_report() may run on any thread (tandemd logs it on SIGUSR1).
#pragma once

#include <string>

namespace tandem::compute {
class MemoryBudget;
}
namespace tandem::storage {
class DurableStore;
}

namespace tandem::frontend {

void tune_malloc();

// One line: VmRSS/VmHWM, the allocator's bytes in use and free-but-held,
// the arrangement budget's resident/building/spilled bytes and decoded-block
// cache, and RocksDB's memtables, table readers and block caches.
std::string memory_report(const storage::DurableStore& store, const compute::MemoryBudget* budget);

}  // namespace tandem::frontend
