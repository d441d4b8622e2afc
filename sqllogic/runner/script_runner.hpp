#pragma once
// Executes the records of one parsed sqllogictest file against a
// ServerTarget and reports per-record outcomes.
//
// Contract:
// - Every statement, query and simple record that applies (skipif/onlyif
//   answered as the names in RunOptions::database_names) counts as passed or
//   failed; records that do not apply count as skipped. Directives (mode,
//   hash-threshold, halt, reset-server, ignored ones) do not count, except
//   that an unparsable record or a failed reset counts as a failure.
// - A failure prints `<file>:<line>: <reason>`, the SQL and bounded expected
//   and actual output to the output stream, and execution continues with the
//   next record unless stop_on_fail is set.
// - Queries sharing a label must produce the same sorted values (compared
//   by hash), as in SQLite's sqllogictest.
// - Sessions are opened lazily: "" is the default connection; `simple
//   conn=name,user=u` opens or reuses the named one.
//
// Threading: one ScriptRunner per thread.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sqllogic/runner/pg_session.hpp"
#include "sqllogic/runner/record.hpp"
#include "sqllogic/runner/server_target.hpp"

namespace tandem::slt {

struct Counts {
  std::int64_t passed = 0;
  std::int64_t failed = 0;
  std::int64_t skipped = 0;

  Counts& operator+=(const Counts& other) {
    passed += other.passed;
    failed += other.failed;
    skipped += other.skipped;
    return *this;
  }
};

struct RunOptions {
  bool verbose = false;
  bool stop_on_fail = false;
  std::chrono::milliseconds timeout{0};  // Per statement; zero means none.
  std::vector<std::string> database_names{"postgresql", "tandem"};
  std::string default_user;  // Empty: the target's user.
};

class ScriptRunner {
 public:
  ScriptRunner(ServerTarget& target, const RunOptions& options, std::ostream& out)
      : target_(target), options_(options), out_(out) {}

  // Runs `records` (parsed from `path`). REQUIRES: target.begin_file()
  // succeeded. Sets *stopped when stop_on_fail ended the file early.
  Counts run(const std::string& path, const std::vector<Record>& records, bool* stopped);

 private:
  // kRetry: a `retry` query's result differed and it may be read again.
  enum class Verdict { kPass, kFail, kRetry };

  Verdict run_record(const Record& record);
  Verdict run_statement(const Record& record);
  Verdict run_query(const Record& record);
  // One read of a query; a differing result is kRetry unless `last`.
  Verdict run_query_once(const Record& record, bool last);
  Verdict run_expected_error(const Record& record);
  Verdict run_simple(const Record& record);
  Verdict reset_server(const Record& record);

  // The session for a connection name/user, connecting if needed; nullptr
  // (after reporting a failure for `record`) if that is impossible.
  PgSession* session_for(const Record& record, const std::string& name, const std::string& user);
  // Runs the record's SQL on the default session; nullopt if no session.
  std::optional<ExecOutcome> execute(const Record& record);

  void fail(const Record& record, const std::string& reason,
            const std::vector<std::string>& expected = {},
            const std::vector<std::string>& actual = {});

  ServerTarget& target_;
  const RunOptions& options_;
  std::ostream& out_;

  // Per-file state.
  std::string path_;
  OutputMode mode_ = OutputMode::kStandard;
  std::map<std::string, std::string> label_hashes_;
  std::map<std::string, std::unique_ptr<PgSession>> sessions_;
  bool diagnostics_shown_ = false;
};

}  // namespace tandem::slt
