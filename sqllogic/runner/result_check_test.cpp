#include <catch2/catch.hpp>

#include "sqllogic/runner/result_check.hpp"
#include "sqllogic/runner/script_parser.hpp"

namespace tandem::slt {
namespace {

Record parse_one(const char* text) {
  const auto records = parse_script(text);
  REQUIRE(records.size() == 1);
  return records[0];
}

FormattedResult result_of(std::size_t columns, std::vector<std::string> values) {
  FormattedResult result;
  result.column_count = columns;
  for (std::size_t i = 0; i < columns; ++i) result.column_names.push_back("c" + std::to_string(i));
  result.values = std::move(values);
  return result;
}

TEST_CASE("md5 of values matches sqllogictest's hashing") {
  // printf '1\n2\n' | md5sum
  CHECK(md5_of_values({"1", "2"}) == "6ddb4095eb719e2a9f0a3f95677d24e0");
  // md5 of the empty string.
  CHECK(md5_of_values({}) == "d41d8cd98f00b204e9800998ecf8427e");
}

TEST_CASE("sorting rows and values") {
  std::vector<std::string> values{"b", "1", "a", "2", "a", "1"};
  sort_values(values, 2, SortMode::kRowSort);
  CHECK(values == std::vector<std::string>{"a", "1", "a", "2", "b", "1"});
  std::vector<std::string> loose{"10", "9", "NULL", "-1"};
  sort_values(loose, 1, SortMode::kValueSort);
  // Byte-string order, as sqllogictest sorts, not numeric order.
  CHECK(loose == std::vector<std::string>{"-1", "10", "9", "NULL"});
}

TEST_CASE("standard mode compares values after sorting both sides") {
  const Record record = parse_one("query II rowsort\nSELECT 1\n----\n1\n2\n3\n4\n");
  CHECK(check_query_result(record, OutputMode::kStandard, result_of(2, {"3", "4", "1", "2"})).passed);
  const CheckOutcome wrong =
      check_query_result(record, OutputMode::kStandard, result_of(2, {"3", "4", "1", "5"}));
  CHECK_FALSE(wrong.passed);
  CHECK(wrong.reason == "result differs");
  CHECK_FALSE(check_query_result(record, OutputMode::kStandard, result_of(1, {"1", "2", "3", "4"})).passed);
  const Record nosort = parse_one("query I nosort\nSELECT 1\n----\n1\n2\n");
  CHECK_FALSE(check_query_result(nosort, OutputMode::kStandard, result_of(1, {"2", "1"})).passed);
}

TEST_CASE("hash lines are compared with the hash of the sorted actual values") {
  const Record record =
      parse_one("query I valuesort\nSELECT 1\n----\n2 values hashing to 6ddb4095eb719e2a9f0a3f95677d24e0\n");
  CHECK(check_query_result(record, OutputMode::kStandard, result_of(1, {"2", "1"})).passed);
  CHECK_FALSE(check_query_result(record, OutputMode::kStandard, result_of(1, {"2", "3"})).passed);
  std::size_t count = 0;
  std::string hash;
  CHECK(parse_hash_line("30 values hashing to 3c13dee48d9356ae19af2515e05e6b54", count, hash));
  CHECK(count == 30);
  CHECK_FALSE(parse_hash_line("30 values hashing to xyz", count, hash));
}

TEST_CASE("cockroach mode reads one row per line") {
  const Record record = parse_one("query IT rowsort\nSELECT 1\n----\n2 b\n1 a\xE2\x90\xA0z\n");
  CHECK(check_query_result(record, OutputMode::kCockroach,
                           result_of(2, {"1", "a\xE2\x90\xA0z", "2", "b"}))
            .passed);
  const Record single = parse_one("query T\nSELECT 1\n----\nhello world\n");
  CHECK(check_query_result(single, OutputMode::kCockroach, result_of(1, {"hello\xE2\x90\xA0world"})).passed);
}

TEST_CASE("colnames and multiline") {
  const Record record = parse_one("query IT colnames\nSELECT 1\n----\nc0 c1\n1 x\n");
  CHECK(check_query_result(record, OutputMode::kCockroach, result_of(2, {"1", "x"})).passed);
  FormattedResult renamed = result_of(2, {"1", "x"});
  renamed.column_names[1] = "other";
  CHECK(check_query_result(record, OutputMode::kCockroach, renamed).reason == "column names differ");
  const Record multiline = parse_one("query T multiline\nSELECT 1\n----\na\n\nb\nEOF\n");
  CHECK(check_query_result(multiline, OutputMode::kStandard, result_of(1, {"a\n\nb"})).passed);
  CHECK_FALSE(check_query_result(multiline, OutputMode::kStandard, result_of(1, {"a\nb"})).passed);
}

}  // namespace
}  // namespace tandem::slt
