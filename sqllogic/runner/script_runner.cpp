#include "sqllogic/runner/script_runner.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <thread>
#include <cstdlib>
#include <cstring>

#include "sqllogic/runner/error_match.hpp"
#include "sqllogic/runner/result_check.hpp"
#include "sqllogic/runner/value_format.hpp"

namespace tandem::slt {
namespace {

// Bounds on failure output, so one huge result does not bury the report.
constexpr std::size_t kMaxShownLines = 25;
constexpr std::size_t kMaxShownLineLength = 200;

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

void print_block(std::ostream& out, const char* title, const std::vector<std::string>& lines) {
  out << "  " << title << ":\n";
  if (lines.empty()) out << "    (nothing)\n";
  for (std::size_t i = 0; i < lines.size() && i < kMaxShownLines; ++i) {
    const std::string& line = lines[i];
    out << "    " << line.substr(0, kMaxShownLineLength)
        << (line.size() > kMaxShownLineLength ? "..." : "") << '\n';
  }
  if (lines.size() > kMaxShownLines) {
    out << "    ... (" << lines.size() - kMaxShownLines << " more lines)\n";
  }
}

// Rows affected/returned by a result, from its command tag.
std::int64_t affected_rows(const PGresult* result) {
  const char* tuples = PQcmdTuples(const_cast<PGresult*>(result));
  std::int64_t count = 0;
  if (tuples && *tuples) std::from_chars(tuples, tuples + std::strlen(tuples), count);
  else if (PQresultStatus(result) == PGRES_TUPLES_OK) count = PQntuples(result);
  return count;
}

const char* describe(RecordKind kind) {
  switch (kind) {
    case RecordKind::kStatementOk: return "statement ok";
    case RecordKind::kStatementCount: return "statement count";
    case RecordKind::kStatementError: return "statement error";
    case RecordKind::kQuery: return "query";
    case RecordKind::kQueryError: return "query error";
    case RecordKind::kSimple: return "simple";
    default: return "record";
  }
}

bool counts_as_test(RecordKind kind) {
  switch (kind) {
    case RecordKind::kStatementOk:
    case RecordKind::kStatementCount:
    case RecordKind::kStatementError:
    case RecordKind::kQuery:
    case RecordKind::kQueryError:
    case RecordKind::kSimple:
    case RecordKind::kInvalid:
      return true;
    default:
      return false;
  }
}

}  // namespace

Counts ScriptRunner::run(const std::string& path, const std::vector<Record>& records,
                         bool* stopped) {
  path_ = path;
  mode_ = OutputMode::kStandard;
  label_hashes_.clear();
  sessions_.clear();
  diagnostics_shown_ = false;
  *stopped = false;
  Counts counts;
  for (const Record& record : records) {
    const bool applies = record_applies(record, options_.database_names);
    if (!applies) {
      if (counts_as_test(record.kind)) ++counts.skipped;
      continue;
    }
    if (record.kind == RecordKind::kHalt) break;
    const Verdict verdict = run_record(record);
    if (verdict == Verdict::kFail) {
      ++counts.failed;
      if (options_.stop_on_fail) {
        *stopped = true;
        break;
      }
    } else if (counts_as_test(record.kind)) {
      ++counts.passed;
      if (options_.verbose) out_ << path_ << ':' << record.line << ": ok\n";
    }
  }
  sessions_.clear();
  return counts;
}

ScriptRunner::Verdict ScriptRunner::run_record(const Record& record) {
  switch (record.kind) {
    case RecordKind::kStatementOk:
    case RecordKind::kStatementCount: return run_statement(record);
    case RecordKind::kStatementError:
    case RecordKind::kQueryError: return run_expected_error(record);
    case RecordKind::kQuery: return run_query(record);
    case RecordKind::kSimple: return run_simple(record);
    case RecordKind::kMode: mode_ = record.mode; return Verdict::kPass;
    case RecordKind::kResetServer: return reset_server(record);
    case RecordKind::kInvalid: fail(record, "unparsable record: " + record.error); return Verdict::kFail;
    case RecordKind::kHashThreshold:  // Expected output says whether it is hashed.
    case RecordKind::kHalt:
    case RecordKind::kIgnored: return Verdict::kPass;
  }
  return Verdict::kPass;
}

PgSession* ScriptRunner::session_for(const Record& record, const std::string& name,
                                     const std::string& user) {
  const std::string key = name + '\x1f' + user;
  std::unique_ptr<PgSession>& session = sessions_[key];
  if (session && session->is_broken()) session.reset();
  if (!session) {
    ConnectTarget target = target_.connect_target();
    if (!user.empty()) target.user = user;
    else if (!options_.default_user.empty()) target.user = options_.default_user;
    std::string error;
    session = PgSession::connect(target, &error);
    if (!session) {
      // The server's diagnostics (e.g. its log tail) once per file; repeating
      // them for every later record would bury the report.
      std::vector<std::string> diagnostics;
      if (!diagnostics_shown_) diagnostics = split_lines(target_.diagnostics());
      diagnostics_shown_ = true;
      fail(record, "cannot connect: " + error, {}, diagnostics);
      return nullptr;
    }
  }
  return session.get();
}

std::optional<ExecOutcome> ScriptRunner::execute(const Record& record) {
  PgSession* session = session_for(record, "", "");
  if (!session) return std::nullopt;
  return session->execute(record.sql, options_.timeout);
}

ScriptRunner::Verdict ScriptRunner::run_statement(const Record& record) {
  std::optional<ExecOutcome> outcome = execute(record);
  if (!outcome) return Verdict::kFail;
  if (outcome->timed_out) {
    fail(record, "timed out");
    return Verdict::kFail;
  }
  if (outcome->error) {
    fail(record, "statement failed", {"success"}, split_lines(outcome->error->full));
    return Verdict::kFail;
  }
  if (record.kind == RecordKind::kStatementCount) {
    const std::int64_t count = outcome->results.empty() ? 0 : affected_rows(outcome->results.back().get());
    if (count != record.expected_count) {
      fail(record, "wrong row count", {std::to_string(record.expected_count)},
           {std::to_string(count)});
      return Verdict::kFail;
    }
  }
  return Verdict::kPass;
}

ScriptRunner::Verdict ScriptRunner::run_expected_error(const Record& record) {
  std::optional<ExecOutcome> outcome = execute(record);
  if (!outcome) return Verdict::kFail;
  std::vector<std::string> expected;
  if (!record.error_pgcode.empty()) expected.push_back("pgcode " + record.error_pgcode);
  expected.push_back(record.error_regex.empty() ? "(any error)" : record.error_regex);
  if (outcome->timed_out) {
    fail(record, "timed out", expected);
    return Verdict::kFail;
  }
  if (!outcome->error) {
    fail(record, "expected an error, statement succeeded", expected);
    return Verdict::kFail;
  }
  if (!error_matches(*outcome->error, record.error_regex, record.error_pgcode)) {
    std::vector<std::string> actual = split_lines(outcome->error->full);
    if (!outcome->error->sqlstate.empty()) actual.push_back("(SQLSTATE " + outcome->error->sqlstate + ")");
    fail(record, "error does not match", expected, actual);
    return Verdict::kFail;
  }
  return Verdict::kPass;
}

ScriptRunner::Verdict ScriptRunner::run_query(const Record& record) {
  if (!record.retry) return run_query_once(record, /*last=*/true);
  // Reads of converging relations: again while the result differs.
  constexpr auto kRetryFor = std::chrono::seconds(30);
  const auto deadline = std::chrono::steady_clock::now() + kRetryFor;
  auto pause = std::chrono::milliseconds(10);
  while (true) {
    const bool last = std::chrono::steady_clock::now() + pause >= deadline;
    const Verdict verdict = run_query_once(record, last);
    if (verdict != Verdict::kRetry) return verdict;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(500));
  }
}

