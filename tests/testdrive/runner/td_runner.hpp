#pragma once
// FileRunner: executes one parsed .td script against a server, stopping at
// the first failing command.
//
// Retries (as testdrive's): a `>` whose rows do not match yet, or that
// fails, and a `!` whose error does not match yet, run again after a
// backoff (50 ms, x1.5 per try, at most 1 s) until the SQL timeout passes
// (`--default-timeout`, changed by `$ set-sql-timeout`) or `$ set-max-tries`
// tries were made. The timeout bounds each try too: a statement still
// running at the deadline is canceled. Statements whose repetition would
// change the outcome run once: DDL (CREATE, DROP, ALTER, GRANT, ...), SET,
// RESET, SHOW, DISCARD, FETCH, EXPLAIN, writes (INSERT, UPDATE, DELETE,
// COPY) and transaction control (BEGIN, COMMIT, ROLLBACK, DECLARE, CLOSE).
// A `!` that fails with a syntax error (SQLSTATE 42601) is not retried
// either, and one of the run-once kinds that unexpectedly succeeds fails at
// once, as its second run would see the state the first one made.
//
// The waiting is a bounded sleep of the client between tries; nothing in
// the server polls.
//
// Threading: owned and used by one thread.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "sqllogic/runner/pg_session.hpp"
#include "tests/testdrive/runner/td_matcher.hpp"
#include "tests/testdrive/runner/td_script.hpp"
#include "tests/testdrive/runner/td_variables.hpp"

namespace tandem::td {

struct RunConfig {
  std::chrono::milliseconds default_timeout{std::chrono::seconds(10)};
  std::chrono::milliseconds initial_backoff{50};
  std::chrono::milliseconds max_backoff{1000};
  double backoff_factor = 1.5;
  bool verbose = false;  // Print each command as it passes.
};

struct FileResult {
  bool passed = false;
  std::size_t commands_run = 0;  // Passed commands.
  bool skipped = false;          // `$ skip-if` ended the file early.
};

// True for statements that run once (see above), judged by their first
// keyword after leading whitespace and `--` comments.
bool runs_once(const std::string& sql);

class FileRunner {
 public:
  // `variables` holds the built-ins; `diagnostics` adds context (the server
  // log's tail) when a connection fails.
  FileRunner(RunConfig config, Variables variables, slt::ConnectTarget target,
             std::function<std::string()> diagnostics, std::ostream& out);

  FileResult run(const std::string& path, const Script& script);

 private:
  // Each returns nullopt when the command passed, else why it failed.
  std::optional<std::string> run_command(const Command& command);
  std::optional<std::string> run_query(const Command& command);
  std::optional<std::string> run_fail(const Command& command);
  std::optional<std::string> run_explain(const Command& command);
  // Built-ins (td_builtins.cpp).
  std::optional<std::string> run_builtin(const Command& command);
  std::optional<std::string> builtin_set(const Command& command);
  std::optional<std::string> builtin_set_sql_timeout(const Command& command);
  std::optional<std::string> builtin_set_from_sql(const Command& command);
  std::optional<std::string> builtin_postgres_execute(const Command& command);
  std::optional<std::string> builtin_skip_if(const Command& command);

  // Runs `attempt` until it passes or the retry budget ends. `attempt`
  // gets the time it may take and sets `stop` to end the retries early.
  using Attempt = std::function<std::optional<std::string>(std::chrono::milliseconds, bool& stop)>;
  std::optional<std::string> with_retries(bool once, const Attempt& attempt);

  // The default session, reconnected if it broke; nullptr with *error.
  slt::PgSession* session(std::string* error);
  // Runs SQL on the default session and formats its last result.
  std::optional<std::string> query(const std::string& sql, std::chrono::milliseconds timeout,
                                   ActualResult& result, slt::ExecOutcome& outcome);

  std::optional<std::string> substitute(const std::string& text, std::string& out) const;
  // Looks up a `$` argument; nullopt when absent.
  static const Command::Argument* argument(const Command& command, const std::string& name);

  RunConfig config_;
  Variables variables_;
  slt::ConnectTarget target_;
  std::function<std::string()> diagnostics_;
  std::ostream& out_;

  // Per-file state.
  std::unique_ptr<slt::PgSession> session_;
  std::map<std::string, std::unique_ptr<slt::PgSession>> connections_;  // postgres-connect
  RegexRule regex_;
  std::chrono::milliseconds timeout_;
  std::size_t max_tries_ = 0;  // 0: bounded by the timeout only.
  bool skip_rest_ = false;
  std::size_t last_tries_ = 1;  // Tries of the last command (verbose output).
  bool try_timed_out_ = false;   // The last query() ran out of its try's time.
};

// Formats a libpq result with td_values' rules.
ActualResult format_result(const PGresult* result);

}  // namespace tandem::td
