#pragma once
// A server process's memory as the kernel reports it, for the memory-bound
// integration tests: a field of /proc/PID/status in KiB (VmRSS, VmHWM) and
// the reset of its peak (VmHWM := VmRSS) through /proc/PID/clear_refs.

#include <sys/types.h>

#include <fstream>
#include <string>

namespace tandem::testing {

// The field's value in KiB, -1 if absent.
inline long status_kib(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  }
  return -1;
}

inline void reset_peak(pid_t pid) {
  std::ofstream clear("/proc/" + std::to_string(pid) + "/clear_refs");
  clear << "5";
}

}  // namespace tandem::testing
