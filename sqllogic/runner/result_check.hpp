#pragma once
// Comparison of a query's formatted result with a record's expected output.
//
// Both sides are flattened to a row-major list of values and put through the
// record's sort mode (rowsort: rows ordered by comparing their values as
// byte strings, column by column; valuesort: all values ordered as byte
// strings), so expected output may be written in any order that sorts the
// same way, as SQLite's sqllogictest allows. An expected output of the form
// `N values hashing to <md5>` is compared against the MD5 of the sorted
// actual values, each followed by '\n'.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sqllogic/runner/record.hpp"

namespace tandem::slt {

// A query result after value formatting.
struct FormattedResult {
  std::vector<std::string> column_names;
  std::size_t column_count = 0;
  std::vector<std::string> values;  // Row-major, column_count per row.
};

struct CheckOutcome {
  bool passed = false;
  std::string reason;                  // Why it failed; empty on success.
  std::vector<std::string> expected;   // Expected output as compared.
  std::vector<std::string> actual;     // Actual output in the same shape.
  std::string actual_hash;             // MD5 of the sorted actual values.
};

// REQUIRES: record.kind == RecordKind::kQuery.
CheckOutcome check_query_result(const Record& record, OutputMode mode,
                                const FormattedResult& result);

void sort_values(std::vector<std::string>& values, std::size_t column_count, SortMode sort);

// Hex MD5 of the concatenation of value + "\n" over all values.
std::string md5_of_values(const std::vector<std::string>& values);

// Parses `N values hashing to <32 hex digits>`.
bool parse_hash_line(std::string_view line, std::size_t& count, std::string& hash);

}  // namespace tandem::slt
