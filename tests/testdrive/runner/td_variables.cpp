#include "tests/testdrive/runner/td_variables.hpp"

#include <cstdlib>

namespace tandem::td {
namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

}  // namespace

std::optional<std::string> Variables::get(const std::string& name) const {
  if (name.starts_with("env.")) {
    const char* value = std::getenv(name.c_str() + 4);
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  }
  const auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> Variables::substitute(std::string_view text, std::string* error) const {
  std::string out;
  std::size_t position = 0;
  while (true) {
    const std::size_t start = text.find("${", position);
    if (start == std::string_view::npos) break;
    out.append(text.substr(position, start - position));
    std::size_t end = start + 2;
    while (end < text.size() && is_name_char(text[end])) ++end;
    if (end >= text.size() || text[end] != '}' || end == start + 2) {
      *error = "malformed variable reference: " + std::string(text.substr(start, end - start + 1));
      return std::nullopt;
    }
    const std::string name(text.substr(start + 2, end - start - 2));
    const std::optional<std::string> value = get(name);
    if (!value) {
      *error = "unknown variable: " + name;
      return std::nullopt;
    }
    out += *value;
    position = end + 1;
  }
  out.append(text.substr(position));
  return out;
}

}  // namespace tandem::td
