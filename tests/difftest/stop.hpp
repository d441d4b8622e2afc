#pragma once
// The run's stop request: set from the SIGINT/SIGTERM handler, polled
// between statements.

#include <atomic>

namespace tandem::difftest {

inline std::atomic<bool>& stop_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}
inline bool stop_requested() { return stop_flag().load(); }

}  // namespace tandem::difftest
