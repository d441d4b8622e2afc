#include "sqllogic/runner/result_check.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <regex>

#include "sqllogic/runner/value_format.hpp"

namespace tandem::slt {
namespace {

std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> words;
  std::size_t pos = 0;
  while ((pos = line.find_first_not_of(" \t", pos)) != std::string_view::npos) {
    std::size_t end = line.find_first_of(" \t", pos);
    if (end == std::string_view::npos) end = line.size();
    words.emplace_back(line.substr(pos, end - pos));
    pos = end;
  }
  return words;
}

std::string trim(std::string_view s) {
  const std::size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  return std::string(s.substr(begin, s.find_last_not_of(" \t") - begin + 1));
}

std::string spaces_to_symbol(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == ' ') out += kSpaceSymbol;
    else out += c;
  }
  return out;
}

// Expected values from the lines after `----` (column names removed).
std::vector<std::string> expected_values(const std::vector<std::string>& lines,
                                         std::size_t column_count, OutputMode mode) {
  std::vector<std::string> values;
  for (const std::string& line : lines) {
    if (mode == OutputMode::kStandard) {
      values.push_back(line);
    } else if (column_count == 1) {
      values.push_back(spaces_to_symbol(trim(line)));
    } else {
      for (std::string& word : split_words(line)) values.push_back(std::move(word));
    }
  }
  return values;
}

// Shape values for display: one row per line in cockroach mode.
std::vector<std::string> display_lines(const std::vector<std::string>& values,
                                       std::size_t column_count, OutputMode mode) {
  if (mode == OutputMode::kStandard || column_count <= 1) return values;
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < values.size(); i += column_count) {
    std::string line;
    for (std::size_t j = i; j < std::min(values.size(), i + column_count); ++j) {
      if (j > i) line += ' ';
      line += values[j];
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string hash_line(std::size_t count, const std::string& hash) {
  return std::to_string(count) + " values hashing to " + hash;
}

}  // namespace

void sort_values(std::vector<std::string>& values, std::size_t column_count, SortMode sort) {
  if (sort == SortMode::kValueSort) {
    std::sort(values.begin(), values.end());
    return;
  }
  if (sort != SortMode::kRowSort || column_count == 0 || values.size() % column_count != 0) {
    return;
  }
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < values.size(); i += column_count) {
    rows.emplace_back(std::make_move_iterator(values.begin() + i),
                      std::make_move_iterator(values.begin() + i + column_count));
  }
  std::sort(rows.begin(), rows.end());
  values.clear();
  for (auto& row : rows) {
    for (auto& value : row) values.push_back(std::move(value));
  }
}

std::string md5_of_values(const std::vector<std::string>& values) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                  &EVP_MD_CTX_free);
  EVP_DigestInit_ex(context.get(), EVP_md5(), nullptr);
  for (const std::string& value : values) {
    EVP_DigestUpdate(context.get(), value.data(), value.size());
    EVP_DigestUpdate(context.get(), "\n", 1);
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(context.get(), digest, &length);
  std::string hex;
  char byte[3];
  for (unsigned int i = 0; i < length; ++i) {
    std::snprintf(byte, sizeof byte, "%02x", digest[i]);
    hex += byte;
  }
  return hex;
}

bool parse_hash_line(std::string_view line, std::size_t& count, std::string& hash) {
  static const std::regex kHashLine(R"(^\s*(\d+) values hashing to ([0-9a-f]{32})\s*$)");
  std::match_results<std::string_view::const_iterator> match;
  if (!std::regex_match(line.begin(), line.end(), match, kHashLine)) return false;
  count = std::stoull(match[1].str());
  hash = match[2].str();
  return true;
}

CheckOutcome check_query_result(const Record& record, OutputMode mode,
                                const FormattedResult& result) {
  CheckOutcome outcome;
  std::vector<std::string> actual = result.values;
  sort_values(actual, result.column_count, record.sort);
  outcome.actual_hash = md5_of_values(actual);

  std::vector<std::string> expected_lines = record.expected;
  if (record.types.size() != result.column_count) {
    outcome.reason = "expected " + std::to_string(record.types.size()) + " columns, got " +
                     std::to_string(result.column_count);
    outcome.expected = expected_lines;
    outcome.actual = display_lines(actual, result.column_count, mode);
    return outcome;
  }

  if (record.colnames) {
    std::vector<std::string> names;
    for (const std::string& name : result.column_names) names.push_back(spaces_to_symbol(name));
    std::vector<std::string> expected_names;
    if (!expected_lines.empty()) {
      expected_names = split_words(expected_lines.front());
      expected_lines.erase(expected_lines.begin());
    }
    if (names != expected_names) {
      outcome.reason = "column names differ";
      outcome.expected = display_lines(expected_names, expected_names.size(), OutputMode::kCockroach);
      outcome.actual = display_lines(names, names.size(), OutputMode::kCockroach);
      return outcome;
    }
  }

  if (record.multiline) {
    std::string actual_text;
    for (std::size_t i = 0; i < actual.size(); ++i) {
      if (i > 0) actual_text += '\n';
      actual_text += actual[i];
    }
    std::string expected_text;
    for (std::size_t i = 0; i < expected_lines.size(); ++i) {
      if (i > 0) expected_text += '\n';
      expected_text += expected_lines[i];
    }
    outcome.passed = actual_text == expected_text;
    if (!outcome.passed) {
      outcome.reason = "multiline output differs";
      outcome.expected = expected_lines;
      outcome.actual = actual;
    }
    return outcome;
  }

  std::size_t hashed_count = 0;
  std::string hash;
  if (expected_lines.size() == 1 && parse_hash_line(expected_lines[0], hashed_count, hash)) {
    outcome.passed = hashed_count == actual.size() && hash == outcome.actual_hash;
    if (!outcome.passed) {
      outcome.reason = "result hash differs";
      outcome.expected = {hash_line(hashed_count, hash)};
      outcome.actual = {hash_line(actual.size(), outcome.actual_hash)};
      // The values themselves help more than a hash when they are few.
      for (const std::string& line : display_lines(actual, result.column_count, mode)) {
        outcome.actual.push_back(line);
      }
    }
    return outcome;
  }

  std::vector<std::string> expected = expected_values(expected_lines, result.column_count, mode);
  sort_values(expected, result.column_count, record.sort);
  outcome.passed = expected == actual;
  if (!outcome.passed) {
    outcome.reason = "result differs";
    outcome.expected = display_lines(expected, result.column_count, mode);
    outcome.actual = display_lines(actual, result.column_count, mode);
  }
  return outcome;
}

}  // namespace tandem::slt
