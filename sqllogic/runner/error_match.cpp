#include "sqllogic/runner/error_match.hpp"

#include <regex>

namespace tandem::slt {

std::string client_error_text(const PgError& error) {
  // Appends rather than `literal + string`, which trips g++ 12's bogus
  // -Wrestrict warning.
  std::string text = "db error: ERROR: ";
  text += error.message;
  if (!error.detail.empty()) text.append("\nDETAIL: ").append(error.detail);
  if (!error.hint.empty()) text.append("\nHINT: ").append(error.hint);
  return text;
}

bool error_matches(const PgError& error, const std::string& regex, const std::string& pgcode) {
  if (!pgcode.empty() && pgcode != error.sqlstate) return false;
  if (regex.empty()) return true;
  std::string client_form = "db error: ERROR: ";
  client_form += error.message;
  const std::string renderings[] = {error.message, client_form, error.full};
  try {
    const std::regex pattern(regex, std::regex::ECMAScript);
    for (const std::string& text : renderings) {
      if (std::regex_search(text, pattern)) return true;
    }
    return false;
  } catch (const std::regex_error&) {
    for (const std::string& text : renderings) {
      if (text.find(regex) != std::string::npos) return true;
    }
    return false;
  }
}

}  // namespace tandem::slt
