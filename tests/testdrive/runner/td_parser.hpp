#pragma once
// Parser of testdrive (.td) files, following Materialize's format
// (src/testdrive/src/parser.rs in Materialize's repository):
//
//   * a line starting with a sigil (`$ > ! ? *`) opens a command; the next
//     lines indented by two spaces continue its first line (folded with
//     '\n', so a long SQL statement can span lines); the lines after that,
//     up to the next sigil line, are its body;
//   * `#` at the start of a line is a comment, anywhere;
//   * a leading `\` is stripped from a body line, so a row can start with a
//     sigil or `#`;
//   * `>` body: rows of whitespace-separated values (`"..."` quotes a value,
//     with \" \\ \n \t \r escapes; `""` is the empty string); if the second
//     line is three or more dashes the first holds the column names; or one
//     line `N values hashing to MD5`; blank lines are ignored;
//   * `!` body: `contains:S`, `exact:S`, `regex:RE` or `timeout`, then
//     optional `detail:S` and `hint:S` lines;
//   * `?` body: the expected plan, blank lines included;
//   * `$` body: input lines of the built-in.
//
// Not supported (a parse error naming the line): version guards such as
// `>[version>=13500]` and `*` (jq) commands.

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tests/testdrive/runner/td_script.hpp"

namespace tandem::td {

struct ParseError {
  std::size_t line = 0;  // 1-based.
  std::string message;
};

std::variant<Script, ParseError> parse_td(std::string_view text);

// Splits an expected row into values (see above). Returns false with
// *error for an unterminated quote.
bool split_row(std::string_view line, std::vector<std::string>& values, std::string* error);

}  // namespace tandem::td
