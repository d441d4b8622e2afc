#pragma once
// A parsed testdrive (.td) script: plain data, produced by td_parser and
// executed by FileRunner. Text is kept as written: `${var}` references are
// substituted when a command runs, since `$ set-from-sql` defines variables
// mid-file.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tandem::td {

enum class CommandKind {
  kQuery,    // `> SQL`: must succeed with the expected rows.
  kFail,     // `! SQL`: must fail with the expected error.
  kExplain,  // `? EXPLAIN ...`: the plan text must equal the block.
  kBuiltin,  // `$ name k=v ...`: a built-in command with body lines.
};

// How a `!` command's error message is matched.
struct ErrorExpectation {
  enum class Match { kContains, kExact, kRegex, kTimeout };
  Match match = Match::kContains;
  std::string text;  // Unused for kTimeout.
  std::optional<std::string> detail;  // `detail:` line, compared exactly.
  std::optional<std::string> hint;    // `hint:` line, compared exactly.
};

struct Command {
  CommandKind kind = CommandKind::kQuery;
  std::size_t line = 0;  // 1-based line of the sigil.
  std::string sql;       // >, !, ?: the statement, continuation lines folded.

  // `>`: the expected result. Either rows (each a list of values, unsorted
  // as written) with optional column names, or an MD5 form.
  std::optional<std::vector<std::string>> column_names;
  std::vector<std::vector<std::string>> expected_rows;
  bool hashed = false;
  std::size_t hash_count = 0;
  std::string hash;

  // `!`
  ErrorExpectation error;

  // `?`: the expected plan, lines joined by '\n', trailing blank lines cut.
  std::string expected_text;

  // `$`: the built-in's name, its k=v arguments in order (a bare word has
  // an empty value and has_value false), and its body lines.
  std::string builtin;
  struct Argument {
    std::string name;
    std::string value;
    bool has_value = false;
  };
  std::vector<Argument> args;
  std::vector<std::string> body;
};

struct Script {
  std::vector<Command> commands;
};

}  // namespace tandem::td
