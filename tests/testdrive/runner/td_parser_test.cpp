#include "tests/testdrive/runner/td_parser.hpp"

#include <catch2/catch.hpp>

namespace tandem::td {
namespace {

Script parse_ok(const std::string& text) {
  auto parsed = parse_td(text);
  if (auto* error = std::get_if<ParseError>(&parsed)) FAIL("line " << error->line << ": " << error->message);
  return std::get<Script>(parsed);
}

ParseError parse_error(const std::string& text) {
  auto parsed = parse_td(text);
  REQUIRE(std::holds_alternative<ParseError>(parsed));
  return std::get<ParseError>(parsed);
}

}  // namespace

TEST_CASE("a query with rows, continuation lines and comments") {
  const Script script = parse_ok(
      "# a comment\n"
      "\n"
      "> SELECT a, b\n"
      "  FROM t\n"
      "1 x\n"
      "# between rows\n"
      "2 \"two words\"\n"
      "\n"
      "3 <null>\n");
  REQUIRE(script.commands.size() == 1);
  const Command& command = script.commands[0];
  CHECK(command.kind == CommandKind::kQuery);
  CHECK(command.line == 3);
  CHECK(command.sql == "SELECT a, b\nFROM t");
  CHECK_FALSE(command.column_names);
  REQUIRE(command.expected_rows.size() == 3);
  CHECK(command.expected_rows[1] == std::vector<std::string>{"2", "two words"});
  CHECK(command.expected_rows[2] == std::vector<std::string>{"3", "<null>"});
}

TEST_CASE("column-name header, empty result and hash form") {
  const Script script = parse_ok(
      "> SELECT a AS x, b AS y FROM t\n"
      "x y\n"
      "---\n"
      "1 2\n"
      "> SELECT * FROM empty\n"
      "> SELECT * FROM big\n"
      "6 values hashing to 0123456789abcdef0123456789abcdef\n");
  REQUIRE(script.commands.size() == 3);
  REQUIRE(script.commands[0].column_names);
  CHECK(*script.commands[0].column_names == std::vector<std::string>{"x", "y"});
  CHECK(script.commands[0].expected_rows.size() == 1);
  CHECK(script.commands[1].expected_rows.empty());
  CHECK_FALSE(script.commands[1].hashed);
  CHECK(script.commands[2].hashed);
  CHECK(script.commands[2].hash_count == 6);
  CHECK(script.commands[2].hash == "0123456789abcdef0123456789abcdef");
}

TEST_CASE("a leading backslash lets a row start with a sigil") {
  const Script script = parse_ok("> SELECT '>', '#'\n\\> \\#\n");
  REQUIRE(script.commands.size() == 1);
  REQUIRE(script.commands[0].expected_rows.size() == 1);
  CHECK(script.commands[0].expected_rows[0] == std::vector<std::string>{">", "\\#"});
}

TEST_CASE("error expectations") {
  const Script script = parse_ok(
      "! SELECT 1/0\n"
      "contains:division by zero\n"
      "! SELECT x\n"
      "exact:column \"x\" does not exist\n"
      "! DROP TABLE t\n"
      "regex:unknown catalog item '.*'\n"
      "detail:some detail\n"
      "hint:some hint\n"
      "! SELECT 2\n"
      "contains: padded  \n"
      "! SELECT mz_sleep(10)\n"
      "timeout\n");
  REQUIRE(script.commands.size() == 5);
  using Match = ErrorExpectation::Match;
  CHECK(script.commands[0].kind == CommandKind::kFail);
  CHECK(script.commands[0].error.match == Match::kContains);
  CHECK(script.commands[0].error.text == "division by zero");
  CHECK(script.commands[1].error.match == Match::kExact);
  CHECK(script.commands[1].error.text == "column \"x\" does not exist");
  CHECK(script.commands[2].error.match == Match::kRegex);
  CHECK(script.commands[2].error.detail == std::optional<std::string>("some detail"));
  CHECK(script.commands[2].error.hint == std::optional<std::string>("some hint"));
  CHECK(script.commands[3].error.text == "padded");  // Trimmed, as testdrive does.
  CHECK(script.commands[4].error.match == Match::kTimeout);
}

TEST_CASE("a bad error expectation is a parse error at its line") {
  CHECK(parse_error("! SELECT 1\n").line == 1);
  const ParseError error = parse_error("> SELECT 1\n1\n! SELECT 1/0\ndivision by zero\n");
  CHECK(error.line == 4);
  CHECK(error.message.find("contains:") != std::string::npos);
  CHECK(parse_error("! SELECT 1/0\ncontains:x\nsomething else\n").line == 3);
}

TEST_CASE("explain blocks keep blank lines, drop trailing ones") {
  const Script script = parse_ok(
      "? EXPLAIN SELECT 1\n"
      "Explained Query (fast path):\n"
      "  Constant\n"
      "\n"
      "Target cluster: quickstart\n"
      "\n"
      "\n"
      "> SELECT 1\n"
      "1\n");
  REQUIRE(script.commands.size() == 2);
  CHECK(script.commands[0].kind == CommandKind::kExplain);
  CHECK(script.commands[0].sql == "EXPLAIN SELECT 1");
  CHECK(script.commands[0].expected_text ==
        "Explained Query (fast path):\n  Constant\n\nTarget cluster: quickstart");
}

TEST_CASE("built-ins: name, arguments and body") {
  const Script script = parse_ok(
      "$ set-regex match=\\d{13} replacement=<TIMESTAMP>\n"
      "$ set schema\n"
      "{\"type\": \"record\"}\n"
      "$ postgres-execute connection=postgres://materialize@${testdrive.materialize-sql-addr}\n"
      "CREATE TABLE a (x int)\n"
      "INSERT INTO a VALUES (1)\n");
  REQUIRE(script.commands.size() == 3);
  const Command& regex = script.commands[0];
  CHECK(regex.kind == CommandKind::kBuiltin);
  CHECK(regex.builtin == "set-regex");
  REQUIRE(regex.args.size() == 2);
  CHECK(regex.args[0].name == "match");
  CHECK(regex.args[0].value == "\\d{13}");
  CHECK(regex.args[1].value == "<TIMESTAMP>");
  const Command& set = script.commands[1];
  REQUIRE(set.args.size() == 1);
  CHECK(set.args[0].name == "schema");
  CHECK_FALSE(set.args[0].has_value);
  CHECK(set.body == std::vector<std::string>{"{\"type\": \"record\"}"});
  CHECK(script.commands[2].body.size() == 2);
  CHECK(script.commands[2].args[0].value == "postgres://materialize@${testdrive.materialize-sql-addr}");
}

TEST_CASE("built-in arguments: quotes group words, duplicates are errors") {
  const Script script = parse_ok("$ set-regex match=\"u[0-9]+ x\" replacement=\"<ID X>\"\n");
  REQUIRE(script.commands[0].args.size() == 2);
  CHECK(script.commands[0].args[0].value == "u[0-9]+ x");
  CHECK(script.commands[0].args[1].value == "<ID X>");
  CHECK(parse_error("$ set a=1 a=2\n").message == "argument a given twice");
  CHECK(parse_error("$ set a=\"open\n").message.find("unterminated quote") != std::string::npos);
  CHECK(parse_error("$\n").message.find("needs a built-in command name") != std::string::npos);
}

TEST_CASE("unsupported syntax and stray lines are parse errors") {
  CHECK(parse_error("SELECT 1\n").line == 1);
  CHECK(parse_error("> SELECT 1\n1\n>[version>=13500] SELECT 2\n2\n").message.find("version guard") !=
        std::string::npos);
  CHECK(parse_error("* SELECT 1\n.\n").message.find("jq") != std::string::npos);
  CHECK(parse_error("> SELECT 1\n\"unterminated\n").line == 2);
  CHECK(parse_error(">\n").message.find("needs a SQL statement") != std::string::npos);
}

TEST_CASE("split_row: quoting and escapes") {
  std::vector<std::string> values;
  std::string error;
  REQUIRE(split_row(R"(a  "b c" "" "q\"x\\y" "n\nt\t")", values, &error));
  CHECK(values == std::vector<std::string>{"a", "b c", "", "q\"x\\y", "n\nt\t"});
  values.clear();
  REQUIRE(split_row("   ", values, &error));
  CHECK(values.empty());
  CHECK_FALSE(split_row("\"open", values, &error));
}

}  // namespace tandem::td
