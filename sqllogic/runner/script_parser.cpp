#include "sqllogic/runner/script_parser.hpp"

#include <charconv>
#include <cstddef>
#include <string>

namespace tandem::slt {
namespace {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(start, end - start));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  // A trailing newline does not start another line.
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> words;
  std::size_t pos = 0;
  while (true) {
    pos = line.find_first_not_of(" \t", pos);
    if (pos == std::string_view::npos) break;
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
  const std::size_t end = s.find_last_not_of(" \t");
  return std::string(s.substr(begin, end - begin + 1));
}

// The text of `line` after its first `words` words.
std::string rest_after_words(std::string_view line, int words) {
  std::size_t pos = 0;
  for (int i = 0; i < words; ++i) {
    pos = line.find_first_not_of(" \t", pos);
    if (pos == std::string_view::npos) return {};
    pos = line.find_first_of(" \t", pos);
    if (pos == std::string_view::npos) return {};
  }
  return trim(line.substr(pos));
}

bool parse_int(std::string_view s, std::int64_t& out) {
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end;
}

// Splits an error expectation into an optional `pgcode XXXXX` prefix and
// the regex that follows it.
void parse_error_expectation(std::string text, Record& record) {
  const std::vector<std::string> words = split_words(text);
  if (words.size() >= 2 && words[0] == "pgcode") {
    record.error_pgcode = words[1];
    text = rest_after_words(text, 2);
  }
  record.error_regex = std::move(text);
}

class Parser {
 public:
  explicit Parser(std::string_view text) : lines_(split_lines(text)) {}

  std::vector<Record> run() {
    while (skip_separators()) {
      Record record;
      read_conditions(record);
      if (at_end()) {
        // Conditions with no command after them.
        record.line = static_cast<int>(lines_.size());
        record.error = "skipif/onlyif at end of file";
        records_.push_back(std::move(record));
        break;
      }
      read_command(record);
      records_.push_back(std::move(record));
    }
    return std::move(records_);
  }

 private:
  bool at_end() const { return pos_ >= lines_.size(); }
  const std::string& current() const { return lines_[pos_]; }
  int current_line_number() const { return static_cast<int>(pos_) + 1; }

  // Skips blank and comment lines; false at end of input.
  bool skip_separators() {
    while (!at_end() && (is_blank(current()) || current()[0] == '#')) ++pos_;
    return !at_end();
  }

  void read_conditions(Record& record) {
    while (!at_end()) {
      if (!current().empty() && current()[0] == '#') {
        ++pos_;
        continue;
      }
      const std::vector<std::string> words = split_words(current());
      if (words.empty() || (words[0] != "skipif" && words[0] != "onlyif")) return;
      if (words.size() >= 2) record.conditions.push_back({words[0] == "onlyif", words[1]});
      ++pos_;
    }
  }

  // Lines up to (not including) a blank line or, if `stop_at_dashes`, a
  // `----` line; leaves pos_ on the terminator.
  std::string read_sql(bool stop_at_dashes) {
    std::string sql;
    while (!at_end() && !is_blank(current())) {
      if (stop_at_dashes && current() == "----") break;
      if (!sql.empty()) sql += '\n';
      sql += current();
      ++pos_;
    }
    return sql;
  }

  std::vector<std::string> read_until_blank() {
    std::vector<std::string> out;
    while (!at_end() && !is_blank(current())) out.push_back(lines_[pos_++]);
    return out;
  }

  void skip_record_rest() {
    while (!at_end() && !is_blank(current())) ++pos_;
  }

  // After the SQL: reads an optional `----` section into record.expected.
  void read_expected(Record& record) {
    if (at_end() || current() != "----") return;
    ++pos_;
    record.has_expected = true;
    if (!record.multiline) {
      record.expected = read_until_blank();
      return;
    }
    while (!at_end() && current() != "EOF") record.expected.push_back(lines_[pos_++]);
    if (at_end()) {
      record.kind = RecordKind::kInvalid;
      record.error = "multiline output without a terminating EOF line";
      return;
    }
    ++pos_;  // The EOF line.
  }

  void read_command(Record& record) {
    record.line = current_line_number();
    const std::string command_line = current();
    const std::vector<std::string> words = split_words(command_line);
    ++pos_;
    const std::string& command = words[0];
    if (command == "statement") {
      read_statement(record, words, command_line);
    } else if (command == "query") {
      read_query(record, words, command_line);
    } else if (command == "simple") {
      read_simple(record, words);
    } else if (command == "mode") {
      record.kind = RecordKind::kMode;
      if (words.size() == 2 && words[1] == "cockroach") {
        record.mode = OutputMode::kCockroach;
      } else if (words.size() == 2 && (words[1] == "standard" || words[1] == "sqlite")) {
        record.mode = OutputMode::kStandard;
      } else {
        invalid(record, "unknown mode: " + command_line);
      }
    } else if (command == "hash-threshold") {
      record.kind = RecordKind::kHashThreshold;
      if (words.size() != 2 || !parse_int(words[1], record.hash_threshold)) {
        invalid(record, "bad hash-threshold: " + command_line);
      }
    } else if (command == "halt") {
      record.kind = RecordKind::kHalt;
    } else if (command == "reset-server") {
      record.kind = RecordKind::kResetServer;
    } else if (command == "subtest" || command == "user" || command == "kv-batch-size" ||
               command == "copy") {
      record.kind = RecordKind::kIgnored;
      skip_record_rest();
    } else {
      invalid(record, "unknown directive: " + command_line);
    }
  }

