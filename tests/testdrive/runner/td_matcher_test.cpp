#include "tests/testdrive/runner/td_matcher.hpp"

#include <catch2/catch.hpp>

#include "tests/testdrive/runner/td_runner.hpp"
#include "tests/testdrive/runner/td_values.hpp"
#include "tests/testdrive/runner/td_variables.hpp"

namespace tandem::td {

TEST_CASE("rows compare sorted, both sides") {
  Command command;
  command.expected_rows = {{"2", "b"}, {"1", "a"}};
  CHECK_FALSE(compare_rows(command, ActualResult{{"x", "y"}, {{"1", "a"}, {"2", "b"}}}));
  const auto mismatch = compare_rows(command, ActualResult{{"x", "y"}, {{"1", "a"}, {"3", "c"}}});
  REQUIRE(mismatch);
  CHECK(mismatch->find("- 2 b\n+ 3 c\n") != std::string::npos);
  // Duplicates count.
  CHECK(compare_rows(command, ActualResult{{}, {{"1", "a"}, {"2", "b"}, {"2", "b"}}}));
  // No rows expected means an empty result.
  Command empty;
  CHECK_FALSE(compare_rows(empty, ActualResult{}));
  CHECK(compare_rows(empty, ActualResult{{"x"}, {{"1"}}}));
}

TEST_CASE("column names are checked only when listed") {
  Command command;
  command.expected_rows = {{"1"}};
  command.column_names = std::vector<std::string>{"x"};
  CHECK_FALSE(compare_rows(command, ActualResult{{"x"}, {{"1"}}}));
  const auto mismatch = compare_rows(command, ActualResult{{"y"}, {{"1"}}});
  REQUIRE(mismatch);
  CHECK(mismatch->find("column names differ:\n- x\n+ y") != std::string::npos);
}

TEST_CASE("hashed results") {
  Command command;
  command.hashed = true;
  command.hash_count = 2;
  command.hash = "6ddb4095eb719e2a9f0a3f95677d24e0";  // printf '1\n2\n' | md5sum
  CHECK_FALSE(compare_rows(command, ActualResult{{"x"}, {{"2"}, {"1"}}}));
  CHECK(compare_rows(command, ActualResult{{"x"}, {{"1"}, {"3"}}}));
}

TEST_CASE("mismatched rows are shown quoted as a script writes them") {
  Command command;
  command.expected_rows = {{"a b", ""}};
  const auto mismatch = compare_rows(command, ActualResult{{}, {{"<null>", "x"}}});
  REQUIRE(mismatch);
  CHECK(mismatch->find("+ <null> x\n- \"a b\" \"\"\n") != std::string::npos);
}

TEST_CASE("error matching: contains, exact, regex, detail, hint, timeout") {
  using Match = ErrorExpectation::Match;
  // Built in one piece: member-wise assignment of literals trips g++ 12's
  // bogus -Wrestrict warning.
  const slt::PgError error{"22012", "Evaluation error: division by zero", "d", "", ""};
  const std::optional<slt::PgError> failed = error;

  CHECK(check_error({Match::kContains, "division by zero", {}, {}}, failed, false).matched);
  CHECK_FALSE(check_error({Match::kContains, "overflow", {}, {}}, failed, false).matched);
  CHECK(check_error({Match::kExact, error.message, {}, {}}, failed, false).matched);
  CHECK_FALSE(check_error({Match::kExact, "division by zero", {}, {}}, failed, false).matched);
  CHECK(check_error({Match::kRegex, "^Evaluation error: .* zero$", {}, {}}, failed, false).matched);
  CHECK_FALSE(check_error({Match::kRegex, "^division", {}, {}}, failed, false).matched);
  CHECK(check_error({Match::kContains, "zero", std::string("d"), {}}, failed, false).matched);
  CHECK_FALSE(check_error({Match::kContains, "zero", std::string("other"), {}}, failed, false).matched);
  CHECK_FALSE(check_error({Match::kContains, "zero", {}, std::string("h")}, failed, false).matched);

  const ErrorCheck success = check_error({Match::kContains, "zero", {}, {}}, std::nullopt, false);
  CHECK_FALSE(success.matched);
  CHECK(success.message.find("succeeded") != std::string::npos);

  const ErrorCheck bad_regex = check_error({Match::kRegex, "(unclosed", {}, {}}, failed, false);
  CHECK_FALSE(bad_regex.matched);
  CHECK(bad_regex.script_error);
  CHECK(bad_regex.message.find("invalid regex") != std::string::npos);

  CHECK(check_error({Match::kTimeout, "", {}, {}}, std::nullopt, true).matched);
  CHECK_FALSE(check_error({Match::kTimeout, "", {}, {}}, std::nullopt, false).matched);
  CHECK_FALSE(check_error({Match::kContains, "zero", {}, {}}, failed, true).matched);
}

TEST_CASE("set-regex rule") {
  RegexRule rule;
  CHECK(rule.apply("u1 at 1670000000000") == "u1 at 1670000000000");
  std::string error;
  REQUIRE(rule.set("[0-9]{13}", "<TIMESTAMP>", &error));
  CHECK(rule.apply("u1 at 1670000000000") == "u1 at <TIMESTAMP>");
  CHECK_FALSE(rule.set("[unclosed", "x", &error));
  CHECK(error.find("invalid regex") != std::string::npos);
  rule.clear();
  CHECK(rule.apply("1670000000000") == "1670000000000");
}

TEST_CASE("plans compare line by line, ignoring trailing whitespace") {
  CHECK_FALSE(compare_plan("a\n  b\n", "a  \n  b\n\n"));
  const auto mismatch = compare_plan("a\n  b\nc", "a\n  x\nc");
  REQUIRE(mismatch);
  CHECK(*mismatch == "plan differs:\n  a\n-   b\n+   x\n  c\n");
}

TEST_CASE("value formatting follows testdrive's client") {
  CHECK(format_value(kBoolOid, "t", false) == "true");
  CHECK(format_value(kBoolOid, "f", false) == "false");
  CHECK(format_value(23, "", true) == "<null>");
  CHECK(format_value(25, "", false) == "");
  CHECK(format_value(kFloat8Oid, "1", false) == "1");
  CHECK(format_value(kFloat8Oid, "1.5", false) == "1.5");
  CHECK(format_value(kFloat8Oid, "1e+20", false) == "100000000000000000000");
  CHECK(format_value(kFloat8Oid, "0.1", false) == "0.1");
  CHECK(format_value(kFloat8Oid, "Infinity", false) == "inf");
  CHECK(format_value(kFloat8Oid, "-Infinity", false) == "-inf");
  CHECK(format_value(kFloat8Oid, "NaN", false) == "NaN");
  CHECK(format_value(kFloat4Oid, "0.1", false) == "0.1");
  CHECK(format_value(kTimestampTzOid, "2020-01-01 00:00:00+00", false) == "2020-01-01 00:00:00 UTC");
  CHECK(format_value(1700, "1.50", false) == "1.50");
  CHECK(quote_value("plain") == "plain");
  CHECK(quote_value("") == "\"\"");
  CHECK(quote_value("a \"b\"") == "\"a \\\"b\\\"\"");
}

TEST_CASE("durations") {
  using std::chrono::milliseconds;
  CHECK(parse_duration("10s") == milliseconds(10'000));
  CHECK(parse_duration("500ms") == milliseconds(500));
  CHECK(parse_duration("1.5s") == milliseconds(1'500));
  CHECK(parse_duration("2m") == milliseconds(120'000));
  CHECK(parse_duration("1min") == milliseconds(60'000));
  CHECK_FALSE(parse_duration("10"));
  CHECK_FALSE(parse_duration("s"));
  CHECK_FALSE(parse_duration("10 parsecs"));
  CHECK(format_duration(milliseconds(10'000)) == "10s");
  CHECK(format_duration(milliseconds(250)) == "250ms");
}

TEST_CASE("variable substitution") {
  Variables variables;
  variables.set("testdrive.seed", "42");
  variables.set("arg.name", "x y");
  std::string error;
  CHECK(variables.substitute("t_${testdrive.seed} ${arg.name}", &error) == std::optional<std::string>("t_42 x y"));
  CHECK(variables.substitute("no references $ {x}", &error) == std::optional<std::string>("no references $ {x}"));
  CHECK_FALSE(variables.substitute("${missing}", &error));
  CHECK(error == "unknown variable: missing");
  CHECK_FALSE(variables.substitute("${unterminated", &error));
  CHECK(error.find("malformed") != std::string::npos);
  variables.set("arg.name", "redefined");
  CHECK(variables.substitute("${arg.name}", &error) == std::optional<std::string>("redefined"));
  ::setenv("TANDEM_TD_TEST_VAR", "from env", 1);
  CHECK(variables.substitute("${env.TANDEM_TD_TEST_VAR}", &error) == std::optional<std::string>("from env"));
}

TEST_CASE("statements that run once") {
  CHECK(runs_once("CREATE TABLE t (a int)"));
  CHECK(runs_once("  -- a comment\n drop view v"));
  CHECK(runs_once("SET cluster = c"));
  CHECK(runs_once("SHOW CLUSTERS"));
  CHECK(runs_once("INSERT INTO t VALUES (1)"));
  CHECK(runs_once("FETCH ALL c"));
  CHECK(runs_once("EXPLAIN SELECT 1"));
  CHECK_FALSE(runs_once("SELECT * FROM t"));
  CHECK_FALSE(runs_once("SELECTED"));
  CHECK_FALSE(runs_once("WITH x AS (SELECT 1) SELECT * FROM x"));
}

}  // namespace tandem::td
