#pragma once
// Harness: the options of a run, the two servers and one connection to
// each, and the running totals. Rounds and the minimiser go through it, so
// that a crashed tandemd is noticed and restarted in one place.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "tests/difftest/compare.hpp"
#include "tests/difftest/conn.hpp"
#include "tests/difftest/features.hpp"
#include "tests/difftest/servers.hpp"

namespace tandem::difftest {

struct Options {
  std::uint64_t seed = 1;
  long rounds = 0;    // 0: no limit
  long queries = 0;   // 0: no limit
  long seconds = 60;  // 0: no limit
  Features features;
  CompareOptions compare;
  std::string out_dir = "difftest-repros";
  std::string tandemd;
  std::string pg_bindir = "/usr/lib/postgresql/15/bin";
  int max_minimise = 5;        // failures minimised per run (the rest are written as found)
  int minimise_seconds = 30;   // per failure
  int objects_per_round = 3;   // views, indexed views and materialized views
  int queries_per_step = 6;    // ad-hoc queries between data changes
  int dml_steps = 4;           // data-change steps per round
  int max_rows = 10;           // rows per table at the start of a round
  int statement_timeout = 30;  // seconds, client side
  bool verbose = false;
};

struct Stats {
  long queries = 0;      // comparisons made (queries, view reads, statements)
  long rounds = 0;
  long wrong = 0;
  long unsupported = 0;
  long error_match = 0;  // both failed, same SQLSTATE class
  long error_class_differs = 0;  // both failed, different classes (in error_match)
  long one_sided_data_errors = 0;  // only one side failed, with class 22 or 21
  long other_group_member = 0;  // equal by value, another member of a numeric group shown
  long minimised = 0;
  std::uint64_t first_seed = 0;
  std::uint64_t last_seed = 0;
};

class Harness {
 public:
  explicit Harness(const Options& opts);

  const Options& opts() const { return opts_; }
  Stats& stats() { return stats_; }
  Connection& pg() { return *pg_; }
  Connection& td() { return *td_; }

  // After a lost tandem connection: how tandemd ended (or that it still
  // runs), with its log's tail; then a fresh tandemd (empty catalog) if it
  // died or does not answer, and a new connection.
  std::string recover_tandem();
  // Reconnects to PostgreSQL if its connection broke.
  void recover_pg();
  // False once --seconds or --queries is spent or a stop was requested.
  bool budget_left() const;

 private:
  void connect_tandem();

  const Options& opts_;
  Stats stats_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  Servers servers_;
  std::unique_ptr<Connection> pg_;
  std::unique_ptr<Connection> td_;
};

}  // namespace tandem::difftest