  void invalid(Record& record, std::string why) {
    record.kind = RecordKind::kInvalid;
    record.error = std::move(why);
    skip_record_rest();
  }

  void read_statement(Record& record, const std::vector<std::string>& words,
                      const std::string& command_line) {
    if (words.size() >= 2 && words[1] == "ok" && words.size() == 2) {
      record.kind = RecordKind::kStatementOk;
    } else if (words.size() == 3 && words[1] == "count") {
      record.kind = RecordKind::kStatementCount;
      if (!parse_int(words[2], record.expected_count)) {
        return invalid(record, "bad statement count: " + command_line);
      }
    } else if (words.size() >= 2 && words[1] == "error") {
      record.kind = RecordKind::kStatementError;
      parse_error_expectation(rest_after_words(command_line, 2), record);
    } else {
      return invalid(record, "unknown statement form: " + command_line);
    }
    record.sql = read_sql(/*stop_at_dashes=*/true);
    // A `----` section after a statement carries nothing to check.
    skip_record_rest();
    if (record.sql.empty()) invalid(record, "statement without SQL");
  }

  void read_query(Record& record, const std::vector<std::string>& words,
                  const std::string& command_line) {
    if (words.size() < 2) return invalid(record, "query without types: " + command_line);
    if (words[1] == "error") {
      record.kind = RecordKind::kQueryError;
      parse_error_expectation(rest_after_words(command_line, 2), record);
      record.sql = read_sql(/*stop_at_dashes=*/true);
      skip_record_rest();
      if (record.sql.empty()) invalid(record, "query without SQL");
      return;
    }
    record.kind = RecordKind::kQuery;
    record.types = words[1];
    for (char type : record.types) {
      if (std::string_view("TIRBO").find(type) == std::string_view::npos) {
        return invalid(record, std::string("unknown column type '") + type + "': " + command_line);
      }
    }
    // Options are separated by spaces or commas ("colnames,rowsort").
    std::vector<std::string> options;
    for (std::size_t i = 2; i < words.size(); ++i) {
      std::size_t start = 0;
      while (start <= words[i].size()) {
        std::size_t comma = words[i].find(',', start);
        if (comma == std::string::npos) comma = words[i].size();
        if (comma > start) options.push_back(words[i].substr(start, comma - start));
        start = comma + 1;
      }
    }
    for (const std::string& option : options) {
      if (option == "nosort") {
        record.sort = SortMode::kNoSort;
      } else if (option == "rowsort" || option.starts_with("partialsort")) {
        record.sort = SortMode::kRowSort;
      } else if (option == "valuesort") {
        record.sort = SortMode::kValueSort;
      } else if (option == "colnames") {
        record.colnames = true;
      } else if (option == "multiline") {
        record.multiline = true;
      } else if (option == "retry") {
        record.retry = true;
      } else {
        record.label = option;
      }
    }
    record.sql = read_sql(/*stop_at_dashes=*/true);
    if (record.sql.empty()) return invalid(record, "query without SQL");
    read_expected(record);
    skip_record_rest();
  }

  void read_simple(Record& record, const std::vector<std::string>& words) {
    record.kind = RecordKind::kSimple;
    for (std::size_t i = 1; i < words.size(); ++i) {
      std::string_view options = words[i];
      while (!options.empty()) {
        const std::size_t comma = options.find(',');
        const std::string_view option = options.substr(0, comma);
        options = comma == std::string_view::npos ? std::string_view() : options.substr(comma + 1);
        if (option.starts_with("conn=")) {
          record.conn_name = std::string(option.substr(5));
        } else if (option.starts_with("user=")) {
          record.conn_user = std::string(option.substr(5));
        } else {
          return invalid(record, "unknown simple option: " + std::string(option));
        }
      }
    }
    record.sql = read_sql(/*stop_at_dashes=*/true);
    if (record.sql.empty()) return invalid(record, "simple without SQL");
    read_expected(record);
    skip_record_rest();
  }

  std::vector<std::string> lines_;
  std::size_t pos_ = 0;
  std::vector<Record> records_;
};

}  // namespace

std::vector<Record> parse_script(std::string_view text) { return Parser(text).run(); }

}  // namespace tandem::slt
