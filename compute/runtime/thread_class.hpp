#pragma once

#include <string>

namespace tandem::compute {

// How the operating system schedules a runtime's worker threads.
enum class ThreadClass {
  // The default policy and priority.
  Normal,
  // Long run-to-completion work other threads should preempt: SCHED_BATCH
  // at nice 10 (Linux). A cluster's maintenance runtime runs so when its
  // interactive runtime is on, so reads and sessions sharing the cores are
  // scheduled ahead of a hydration step instead of waiting out
  // its time slice.
  Background,
};

// Names the calling thread (at most 15 characters are kept) and applies
// `cls` to it. Best effort: a policy the system refuses is logged once and
// the thread runs as Normal.
void configure_current_thread(const std::string& name, ThreadClass cls);

}  // namespace tandem::compute
