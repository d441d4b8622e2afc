#pragma once
// InteractiveAdmission: admission control for the interactive runtime
// (issue 8 item 8), which Materialize's interactive lane lacks. It bounds
// the peek dataflows running at once on each cluster
// (`max_concurrent_interactive_dataflows`); a statement beyond the bound
// waits in its cluster's FIFO queue, so sessions are admitted in the order
// they asked, whatever their rate. Waiting blocks no thread: acquire()
// takes a callback that runs when the slot is granted, and a waiter that
// is canceled (cancel request, statement_timeout) leaves the queue.
//
// Every grant is matched by one release() when the dataflow's peek is
// answered (Slot does it on destruction). Lowering the bound never revokes
// a running dataflow: it only keeps new ones waiting until enough end.
//
// Introspection: stats() gives per cluster the dataflows running and
// waiting, the admissions so far and their total and longest wait
// (mz_internal.mz_interactive_admission).
//
// Threading: any thread; one mutex, never held while a callback runs.
// `admitted` runs on the thread of acquire() (a free slot) or of the
// release() that freed one; it must only hand off (post to an executor).

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

#include "catalog/controller_status.hpp"

namespace tandem::frontend {

class InteractiveAdmission {
 public:
  using Clock = std::chrono::steady_clock;
  using Ticket = uint64_t;

  // Asks for a slot on `cluster`, whose bound is now `limit` (at least 1).
  // `admitted` runs once the slot is granted (before acquire() returns if
  // one is free). The ticket names the request for cancel().
  Ticket acquire(uint64_t cluster, size_t limit, std::function<void()> admitted, Clock::time_point now = Clock::now());
  // Withdraws a waiting request: true if it was waiting (then `admitted`
  // never runs), false if it was already admitted (release its slot).
  bool cancel(Ticket ticket);
  // A granted slot of `cluster` ends; the longest waiter may take it.
  void release(uint64_t cluster, Clock::time_point now = Clock::now());

  std::vector<catalog::InteractiveAdmissionStatus> stats() const;

  // A granted slot, released when the Slot goes.
  class Slot {
   public:
    Slot(InteractiveAdmission* admission, uint64_t cluster) : admission_(admission), cluster_(cluster) {}
    ~Slot() { admission_->release(cluster_); }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;

   private:
    InteractiveAdmission* admission_;
    uint64_t cluster_;
  };

 private:
  struct Waiter {
    Ticket ticket = 0;
    Clock::time_point since;
    std::function<void()> admitted;
  };
  struct Cluster {
    size_t limit = 1;
    size_t active = 0;
    std::deque<Waiter> queue;
    catalog::InteractiveAdmissionStatus totals;
  };
  // Grants slots to the head of `c`'s queue while any is free, moving the
  // callbacks to `grant` (run by the caller after unlocking).
  void admit_waiters(Cluster& c, Clock::time_point now, std::vector<std::function<void()>>& grant);

  mutable std::mutex mutex_;
  Ticket next_ticket_ = 1;
  std::map<uint64_t, Cluster> clusters_;
  std::map<Ticket, uint64_t> waiting_;  // ticket -> cluster, while queued
};

}  // namespace tandem::frontend
