#pragma once
// ProcessMetrics: cpu and memory of this process, for
// mz_cluster_replica_metrics and _utilization (every replica runs in this
// process; catalog/builtin_mz_internal.cpp says how rows report it).
//
//  cpu_nano_cores  user+system cpu time (getrusage) per wall second, over
//                  the window from a sample the coordinator took on its
//                  upper tick (at least kMinWindow old) to the read
//  memory_bytes    resident set size (/proc/self/statm)
//  heap_bytes      bytes the allocator has handed out (mallinfo2)
//  limits          online cores * 1e9 and the machine's physical memory
//  arrangements    the memory budget's resident and spilled bytes and its
//                  block cache (mz_arrangement_memory, _block_cache)
//
// Threading: sample() on the coordinator thread, status() on any thread;
// one mutex guards the two kept samples.
#include <chrono>
#include <mutex>
#include <optional>

#include "catalog/controller_status.hpp"

namespace tandem::frontend {

class ProcessMetrics {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kMinWindow{200};

  ProcessMetrics() : last_(read_cpu()) {}
  // Records the process's cpu time now (the coordinator's tick).
  void sample();
  catalog::ProcessStatus status() const;
  // The process's arrangement memory budget and block cache now
  // (compute::MemoryBudget::current()), or nullopt when none is installed.
  static std::optional<catalog::ArrangementMemoryStatus> arrangement_memory();

 private:
  struct CpuSample {
    Clock::time_point at;
    std::chrono::nanoseconds cpu{0};
  };
  static CpuSample read_cpu();
  mutable std::mutex mutex_;
  CpuSample last_;
  std::optional<CpuSample> previous_;
};

}  // namespace tandem::frontend
