// FileRunner's built-in (`$`) commands. Arguments and body lines are
// substituted before use.

#include <algorithm>
#include <functional>
#include <random>
#include <thread>

#include "tests/testdrive/runner/td_runner.hpp"
#include "tests/testdrive/runner/td_values.hpp"

namespace tandem::td {
namespace {

using std::chrono::milliseconds;

// Body lines that hold something (blank lines separate, they do not count).
std::vector<std::string> statements_of(const std::vector<std::string>& body) {
  std::vector<std::string> statements;
  for (const std::string& line : body) {
    if (line.find_first_not_of(" \t") != std::string::npos) statements.push_back(line);
  }
  return statements;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) text += '\n';
    text += lines[i];
  }
  return text;
}

}  // namespace

std::optional<std::string> FileRunner::run_builtin(const Command& raw) {
  Command command = raw;
  for (Command::Argument& arg : command.args) {
    if (auto error = substitute(arg.value, arg.value)) return error;
  }
  // `$ set` bodies are literal values (a schema, a JSON document).
  if (command.builtin != "set") {
    for (std::string& line : command.body) {
      if (auto error = substitute(line, line)) return error;
    }
  }
  const std::string& name = command.builtin;
  auto required = [&](const std::string& arg_name, std::string& value) -> std::optional<std::string> {
    const Command::Argument* arg = argument(command, arg_name);
    if (arg == nullptr || !arg->has_value) return "$ " + name + " needs " + arg_name + "=...";
    value = arg->value;
    return std::nullopt;
  };

  if (name == "set") return builtin_set(command);
  if (name == "set-arg-default") {
    for (const Command::Argument& arg : command.args) {
      if (!arg.has_value) return "$ set-arg-default needs name=value arguments";
      if (!variables_.contains("arg." + arg.name)) variables_.set("arg." + arg.name, arg.value);
    }
    return std::nullopt;
  }
  if (name == "set-regex") {
    std::string pattern, replacement, error;
    if (auto missing = required("match", pattern)) return missing;
    if (auto missing = required("replacement", replacement)) return missing;
    if (!regex_.set(pattern, replacement, &error)) return error;
    return std::nullopt;
  }
  if (name == "unset-regex") {
    regex_.clear();
    return std::nullopt;
  }
  if (name == "set-sql-timeout") return builtin_set_sql_timeout(command);
  if (name == "set-max-tries") {
    std::string value;
    if (auto missing = required("max-tries", value)) return missing;
    char* end = nullptr;
    const unsigned long long tries = std::strtoull(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || tries == 0) return "bad max-tries: " + value;
    max_tries_ = tries;
    return std::nullopt;
  }
  if (name == "set-from-sql") return builtin_set_from_sql(command);
  if (name == "postgres-connect") {
    std::string connection_name, url, error;
    if (auto missing = required("name", connection_name)) return missing;
    if (auto missing = required("url", url)) return missing;
    std::unique_ptr<slt::PgSession> connection = slt::PgSession::connect({url, "", ""}, &error);
    if (!connection) return "cannot connect to " + url + ": " + error;
    connections_[connection_name] = std::move(connection);
    return std::nullopt;
  }
  if (name == "postgres-execute") return builtin_postgres_execute(command);
  if (name == "sleep-is-probably-flaky-i-have-justified-my-need-with-a-comment") {
    std::string value;
    if (auto missing = required("duration", value)) return missing;
    const std::optional<milliseconds> duration = parse_duration(value);
    if (!duration) return "bad duration: " + value + " (e.g. 500ms, 2s)";
    std::this_thread::sleep_for(*duration);
    return std::nullopt;
  }
  if (name == "random-sleep") {
    // Uniform in [0, duration), drawn from ${testdrive.seed} and the line so
    // a run can be repeated with --seed.
    std::string value;
    if (auto missing = required("duration", value)) return missing;
    const std::optional<milliseconds> duration = parse_duration(value);
    if (!duration) return "bad duration: " + value + " (e.g. 500ms, 2s)";
    const std::string seed = variables_.get("testdrive.seed").value_or("0");
    std::mt19937_64 random(std::hash<std::string>{}(seed) ^ command.line);
    const long long bound = std::max<long long>(duration->count(), 1);
    std::this_thread::sleep_for(milliseconds(static_cast<long long>(random() % bound)));
    return std::nullopt;
  }
  if (name == "skip-if") return builtin_skip_if(command);
  return "unknown built-in command: $ " + name;
}

