#include "frontend/server/process_memory.hpp"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>

#include "compute/arrangement/memory_budget.hpp"
#include "storage/memory_usage.hpp"

namespace tandem::frontend {
namespace {

constexpr int kMmapThresholdBytes = 128 << 10;

std::string mib(std::uint64_t bytes) { return std::to_string((bytes + (1 << 19)) >> 20) + " MiB"; }

std::string status_field(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return mib(std::stoull(line.substr(field.size() + 1)) << 10);
  }
  return "?";
}

}  // namespace

// glibc gives each thread that contends for malloc an arena of its own (up
// to 8 per CPU) and returns an arena's freed memory to the kernel only from
// its top, so transient buffers freed on the many io, worker and storage
// threads stayed resident: 336 MB against 178 MB with two arenas for the
// same load (bench/HISTORY.md, "Peak resident set during hydration"). One
// arena per CPU keeps allocation uncontended on that many concurrent
// threads.
//
// glibc also raises its mmap threshold (128 KiB) to the size of each large
// block freed, up to 32 MiB, so after the first few freed batch columns,
// sort runs and RocksDB buffers every later one of them was carved from an
// arena's heap, where a long-lived small allocation behind it pins the
// freed space: 2.9M rows under a 64 MB budget held 225 MB free in the
// arenas after hydration (33 MB in use), and peaked at 356 MB. A fixed
// threshold (which turns the raising off) gives each large buffer its own
// mapping, returned to the kernel when it is freed: 243 MB peak, 66 MB
// after (bench/HISTORY.md). The environment's MALLOC_ARENA_MAX and
// MALLOC_MMAP_THRESHOLD_ still win.
void tune_malloc() {
  if (std::getenv("MALLOC_ARENA_MAX") == nullptr) {
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    mallopt(M_ARENA_MAX, static_cast<int>(std::max(2L, cpus)));
  }
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
}

std::string memory_report(const storage::DurableStore& store, const compute::MemoryBudget* budget) {
  const struct mallinfo2 heap = mallinfo2();
  std::string out = "memory: rss " + status_field("VmRSS") + ", peak " + status_field("VmHWM") + "; malloc in use " +
                    mib(heap.uordblks + heap.hblkhd) + " (mmapped " + mib(heap.hblkhd) + "), free held " +
                    mib(heap.fordblks) + " (releasable at top " + mib(heap.keepcost) + ")";
  if (budget != nullptr) {
    const compute::MemoryBudgetStats s = budget->stats();
    out += "; arrangements resident " + mib(s.resident_bytes) + " of " + mib(s.limit_bytes) + ", building " +
           mib(s.building_bytes) + " (builders " +
           mib(s.building_by_kind[static_cast<int>(compute::Building::kBuilder)]) + ", batcher buffers " +
           mib(s.building_by_kind[static_cast<int>(compute::Building::kBatcherBuffer)]) + ", sort scratch " +
           mib(s.building_by_kind[static_cast<int>(compute::Building::kSortScratch)]) + "), counted peak " +
           mib(s.counted_peak_bytes) + ", spilled " + mib(s.spilled_bytes) + ", decoded-block cache " +
           mib(s.cache.cached_bytes) + " of " + mib(s.cache.capacity_bytes);
  }
  return out + "; " + storage::describe(storage::memory_usage(store));
}

}  // namespace tandem::frontend
