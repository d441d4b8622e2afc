#pragma once
// Reporter: what happens to a wrong answer. It replays the failure's
// candidate cases from an empty database (the round's state flattened to
// its current rows first, then its whole history of statements), minimises
// the first that reproduces -- delta debugging over the removable steps
// (rows, other views, data changes), then simplification of the subject
// query through its SqlNode replacements, then the steps again -- and
// prints the result and writes it as a psql script to the output directory.
//
// A simplification is kept only if the replay fails the same way: the same
// FailureKind, with PostgreSQL and tandem each succeeding or failing as
// before. Replays reset both servers, so the round that reported a failure
// ends there.

#include <chrono>
#include <string>
#include <vector>

#include "tests/difftest/harness.hpp"
#include "tests/difftest/repro_case.hpp"

namespace tandem::difftest {

class Reporter {
 public:
  explicit Reporter(Harness& h) : h_(h) {}

  // `candidates` in order of preference; the last is the fallback written
  // as is when none reproduces or the run's minimisation budget is spent.
  void report(std::vector<ReproCase> candidates, const Comparison& cmp, const Result& pg, const Result& td);

 private:
  struct Outcome {
    Comparison cmp;
    Result pg;
    Result td;
  };
  struct Signature {
    FailureKind kind;
    bool pg_ok;
    bool td_ok;
  };

  Outcome replay(const ReproCase& c);
  bool fails_alike(const ReproCase& c, const Signature& sig);
  void minimise_steps(ReproCase& c, const Signature& sig);
  void simplify_subject(ReproCase& c, const Signature& sig);
  bool out_of_time() const { return std::chrono::steady_clock::now() >= deadline_; }

  Harness& h_;
  int written_ = 0;
  int replays_ = 0;
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace tandem::difftest