std::optional<std::string> FileRunner::builtin_set(const Command& command) {
  if (command.args.size() == 1 && !command.args[0].has_value) {
    // `$ set name` with the value in the body.
    variables_.set(command.args[0].name, join_lines(command.body));
    return std::nullopt;
  }
  if (command.args.empty()) return "$ set needs name=value (or a name and a body)";
  if (!command.body.empty()) return "$ set with name=value takes no body";
  for (const Command::Argument& arg : command.args) {
    if (!arg.has_value) return "$ set: " + arg.name + " has no value";
    variables_.set(arg.name, arg.value);
  }
  return std::nullopt;
}

std::optional<std::string> FileRunner::builtin_set_sql_timeout(const Command& command) {
  const Command::Argument* duration_arg = argument(command, "duration");
  if (duration_arg == nullptr || !duration_arg->has_value) return "$ set-sql-timeout needs duration=...";
  const Command::Argument* force_arg = argument(command, "force");
  const bool force = force_arg != nullptr && force_arg->value == "true";
  if (duration_arg->value == "default") {
    timeout_ = config_.default_timeout;
    return std::nullopt;
  }
  const std::optional<milliseconds> duration = parse_duration(duration_arg->value);
  if (!duration) return "bad duration: " + duration_arg->value + " (e.g. 500ms, 90s, default)";
  // As in testdrive: a timeout below the default is ignored unless forced.
  if (*duration >= config_.default_timeout || force) timeout_ = *duration;
  return std::nullopt;
}

std::optional<std::string> FileRunner::builtin_set_from_sql(const Command& command) {
  const Command::Argument* var = argument(command, "var");
  if (var == nullptr || !var->has_value) return "$ set-from-sql needs var=...";
  const std::string sql = join_lines(command.body);
  if (statements_of(command.body).empty()) return "$ set-from-sql needs a query in its body";
  ActualResult result;
  slt::ExecOutcome outcome;
  if (auto error = query(sql, timeout_, result, outcome)) return error;
  if (outcome.timed_out) return "timed out after " + format_duration(timeout_);
  if (outcome.error) return "query failed: " + outcome.error->message;
  if (result.rows.size() != 1 || result.rows[0].size() != 1) {
    return "$ set-from-sql needs exactly one row of one column, got " +
           std::to_string(result.rows.size()) + " rows:\n" + render_rows(result.rows, "  ");
  }
  variables_.set(var->value, result.rows[0][0]);
  return std::nullopt;
}

std::optional<std::string> FileRunner::builtin_postgres_execute(const Command& command) {
  const Command::Argument* connection_arg = argument(command, "connection");
  if (connection_arg == nullptr || !connection_arg->has_value) {
    return "$ postgres-execute needs connection=NAME|URL";
  }
  slt::PgSession* connection = nullptr;
  std::unique_ptr<slt::PgSession> owned;
  if (auto it = connections_.find(connection_arg->value); it != connections_.end()) {
    connection = it->second.get();
  } else {
    std::string error;
    owned = slt::PgSession::connect({connection_arg->value, "", ""}, &error);
    if (!owned) return "cannot connect to " + connection_arg->value + ": " + error;
    connection = owned.get();
  }
  for (const std::string& statement : statements_of(command.body)) {
    const slt::ExecOutcome outcome = connection->execute(statement, timeout_);
    if (outcome.timed_out) return "timed out after " + format_duration(timeout_) + ": " + statement;
    if (outcome.error) return "statement failed: " + statement + "\n" + outcome.error->message;
  }
  return std::nullopt;
}

std::optional<std::string> FileRunner::builtin_skip_if(const Command& command) {
  ActualResult result;
  slt::ExecOutcome outcome;
  if (auto error = query(join_lines(command.body), timeout_, result, outcome)) return error;
  if (outcome.timed_out) return "timed out after " + format_duration(timeout_);
  if (outcome.error) return "query failed: " + outcome.error->message;
  if (result.rows.size() != 1 || result.rows[0].size() != 1 ||
      (result.rows[0][0] != "true" && result.rows[0][0] != "false")) {
    return "$ skip-if needs a query returning one boolean";
  }
  skip_rest_ = result.rows[0][0] == "true";
  return std::nullopt;
}

}  // namespace tandem::td