ScriptRunner::Verdict ScriptRunner::run_query_once(const Record& record, bool last) {
  std::optional<ExecOutcome> outcome = execute(record);
  if (!outcome) return Verdict::kFail;
  if (outcome->timed_out) {
    fail(record, "timed out");
    return Verdict::kFail;
  }
  if (outcome->error) {
    fail(record, "query failed", record.expected, split_lines(outcome->error->full));
    return Verdict::kFail;
  }
  FormattedResult formatted;
  if (!outcome->results.empty()) {
    const PGresult* result = outcome->results.back().get();
    const int columns = PQnfields(result);
    formatted.column_count = static_cast<std::size_t>(columns);
    for (int column = 0; column < columns; ++column) {
      formatted.column_names.emplace_back(PQfname(result, column));
    }
    for (int row = 0; row < PQntuples(result); ++row) {
      for (int column = 0; column < columns; ++column) {
        Cell cell;
        cell.is_null = PQgetisnull(result, row, column) != 0;
        cell.text = std::string_view(PQgetvalue(result, row, column),
                                     static_cast<std::size_t>(PQgetlength(result, row, column)));
        cell.type_oid = PQftype(result, column);
        const char type = static_cast<std::size_t>(column) < record.types.size()
                              ? record.types[static_cast<std::size_t>(column)]
                              : 'T';
        formatted.values.push_back(format_value(cell, type, mode_));
      }
    }
  }
  const CheckOutcome check = check_query_result(record, mode_, formatted);
  if (!check.passed) {
    if (!last) return Verdict::kRetry;
    fail(record, check.reason, check.expected, check.actual);
    return Verdict::kFail;
  }
  if (!record.label.empty()) {
    auto [it, inserted] = label_hashes_.emplace(record.label, check.actual_hash);
    if (!inserted && it->second != check.actual_hash) {
      fail(record, "result differs from an earlier query labelled " + record.label,
           {"hash " + it->second}, {"hash " + check.actual_hash});
      return Verdict::kFail;
    }
  }
  return Verdict::kPass;
}

