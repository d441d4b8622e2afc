// libFuzzer target for the SQL parser: arbitrary bytes as SQL text.
// Besides memory safety (ASan/UBSan) and the stack (deep nesting must end
// in 54000, never an overflow), it checks the parser's contracts:
//   * an error carries a SQLSTATE and a message, a syntax error (42601) a
//     position inside the text (or just past it);
//   * every supported statement that parses prints to SQL that parses back
//     to an equal statement, and printing that again gives the same text
//     (the round trip roundtrip_test.cpp checks for hand-written ones);
//   * the same text as a lone expression or type name (parse_expression,
//     parse_type) is accepted or rejected without crashing.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/sqlstate.hpp"
#include "planner/parser/parser.hpp"
#include "planner/parser/printer.hpp"
#include "planner/testing/fuzz_check.hpp"

using namespace tandem;
using namespace tandem::sql;

namespace {

using planner::testing::fuzz_check;

void check_error(const Status& s, std::string_view sql) {
  planner::testing::fuzz_check_error(s);
  if (s.sqlstate() == sqlstate::kSyntaxError) {
    fuzz_check(s.position() >= 1 && static_cast<size_t>(s.position()) <= sql.size() + 1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view sql(reinterpret_cast<const char*>(data), size);
  auto parsed = parse_statements(sql);
  if (!parsed.ok()) {
    check_error(parsed.status(), sql);
  } else {
    for (const ParsedStatement& ps : *parsed) {
      // An unsupported statement prints as its name ("ALTER TABLE RENAME
      // COLUMN"), not as SQL.
      if (ps.statement.as<Unsupported>()) continue;
      const std::string printed = print(ps.statement);
      auto again = parse_one(printed);
      // A statement the printer wrote nests no deeper than the input did,
      // but its text may spell a chain as nested parentheses, so a 54000 on
      // the reparse is the one error allowed.
      if (!again.ok() && again.status().sqlstate() == sqlstate::kProgramLimitExceeded) continue;
      if (!again.ok() || !(*again == ps.statement) || print(*again) != printed) {
        std::fprintf(stderr, "round trip failed\nstatement: %s\nprinted:   %s\nreparsed:  %s\n", ps.sql.c_str(),
                     printed.c_str(), again.ok() ? print(*again).c_str() : again.status().to_string().c_str());
        std::abort();
      }
    }
  }
  if (auto e = parse_expression(sql); !e.ok()) check_error(e.status(), sql);
  if (auto t = parse_type(sql); !t.ok()) check_error(t.status(), sql);
  return 0;
}
