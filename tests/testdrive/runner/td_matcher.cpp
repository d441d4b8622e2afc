#include "tests/testdrive/runner/td_matcher.hpp"

#include <algorithm>
#include <sstream>

#include "sqllogic/runner/result_check.hpp"
#include "tests/testdrive/runner/td_values.hpp"

namespace tandem::td {
namespace {

std::string render_row(const Row& row) {
  std::string line;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (i > 0) line += ' ';
    line += quote_value(row[i]);
  }
  return line;
}

std::vector<std::string> normalized_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
      line.pop_back();
    }
    lines.push_back(line);
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

}  // namespace

bool RegexRule::set(const std::string& pattern, const std::string& replacement, std::string* error) {
  try {
    regex_ = std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    *error = "invalid regex " + pattern + ": " + e.what();
    return false;
  }
  replacement_ = replacement;
  active_ = true;
  return true;
}

std::string RegexRule::apply(const std::string& text) const {
  if (!active_) return text;
  return std::regex_replace(text, regex_, replacement_);
}

std::string render_rows(std::vector<Row> rows, const std::string& prefix) {
  std::sort(rows.begin(), rows.end());
  std::string out;
  for (const Row& row : rows) out += prefix + render_row(row) + "\n";
  return out;
}

std::optional<std::string> compare_rows(const Command& expected, const ActualResult& actual) {
  std::string message;
  if (expected.column_names && *expected.column_names != actual.column_names) {
    message += "column names differ:\n- " + render_row(*expected.column_names) + "\n+ " +
               render_row(actual.column_names) + "\n";
  }
  std::vector<Row> actual_rows = actual.rows;
  std::sort(actual_rows.begin(), actual_rows.end());
  if (expected.hashed) {
    std::vector<std::string> values;
    for (const Row& row : actual_rows) values.insert(values.end(), row.begin(), row.end());
    const std::string hash = slt::md5_of_values(values);
    if (values.size() != expected.hash_count || hash != expected.hash) {
      message += "expected " + std::to_string(expected.hash_count) + " values hashing to " +
                 expected.hash + ", got " + std::to_string(values.size()) + " values hashing to " +
                 hash + "\n";
    }
    return message.empty() ? std::nullopt : std::optional<std::string>(message);
  }
  std::vector<Row> expected_rows = expected.expected_rows;
  std::sort(expected_rows.begin(), expected_rows.end());
  if (expected_rows != actual_rows) {
    // A merge of the two sorted lists: what only one side has.
    std::string diff;
    std::size_t e = 0, a = 0;
    while (e < expected_rows.size() || a < actual_rows.size()) {
      if (a == actual_rows.size() || (e < expected_rows.size() && expected_rows[e] < actual_rows[a])) {
        diff += "- " + render_row(expected_rows[e++]) + "\n";
      } else if (e == expected_rows.size() || actual_rows[a] < expected_rows[e]) {
        diff += "+ " + render_row(actual_rows[a++]) + "\n";
      } else {
        ++e;
        ++a;
      }
    }
    message += "non-matching rows: expected " + std::to_string(expected_rows.size()) +
               ", got " + std::to_string(actual_rows.size()) + "\nexpected:\n" +
               render_rows(expected_rows, "  ") + "got:\n" + render_rows(actual_rows, "  ") +
               "diff:\n" + diff;
  }
  return message.empty() ? std::nullopt : std::optional<std::string>(message);
}

ErrorCheck check_error(const ErrorExpectation& expected, const std::optional<slt::PgError>& error,
                       bool timed_out) {
  using Match = ErrorExpectation::Match;
  ErrorCheck check;
  if (expected.match == Match::kTimeout) {
    check.matched = timed_out;
    if (!timed_out) {
      check.message = error ? "expected a timeout, got error: " + error->message
                            : "expected a timeout, but the statement completed";
    }
    return check;
  }
  if (timed_out) {
    check.message = "the statement timed out";
    return check;
  }
  if (!error) {
    check.message = "the statement succeeded, but an error was expected";
    return check;
  }
  const std::string& actual = error->message;
  bool matched = false;
  switch (expected.match) {
    case Match::kContains: matched = actual.find(expected.text) != std::string::npos; break;
    case Match::kExact: matched = actual == expected.text; break;
    case Match::kRegex:
      try {
        matched = std::regex_search(actual, std::regex(expected.text, std::regex::ECMAScript));
      } catch (const std::regex_error& e) {
        check.script_error = true;
        check.message = "invalid regex " + expected.text + ": " + e.what();
        return check;
      }
      break;
    case Match::kTimeout: break;
  }
  static const char* const kMatchNames[] = {"contains", "exact", "regex", "timeout"};
  if (!matched) {
    check.message = std::string("error does not match:\n- ") +
                    kMatchNames[static_cast<int>(expected.match)] + ":" + expected.text +
                    "\n+ " + actual + (error->sqlstate.empty() ? "" : " (SQLSTATE " + error->sqlstate + ")");
    return check;
  }
  if (expected.detail && *expected.detail != error->detail) {
    check.message = "error detail does not match:\n- detail:" + *expected.detail + "\n+ detail:" +
                    error->detail;
    return check;
  }
  if (expected.hint && *expected.hint != error->hint) {
    check.message = "error hint does not match:\n- hint:" + *expected.hint + "\n+ hint:" + error->hint;
    return check;
  }
  check.matched = true;
  return check;
}

std::optional<std::string> compare_plan(const std::string& expected, const std::string& actual) {
  const std::vector<std::string> want = normalized_lines(expected);
  const std::vector<std::string> got = normalized_lines(actual);
  if (want == got) return std::nullopt;
  std::string message = "plan differs:\n";
  const std::size_t lines = std::max(want.size(), got.size());
  for (std::size_t i = 0; i < lines; ++i) {
    const bool has_want = i < want.size(), has_got = i < got.size();
    if (has_want && has_got && want[i] == got[i]) {
      message += "  " + want[i] + "\n";
      continue;
    }
    if (has_want) message += "- " + want[i] + "\n";
    if (has_got) message += "+ " + got[i] + "\n";
  }
  return message;
}

}  // namespace tandem::td
