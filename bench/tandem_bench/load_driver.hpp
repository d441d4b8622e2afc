#pragma once
// LoadDriver: runs one phase of a scenario, all of its query streams at once,
// in one event loop over non-blocking libpq connections (PQsendQuery*,
// PQconsumeInput, PQisBusy; epoll for sockets, a timerfd for the schedule).
// No thread per connection and no polling: the loop sleeps in epoll_wait
// until a socket is ready or the next arrival (or the phase end) is due.
//
// A stream is one kind of work: a script of statements per iteration, run on
// its own pool of connections, opened (with their session settings and
// prepared statements) before the phase starts.
//   * open loop (a Schedule): iteration i is due at its arrival time; it runs
//     on an idle connection of the pool, or waits in the stream's client-side
//     queue. Latency = completion - arrival (queue delay included, and also
//     reported alone as send - arrival). Nothing waits for outstanding work.
//   * closed loop (no schedule): each connection starts its next iteration as
//     soon as the last one completes; latency = completion - start.
// At the phase end no new iteration starts; queued and running ones drain,
// up to `drain_limit`, after which what is left is counted as errors and its
// queries cancelled. An iteration with a failed statement counts as one
// error (with the first message kept); statements marked `always` still run
// after a failure (the DROP that cleans up a CREATE).
// Threading: one thread calls run(); nothing is shared.

#include <libpq-fe.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/tandem_bench/schedule.hpp"

namespace tandem::bench {

using Clock = std::chrono::steady_clock;

struct Statement {
  std::string sql;  // SQL text, or the name of a statement prepared on every connection
  std::vector<std::string> params;
  bool prepared = false;
  bool always = false;  // run even after an earlier statement of the iteration failed
};
using Iteration = std::vector<Statement>;

struct StreamSpec {
  std::string name;
  int connections = 1;
  std::vector<std::string> session_setup;                      // run on each connection when it opens
  std::vector<std::pair<std::string, std::string>> prepares;  // (statement name, SQL)
  std::function<Iteration(uint64_t i)> iteration;
  std::optional<Schedule> schedule;  // open loop when set
  bool background = false;           // load that the scenario applies, not what it guards
  bool timeline = false;             // keep (arrival, latency) of every iteration
  // Reads a second metric from the last result of a successful iteration
  // (e.g. staleness in µs); nullopt when the result does not carry it.
  std::function<std::optional<double>(const PGresult*)> observe;
};

struct TimelinePoint {
  double at_s;        // arrival (open loop) or start, seconds from the phase start
  double latency_us;  // 0 for an error
  bool ok;
};

struct StreamOutcome {
  std::vector<double> latency_us;  // successful iterations
  std::vector<double> queue_us;    // open loop: send - arrival, every dispatched iteration
  std::vector<double> observed;    // what `observe` returned
  uint64_t errors = 0;
  uint64_t observe_missing = 0;    // successful iterations `observe` found nothing in
  std::string first_error;
  std::vector<TimelinePoint> timeline;
};

class LoadDriver {
 public:
  explicit LoadDriver(std::string conninfo) : conninfo_(std::move(conninfo)) {}

  // Runs the streams for `duration`, then drains. Throws std::runtime_error
  // when a connection cannot be opened or set up (before anything is timed).
  std::vector<StreamOutcome> run(const std::vector<StreamSpec>& streams, Duration duration, Duration drain_limit);

 private:
  std::string conninfo_;
};

}  // namespace tandem::bench