ScriptRunner::Verdict ScriptRunner::run_simple(const Record& record) {
  PgSession* session = session_for(record, record.conn_name, record.conn_user);
  if (!session) return Verdict::kFail;
  ExecOutcome outcome = session->execute(record.sql, options_.timeout);
  if (outcome.timed_out) {
    fail(record, "timed out");
    return Verdict::kFail;
  }
  std::vector<std::string> actual;
  for (const PgResult& result : outcome.results) {
    const ExecStatusType status = PQresultStatus(result.get());
    if (status == PGRES_TUPLES_OK) {
      for (int row = 0; row < PQntuples(result.get()); ++row) {
        std::string line;
        for (int column = 0; column < PQnfields(result.get()); ++column) {
          if (column > 0) line += ',';
          line += PQgetisnull(result.get(), row, column) ? "NULL"
                                                          : PQgetvalue(result.get(), row, column);
        }
        actual.push_back(std::move(line));
      }
    }
    if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
      actual.push_back("COMPLETE " + std::to_string(affected_rows(result.get())));
    }
  }
  if (outcome.error) {
    for (std::string& line : split_lines(client_error_text(*outcome.error))) {
      actual.push_back(std::move(line));
    }
  }
  if (actual != record.expected) {
    fail(record, "simple output differs", record.expected, actual);
    return Verdict::kFail;
  }
  return Verdict::kPass;
}

ScriptRunner::Verdict ScriptRunner::reset_server(const Record& record) {
  sessions_.clear();
  std::string error;
  if (!target_.reset(&error)) {
    fail(record, "reset-server failed: " + error);
    return Verdict::kFail;
  }
  return Verdict::kPass;
}

void ScriptRunner::fail(const Record& record, const std::string& reason,
                        const std::vector<std::string>& expected,
                        const std::vector<std::string>& actual) {
  out_ << path_ << ':' << record.line << ": FAIL " << describe(record.kind) << ": " << reason
       << '\n';
  if (!record.sql.empty()) print_block(out_, "sql", split_lines(record.sql));
  if (!expected.empty() || !actual.empty()) {
    print_block(out_, "expected", expected);
    print_block(out_, "actual", actual);
  }
}

}  // namespace tandem::slt
