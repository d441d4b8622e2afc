#include "frontend/coord/process_metrics.hpp"

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

#include "compute/arrangement/memory_budget.hpp"

namespace tandem::frontend {
namespace {

int64_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  long long size = 0;
  long long resident = 0;
  int read = std::fscanf(f, "%lld %lld", &size, &resident);
  std::fclose(f);
  return read == 2 ? resident * sysconf(_SC_PAGESIZE) : 0;
}

}  // namespace

ProcessMetrics::CpuSample ProcessMetrics::read_cpu() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto to_ns = [](const timeval& tv) {
    return std::chrono::seconds(tv.tv_sec) + std::chrono::microseconds(tv.tv_usec);
  };
  return CpuSample{Clock::now(), std::chrono::duration_cast<std::chrono::nanoseconds>(to_ns(usage.ru_utime) +
                                                                                     to_ns(usage.ru_stime))};
}

void ProcessMetrics::sample() {
  CpuSample now = read_cpu();
  std::lock_guard lock(mutex_);
  previous_ = last_;
  last_ = now;
}

catalog::ProcessStatus ProcessMetrics::status() const {
  CpuSample now = read_cpu();
  CpuSample base;
  {
    std::lock_guard lock(mutex_);
    base = (now.at - last_.at >= kMinWindow || !previous_) ? last_ : *previous_;
  }
  catalog::ProcessStatus out;
  out.arrangement_memory = arrangement_memory();
  auto wall = std::chrono::duration_cast<std::chrono::nanoseconds>(now.at - base.at).count();
  if (wall > 0) {
    double per_second = static_cast<double>((now.cpu - base.cpu).count()) / static_cast<double>(wall);
    out.cpu_nano_cores = static_cast<int64_t>(per_second * 1e9);
  }
  out.cpu_limit_nano_cores = static_cast<int64_t>(sysconf(_SC_NPROCESSORS_ONLN)) * 1'000'000'000;
  out.memory_bytes = resident_bytes();
  struct mallinfo2 heap = mallinfo2();
  out.heap_bytes = static_cast<int64_t>(heap.uordblks + heap.hblkhd);
  out.memory_limit_bytes = static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  return out;
}

std::optional<catalog::ArrangementMemoryStatus> ProcessMetrics::arrangement_memory() {
  const auto budget = compute::MemoryBudget::current();
  if (budget == nullptr) return std::nullopt;
  const compute::MemoryBudgetStats stats = budget->stats();
  auto i64 = [](std::uint64_t v) { return static_cast<int64_t>(v); };
  catalog::ArrangementMemoryStatus out;
  out.limit_bytes = i64(stats.limit_bytes);
  out.resident_bytes = i64(stats.resident_bytes);
  out.spilled_bytes = i64(stats.spilled_bytes);
  out.spills_total = i64(stats.spilled_batches);
  out.cache_capacity_bytes = i64(stats.cache.capacity_bytes);
  out.cache_bytes = i64(stats.cache.cached_bytes);
  out.cache_hits = i64(stats.cache.hits);
  out.cache_misses = i64(stats.cache.misses);
  return out;
}

}  // namespace tandem::frontend
