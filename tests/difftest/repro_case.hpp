#pragma once
// ReproCase: everything needed to replay one failure from an empty
// database: setup steps (each statement for PostgreSQL and its tandem
// counterpart), the subject query (a SqlNode the minimiser may simplify;
// "{Q}" in a statement stands for it) and the checking statement.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tests/difftest/compare.hpp"
#include "tests/difftest/sql_node.hpp"

namespace tandem::difftest {

struct Step {
  std::vector<std::string> pg;  // statements for PostgreSQL
  std::vector<std::string> td;  // the same step for tandem
  bool removable = true;        // the minimiser may drop it
  std::string note;             // a comment for the repro file
};

enum class CheckMode {
  kRows,     // compare result rows
  kCommand,  // compare success / SQLSTATE class and the command tag
};

struct ReproCase {
  std::uint64_t seed = 0;
  std::string origin;  // where in the round the failure showed
  std::vector<Step> steps;
  NodePtr subject;
  std::string check_pg;
  std::string check_td;
  bool ordered = false;
  CheckMode mode = CheckMode::kRows;
  // Statements that remove every object the steps may create, in order.
  std::vector<std::string> drops_pg;
  std::vector<std::string> drops_td;
};

// `stmt` with "{Q}" replaced by the rendered subject.
std::string expand(const std::string& stmt, const NodePtr& subject);

// Compares a command's outcome: SQLSTATE class when either fails, else the
// command tags.
Comparison compare_command(const Result& pg, const Result& td);

// The case as a script psql replays against either server:
//   psql -X -v tandem=true ... -f FILE   (tandem)
//   psql -X ... -f FILE                  (PostgreSQL)
std::string psql_script(const ReproCase& c, const std::string& headline, const std::string& detail);

}  // namespace tandem::difftest
