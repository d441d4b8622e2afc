#include "frontend/pgwire/startup_options.hpp"

#include <algorithm>

#include "common/sqlstate.hpp"

namespace tandem::pgwire {
namespace {

std::vector<std::string> split_arguments(std::string_view text) {
  std::vector<std::string> args;
  std::string current;
  bool in_arg = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_arg) args.push_back(std::move(current));
      current.clear();
      in_arg = false;
      continue;
    }
    in_arg = true;
    if (c == '\\' && i + 1 < text.size()) c = text[++i];
    current += c;
  }
  if (in_arg) args.push_back(std::move(current));
  return args;
}

Status invalid(const std::string& arg) {
  return Status::error(sqlstate::kSyntaxError, "invalid command-line argument for server process: " + arg);
}

}  // namespace

Result<std::vector<std::pair<std::string, std::string>>> parse_startup_options(std::string_view options) {
  std::vector<std::pair<std::string, std::string>> settings;
  auto args = split_arguments(options);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string setting;
    bool dashes = false;
    if (arg == "-c") {
      if (i + 1 == args.size()) return invalid(arg);
      setting = args[++i];
    } else if (arg.starts_with("--")) {
      setting = arg.substr(2);
      dashes = true;
    } else if (arg.starts_with("-c")) {
      setting = arg.substr(2);
    } else {
      return invalid(arg);
    }
    size_t eq = setting.find('=');
    if (eq == std::string::npos || eq == 0) return invalid(arg == "-c" ? setting : arg);
    std::string name = setting.substr(0, eq);
    if (dashes) std::replace(name.begin(), name.end(), '-', '_');
    settings.emplace_back(std::move(name), setting.substr(eq + 1));
  }
  return settings;
}

}  // namespace tandem::pgwire
