#include "tests/testdrive/runner/td_parser.hpp"

#include "sqllogic/runner/result_check.hpp"

namespace tandem::td {
namespace {

bool is_sigil(char c) { return c == '$' || c == '>' || c == '!' || c == '?' || c == '*'; }

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

std::string_view trim(std::string_view s) {
  const std::size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  const std::size_t end = s.find_last_not_of(" \t");
  return s.substr(begin, end - begin + 1);
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

bool is_dashes(std::string_view line) {
  line = trim(line);
  return line.size() >= 3 && line.find_first_not_of('-') == std::string_view::npos;
}

// One command as found in the file, before its body is interpreted.
struct RawCommand {
  std::size_t line = 0;
  char sigil = 0;
  std::string head;  // After the sigil, continuation lines folded.
  std::vector<std::pair<std::size_t, std::string>> body;  // (line, text)
};

std::variant<std::vector<RawCommand>, ParseError> split_commands(std::string_view text) {
  const std::vector<std::string_view> lines = split_lines(text);
  std::vector<RawCommand> commands;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const std::size_t number = i + 1;
    if (!line.empty() && line[0] == '#') continue;
    if (!line.empty() && is_sigil(line[0])) {
      RawCommand command;
      command.line = number;
      command.sigil = line[0];
      command.head = std::string(line.substr(1));
      while (i + 1 < lines.size() && lines[i + 1].starts_with("  ") && !is_blank(lines[i + 1])) {
        command.head += '\n';
        command.head += lines[++i].substr(2);
      }
      commands.push_back(std::move(command));
      continue;
    }
    if (commands.empty()) {
      if (is_blank(line)) continue;
      return ParseError{number, "expected a command (a line starting with $ > ! ? or *)"};
    }
    std::string_view body_line = line;
    if (!body_line.empty() && body_line[0] == '\\') body_line.remove_prefix(1);
    commands.back().body.emplace_back(number, std::string(body_line));
  }
  return commands;
}

void drop_trailing_blank_lines(RawCommand& raw) {
  while (!raw.body.empty() && is_blank(raw.body.back().second)) raw.body.pop_back();
}

std::optional<ParseError> parse_rows(const RawCommand& raw, Command& command) {
  std::vector<std::pair<std::size_t, std::string>> lines;
  for (const auto& entry : raw.body) {
    if (!is_blank(entry.second)) lines.push_back(entry);
  }
  std::size_t first_row = 0;
  if (lines.size() >= 2 && is_dashes(lines[1].second)) {
    std::vector<std::string> names;
    std::string error;
    if (!split_row(lines[0].second, names, &error)) return ParseError{lines[0].first, error};
    command.column_names = std::move(names);
    first_row = 2;
  }
  if (lines.size() == first_row + 1 &&
      slt::parse_hash_line(trim(lines[first_row].second), command.hash_count, command.hash)) {
    command.hashed = true;
    return std::nullopt;
  }
  for (std::size_t i = first_row; i < lines.size(); ++i) {
    std::vector<std::string> row;
    std::string error;
    if (!split_row(lines[i].second, row, &error)) return ParseError{lines[i].first, error};
    command.expected_rows.push_back(std::move(row));
  }
  return std::nullopt;
}

std::optional<ParseError> parse_error_expectation(const RawCommand& raw, Command& command) {
  std::vector<std::pair<std::size_t, std::string>> lines;
  for (const auto& entry : raw.body) {
    if (!is_blank(entry.second)) lines.push_back(entry);
  }
  if (lines.empty()) {
    return ParseError{raw.line, "`!` needs an expected error: contains:, exact:, regex: or timeout"};
  }
  ErrorExpectation& expected = command.error;
  const std::string& first = lines[0].second;
  if (first.starts_with("contains:")) {
    expected.match = ErrorExpectation::Match::kContains;
    expected.text = std::string(trim(std::string_view(first).substr(9)));
  } else if (first.starts_with("exact:")) {
    expected.match = ErrorExpectation::Match::kExact;
    expected.text = std::string(trim(std::string_view(first).substr(6)));
  } else if (first.starts_with("regex:")) {
    expected.match = ErrorExpectation::Match::kRegex;
    expected.text = std::string(trim(std::string_view(first).substr(6)));
  } else if (trim(first) == "timeout") {
    expected.match = ErrorExpectation::Match::kTimeout;
  } else {
    return ParseError{lines[0].first,
                      "expected contains:, exact:, regex: or timeout, got: " + first};
  }
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string& line = lines[i].second;
    if (line.starts_with("detail:") && !expected.detail) {
      expected.detail = std::string(trim(line.substr(7)));
    } else if (line.starts_with("hint:") && !expected.hint) {
      expected.hint = std::string(trim(line.substr(5)));
    } else {
      return ParseError{lines[i].first, "unexpected line after the expected error: " + line};
    }
  }
  return std::nullopt;
}

// Splits a built-in's line into words at unquoted whitespace; a double
// quote toggles quoting and is dropped, so `replacement="<A B>"` is one word.
std::optional<ParseError> split_builtin_words(const RawCommand& raw, std::vector<std::string>& words) {
  std::string word;
  bool in_word = false, quoted = false;
  for (const char c : raw.head) {
    if (c == '"') {
      quoted = !quoted;
      in_word = true;
    } else if (!quoted && (c == ' ' || c == '\t' || c == '\n')) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quoted) return ParseError{raw.line, "unterminated quote in built-in arguments"};
  if (in_word) words.push_back(std::move(word));
  return std::nullopt;
}

std::optional<ParseError> parse_builtin(const RawCommand& raw, Command& command) {
  std::vector<std::string> words;
  if (auto error = split_builtin_words(raw, words)) return error;
  if (words.empty()) return ParseError{raw.line, "`$` needs a built-in command name"};
  command.builtin = words[0];
  for (std::size_t i = 1; i < words.size(); ++i) {
    Command::Argument argument;
    const std::size_t equals = words[i].find('=');
    argument.name = words[i].substr(0, equals);
    if (equals != std::string::npos) {
      argument.value = words[i].substr(equals + 1);
      argument.has_value = true;
    }
    for (const Command::Argument& earlier : command.args) {
      if (earlier.name == argument.name) {
        return ParseError{raw.line, "argument " + argument.name + " given twice"};
      }
    }
    command.args.push_back(std::move(argument));
  }
  for (const auto& entry : raw.body) command.body.push_back(entry.second);
  return std::nullopt;
}

}  // namespace

