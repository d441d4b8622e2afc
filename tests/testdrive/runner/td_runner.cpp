#include "tests/testdrive/runner/td_runner.hpp"

#include <algorithm>
#include <cctype>
#include <thread>

#include "tests/testdrive/runner/td_values.hpp"

namespace tandem::td {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kMinimumTry{100};  // The least time a try is given.

std::string first_keyword(const std::string& sql) {
  std::size_t i = 0;
  while (i < sql.size()) {
    if (std::isspace(static_cast<unsigned char>(sql[i]))) {
      ++i;
    } else if (sql.compare(i, 2, "--") == 0) {
      const std::size_t end = sql.find('\n', i);
      i = end == std::string::npos ? sql.size() : end + 1;
    } else {
      break;
    }
  }
  std::string word;
  while (i < sql.size() && std::isalpha(static_cast<unsigned char>(sql[i]))) {
    word += static_cast<char>(std::toupper(static_cast<unsigned char>(sql[i++])));
  }
  return word;
}

std::string sigil_line(const Command& command) {
  switch (command.kind) {
    case CommandKind::kQuery: return "> " + command.sql;
    case CommandKind::kFail: return "! " + command.sql;
    case CommandKind::kExplain: return "? " + command.sql;
    case CommandKind::kBuiltin: return "$ " + command.builtin;
  }
  return "";
}

std::string indent(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += "    " + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace

bool runs_once(const std::string& sql) {
  static const char* const kOnce[] = {
      "CREATE", "DROP",  "ALTER",  "GRANT",  "REVOKE", "COMMENT", "SET",     "RESET",
      "SHOW",   "DISCARD", "FETCH", "EXPLAIN", "INSERT", "UPDATE", "DELETE", "COPY",
      "BEGIN",  "START", "COMMIT", "ROLLBACK", "END",  "DECLARE", "CLOSE",   "PREPARE",
      "EXECUTE", "DEALLOCATE"};
  const std::string word = first_keyword(sql);
  return std::find(std::begin(kOnce), std::end(kOnce), word) != std::end(kOnce);
}

ActualResult format_result(const PGresult* result) {
  ActualResult actual;
  if (result == nullptr || PQresultStatus(result) != PGRES_TUPLES_OK) return actual;
  const int columns = PQnfields(result);
  for (int c = 0; c < columns; ++c) actual.column_names.emplace_back(PQfname(result, c));
  for (int r = 0; r < PQntuples(result); ++r) {
    Row row;
    for (int c = 0; c < columns; ++c) {
      row.push_back(format_value(PQftype(result, c), PQgetvalue(result, r, c), PQgetisnull(result, r, c)));
    }
    actual.rows.push_back(std::move(row));
  }
  return actual;
}

FileRunner::FileRunner(RunConfig config, Variables variables, slt::ConnectTarget target,
                       std::function<std::string()> diagnostics, std::ostream& out)
    : config_(config),
      variables_(std::move(variables)),
      target_(std::move(target)),
      diagnostics_(std::move(diagnostics)),
      out_(out),
      timeout_(config.default_timeout) {}

FileResult FileRunner::run(const std::string& path, const Script& script) {
  FileResult result;
  for (const Command& command : script.commands) {
    last_tries_ = 1;
    const std::optional<std::string> failure = run_command(command);
    if (failure) {
      out_ << path << ":" << command.line << ": FAILED: " << sigil_line(command) << "\n"
           << indent(*failure);
      out_.flush();
      return result;
    }
    ++result.commands_run;
    if (config_.verbose) {
      out_ << path << ":" << command.line << ": ok: " << sigil_line(command);
      if (last_tries_ > 1) out_ << "  (after " << last_tries_ << " tries)";
      out_ << "\n";
    }
    if (skip_rest_) {
      result.skipped = true;
      break;
    }
  }
  result.passed = true;
  return result;
}

std::optional<std::string> FileRunner::run_command(const Command& command) {
  switch (command.kind) {
    case CommandKind::kQuery: return run_query(command);
    case CommandKind::kFail: return run_fail(command);
    case CommandKind::kExplain: return run_explain(command);
    case CommandKind::kBuiltin: return run_builtin(command);
  }
  return "unknown command kind";
}

std::optional<std::string> FileRunner::substitute(const std::string& text, std::string& out) const {
  std::string error;
  std::optional<std::string> value = variables_.substitute(text, &error);
  if (!value) return error;
  out = std::move(*value);
  return std::nullopt;
}

const Command::Argument* FileRunner::argument(const Command& command, const std::string& name) {
  for (const Command::Argument& arg : command.args) {
    if (arg.name == name) return &arg;
  }
  return nullptr;
}

slt::PgSession* FileRunner::session(std::string* error) {
  if (session_ && session_->is_broken()) session_.reset();
  if (!session_) {
    session_ = slt::PgSession::connect(target_, error);
    if (!session_) {
      *error = "cannot connect: " + *error + "\n" + (diagnostics_ ? diagnostics_() : "");
      return nullptr;
    }
  }
  return session_.get();
}

std::optional<std::string> FileRunner::query(const std::string& sql, milliseconds timeout,
                                             ActualResult& result, slt::ExecOutcome& outcome) {
  std::string error;
  slt::PgSession* pg = session(&error);
  if (pg == nullptr) return error;
  outcome = pg->execute(sql, std::max(timeout, kMinimumTry));
  try_timed_out_ = outcome.timed_out;
  result = outcome.results.empty() ? ActualResult{} : format_result(outcome.results.back().get());
  for (Row& row : result.rows) {
    for (std::string& value : row) value = regex_.apply(value);
  }
  if (outcome.error) outcome.error->message = regex_.apply(outcome.error->message);
  return std::nullopt;
}

std::optional<std::string> FileRunner::with_retries(bool once, const Attempt& attempt) {
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline = start + timeout_;
  milliseconds backoff = config_.initial_backoff;
  std::size_t tries = 0;
  // The failure of the last try that ran to an answer: a final try cut
  // short by the little time left says less than the answer before it.
  std::optional<std::string> answered;
  while (true) {
    ++tries;
    bool stop = once;
    const auto remaining = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    try_timed_out_ = false;
    std::optional<std::string> failure = attempt(once ? timeout_ : remaining, stop);
    last_tries_ = tries;
    if (!failure) return std::nullopt;
    if (!try_timed_out_) {
      answered = failure;
    } else if (answered) {
      failure = answered;
    }
    const Clock::time_point now = Clock::now();
    if (stop || now >= deadline || (max_tries_ > 0 && tries >= max_tries_)) {
      // A command that gave up at its first answer says nothing of retries;
      // one that was retried until its deadline always does, even when a
      // slow first try used up the whole timeout.
      if (tries == 1 && stop) return failure;
      while (!failure->empty() && failure->back() == '\n') failure->pop_back();
      const auto elapsed = std::chrono::duration_cast<milliseconds>(now - start);
      return *failure + "\n(after " + std::to_string(tries) + (tries == 1 ? " try" : " tries") + " over " +
             std::to_string(elapsed.count()) + " ms; timeout " + format_duration(timeout_) + ")";
    }
    std::this_thread::sleep_for(std::min<Clock::duration>(backoff, deadline - now));
    backoff = std::min(config_.max_backoff,
                       milliseconds(static_cast<long long>(backoff.count() * config_.backoff_factor)));
  }
}

std::optional<std::string> FileRunner::run_query(const Command& raw) {
  Command command = raw;
  if (auto error = substitute(raw.sql, command.sql)) return error;
  for (Row& row : command.expected_rows) {
    for (std::string& value : row) {
      if (auto error = substitute(value, value)) return error;
    }
  }
  return with_retries(runs_once(command.sql), [&](milliseconds timeout, bool& stop) -> std::optional<std::string> {
    ActualResult result;
    slt::ExecOutcome outcome;
    if (auto error = query(command.sql, timeout, result, outcome)) {
      stop = true;
      return error;
    }
    if (outcome.timed_out) return "timed out after " + format_duration(timeout);
    if (outcome.error) {
      std::string message = "query failed: " + outcome.error->message;
      if (!outcome.error->sqlstate.empty()) message += " (SQLSTATE " + outcome.error->sqlstate + ")";
      if (!outcome.error->detail.empty()) message += "\nDETAIL: " + outcome.error->detail;
      return message;
    }
    return compare_rows(command, result);
  });
}

std::optional<std::string> FileRunner::run_fail(const Command& raw) {
  Command command = raw;
  if (auto error = substitute(raw.sql, command.sql)) return error;
  if (auto error = substitute(raw.error.text, command.error.text)) return error;
  const bool once = runs_once(command.sql) &&
                    command.error.match != ErrorExpectation::Match::kTimeout;
  const bool timeout_expected = command.error.match == ErrorExpectation::Match::kTimeout;
  return with_retries(timeout_expected, [&](milliseconds timeout, bool& stop) -> std::optional<std::string> {
    ActualResult result;
    slt::ExecOutcome outcome;
    if (auto error = query(command.sql, timeout, result, outcome)) {
      stop = true;
      return error;
    }
    const ErrorCheck check = check_error(command.error, outcome.error, outcome.timed_out);
    if (check.matched) return std::nullopt;
    if (check.script_error || (once && !outcome.error) ||
        (outcome.error && outcome.error->sqlstate == "42601")) {
      stop = true;
    }
    return check.message;
  });
}

std::optional<std::string> FileRunner::run_explain(const Command& raw) {
  std::string sql;
  std::string expected;
  if (auto error = substitute(raw.sql, sql)) return error;
  if (auto error = substitute(raw.expected_text, expected)) return error;
  return with_retries(true, [&](milliseconds timeout, bool&) -> std::optional<std::string> {
    ActualResult result;
    slt::ExecOutcome outcome;
    if (auto error = query(sql, timeout, result, outcome)) return error;
    if (outcome.timed_out) return "timed out after " + format_duration(timeout);
    if (outcome.error) return "EXPLAIN failed: " + outcome.error->message;
    std::string text;
    for (const Row& row : result.rows) {
      if (!text.empty()) text += '\n';
      text += row.empty() ? std::string() : row[0];
    }
    return compare_plan(expected, text);
  });
}

}  // namespace tandem::td
