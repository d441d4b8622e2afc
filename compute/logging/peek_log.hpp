// PeekLog: what a runtime's reads did, for mz_active_peeks,
// mz_peek_durations_histogram and mz_recent_peeks.
//
// Reads are served in two places: on the caller's thread from the published
// arrangements (Runtime::peek_if_ready/scan_if_ready) and by the workers
// (a parked peek or a peek dataflow). Both record here, so the log says what
// actually served each read. Worker 0 copies a snapshot() at each log flush
// (worker_logger.hpp); the histogram and the recent window change together
// under one lock, so a read of both at one time sees them agree.
//
// Bounded: the histogram is 64 counters (and as many per runtime and read
// path), the recent window the last `window` finished reads; an active peek leaves when it is answered.
// Threading: any thread; one mutex, held for a few field updates per read
// (never per dataflow event).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/timestamp.hpp"
#include "compute/plan/global_id.hpp"
#include "compute/protocol/command.hpp"

namespace tandem::compute::logging {

// The histogram bucket of a duration: the least power of two >= ns (>= 1).
std::uint64_t duration_bucket(std::uint64_t ns);
// Index of duration_bucket(ns) in a 64-entry histogram.
std::size_t duration_bucket_index(std::uint64_t ns);
// Milliseconds since the Unix epoch (log timestamps, finished_at).
Timestamp wall_clock_ms();

enum class ReadPath : std::uint8_t {
  kFastPath,   // an existing index, answered within the inline budget
  kDataflow,   // a one-shot peek dataflow
  kOffloaded,  // an existing index walked beyond the inline budget (streamed)
};
const char* read_path_name(ReadPath path);

class PeekLog {
 public:
  static constexpr std::size_t kDefaultWindow = 1000;
  explicit PeekLog(std::size_t window = kDefaultWindow) : window_(window) {}

  struct Active {
    std::uint64_t seq = 0;
    GlobalId target = 0;
    Timestamp time = kMinTimestamp;
  };
  struct Finished {
    std::uint64_t seq = 0;
    GlobalId target = 0;
    std::string runtime;
    ReadPath path = ReadPath::kFastPath;
    std::uint64_t duration_ns = 0;
    Timestamp finished_at = kMinTimestamp;
  };
  struct Snapshot {
    std::vector<Active> active;
    std::array<std::uint64_t, 64> histogram{};
    std::vector<Finished> recent;
  };
  // Finished reads since the log began, by the runtime and path that
  // served them (the process's read latency metrics).
  struct PathHistogram {
    std::string runtime;
    ReadPath path = ReadPath::kFastPath;
    std::array<std::uint64_t, 64> histogram{};  // by duration_bucket_index
    std::uint64_t count = 0;
    std::uint64_t sum_ns = 0;
  };

  // A peek handed to the workers of runtime `runtime`.
  void begin(PeekId id, GlobalId target, Timestamp time, ReadPath path, std::string runtime);
  // Its one answer went out (rows, error or canceled). Unknown ids: no-op.
  void finish(PeekId id);
  // A read answered on the caller's thread, begun at `start`.
  void served(GlobalId target, ReadPath path, std::string runtime, std::chrono::steady_clock::time_point start);
  Snapshot snapshot() const;
  std::vector<PathHistogram> path_histograms() const;

 private:
  struct Pending {
    Active active;
    ReadPath path;
    std::string runtime;
    std::chrono::steady_clock::time_point start;
  };
  void record(Finished finished);  // REQUIRES mutex_

  const std::size_t window_;
  mutable std::mutex mutex_;
  std::uint64_t next_seq_ = 1;
  std::map<PeekId, Pending> pending_;
  std::array<std::uint64_t, 64> histogram_{};
  std::vector<PathHistogram> by_path_;  // a handful: runtimes x paths
  std::deque<Finished> recent_;
};

}  // namespace tandem::compute::logging
