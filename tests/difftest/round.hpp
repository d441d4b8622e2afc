#pragma once
// Round: one seed's worth of differential testing.
//
//   1. random tables and rows, created and loaded in both servers;
//   2. views over random queries: on PostgreSQL plain views, on tandem
//      views, indexed views (CREATE DEFAULT INDEX / CREATE INDEX ... (col))
//      and materialized views (some indexed), each read back at once;
//   3. steps of: random ad-hoc queries, then a batch of INSERT / UPDATE /
//      DELETE applied to both (autocommit, BEGIN ... COMMIT, or BEGIN ...
//      ROLLBACK), then every view read again -- tandem maintains them
//      incrementally, PostgreSQL recomputes them, so the answers compare
//      incremental maintenance with a real recompute.
//
// Every statement's outcome is compared. The round ends at its first wrong
// answer (which the Reporter replays and minimises) or when the run's
// budget is spent.

#include <cstdint>
#include <string>
#include <vector>

#include "tests/difftest/harness.hpp"
#include "tests/difftest/query_gen.hpp"
#include "tests/difftest/repro_case.hpp"
#include "tests/difftest/reporter.hpp"

namespace tandem::difftest {

class Round {
 public:
  Round(Harness& h, Reporter& reporter, std::uint64_t seed);
  // Runs the round; its counts go to the harness's Stats.
  void run();

 private:
  struct View {
    std::string name;
    std::string kind;  // "view", "indexed view", "materialized view", ...
    Query query;
    std::size_t step;  // its CREATE in history_
  };

  bool budget_left() const;
  bool load_tables();
  void create_views();
  bool check_query(const Query& q, int number);
  bool check_views(const std::string& when);
  bool change_data(int step);
  // Counts one comparison of `sql`'s outcome; true when it was wrong.
  bool account(const Comparison& c, const std::string& sql);
  // `sql` with the bodies of the views it reads, transitively.
  std::string with_view_bodies(const std::string& sql) const;
  void cleanup();

  // Repro candidates for a failure of `check` (with `subject` for "{Q}").
  ReproCase base_case(const std::string& origin);
  ReproCase flattened(ReproCase c, const View* subject_view);
  ReproCase from_history(ReproCase c, const View* subject_view);
  std::vector<std::string> drops(bool tandem) const;

  Harness& h_;
  Reporter& reporter_;
  std::uint64_t seed_;
  Rng rng_;
  SchemaOptions schema_opts_;
  std::vector<Table> tables_;
  std::vector<View> views_;
  std::vector<Relation> relations_;
  std::vector<Step> history_;
  bool over_ = false;  // a wrong answer or a crash ended the round
};

}  // namespace tandem::difftest
