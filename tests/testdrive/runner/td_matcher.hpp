#pragma once
// Checks a command's outcome against its expectation, and says how it
// differs in a diff-style message (`- ` expected only, `+ ` actual only).
//
// Rows: expected and actual rows are sorted (values compared as byte
// strings, column by column) and must be equal; column names, when the
// script lists them, must equal the result's. `N values hashing to MD5`
// compares the MD5 of the sorted actual values, each followed by '\n'.
//
// Errors: contains:/exact:/regex: are matched against the primary message
// (after the active set-regex), detail:/hint: exactly against those fields.
// regex: uses ECMAScript syntax; a pattern that does not compile is an
// error of the script, not a mismatch.
//
// Plans (`?`): compared as text after trimming trailing whitespace from
// each line and trailing blank lines.

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "sqllogic/runner/pg_session.hpp"
#include "tests/testdrive/runner/td_script.hpp"

namespace tandem::td {

using Row = std::vector<std::string>;

// A result after value formatting (td_values).
struct ActualResult {
  std::vector<std::string> column_names;
  std::vector<Row> rows;
};

// The active `$ set-regex`: applied to result values, error messages and
// plan text before they are compared.
class RegexRule {
 public:
  // False with *error if `pattern` does not compile.
  bool set(const std::string& pattern, const std::string& replacement, std::string* error);
  void clear() { active_ = false; }
  std::string apply(const std::string& text) const;

 private:
  bool active_ = false;
  std::regex regex_;
  std::string replacement_;
};

// nullopt when `actual` matches the `>` command's expected result, else
// the mismatch as a diff.
std::optional<std::string> compare_rows(const Command& expected, const ActualResult& actual);

struct ErrorCheck {
  bool matched = false;
  bool script_error = false;  // The expectation itself is invalid (bad regex).
  std::string message;        // Why it did not match.
};

// `error` is the statement's error, or nullopt if it succeeded; `timed_out`
// whether it ran past the timeout.
ErrorCheck check_error(const ErrorExpectation& expected, const std::optional<slt::PgError>& error,
                       bool timed_out);

// nullopt when the plan text matches, else a line diff.
std::optional<std::string> compare_plan(const std::string& expected, const std::string& actual);

// Sorted rows, one per line, values quoted as in a script, each line
// prefixed by `prefix`.
std::string render_rows(std::vector<Row> rows, const std::string& prefix);

}  // namespace tandem::td