bool split_row(std::string_view line, std::vector<std::string>& values, std::string* error) {
  std::string field;
  bool in_quotes = false;
  bool quoted_field = false;  // The field was quoted, so an empty one counts.
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_quotes) {
      if (c == '"') {
        in_quotes = false;
      } else if (c == '\\' && i + 1 < line.size()) {
        const char escaped = line[++i];
        field += escaped == 'n' ? '\n' : escaped == 't' ? '\t' : escaped == 'r' ? '\r' : escaped;
      } else {
        field += c;
      }
    } else if (c == ' ' || c == '\t') {
      if (!field.empty() || quoted_field) values.push_back(std::move(field));
      field.clear();
      quoted_field = false;
    } else if (c == '"') {
      in_quotes = true;
      quoted_field = true;
    } else {
      field += c;
    }
  }
  if (in_quotes) {
    *error = "unterminated quoted value in row: " + std::string(line);
    return false;
  }
  if (!field.empty() || quoted_field) values.push_back(std::move(field));
  return true;
}

std::variant<Script, ParseError> parse_td(std::string_view text) {
  auto split = split_commands(text);
  if (auto* error = std::get_if<ParseError>(&split)) return *error;
  Script script;
  for (RawCommand& raw : std::get<std::vector<RawCommand>>(split)) {
    if (raw.head.starts_with("[")) {
      return ParseError{raw.line, "version guards (" + raw.head.substr(0, raw.head.find(']') + 1) +
                                      ") are not supported by tandem-td"};
    }
    drop_trailing_blank_lines(raw);
    Command command;
    command.line = raw.line;
    command.sql = std::string(trim(raw.head));
    std::optional<ParseError> error;
    switch (raw.sigil) {
      case '>':
        command.kind = CommandKind::kQuery;
        error = parse_rows(raw, command);
        break;
      case '!':
        command.kind = CommandKind::kFail;
        error = parse_error_expectation(raw, command);
        break;
      case '?': {
        command.kind = CommandKind::kExplain;
        std::string expected;
        for (std::size_t i = 0; i < raw.body.size(); ++i) {
          if (i > 0) expected += '\n';
          expected += raw.body[i].second;
        }
        command.expected_text = std::move(expected);
        break;
      }
      case '$':
        command.kind = CommandKind::kBuiltin;
        command.sql.clear();
        error = parse_builtin(raw, command);
        break;
      default:
        return ParseError{raw.line, "`*` (jq) commands are not supported by tandem-td"};
    }
    if (error) return *error;
    if (command.kind != CommandKind::kBuiltin && command.sql.empty()) {
      return ParseError{raw.line, std::string("`") + raw.sigil + "` needs a SQL statement"};
    }
    script.commands.push_back(std::move(command));
  }
  return script;
}

}  // namespace tandem::td
