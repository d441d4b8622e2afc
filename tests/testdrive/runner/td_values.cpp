#include "tests/testdrive/runner/td_values.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace tandem::td {
namespace {

template <typename Float>
std::string format_float(std::string_view text, Float value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[512];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  if (result.ec != std::errc()) return std::string(text);
  return std::string(buffer, result.ptr);
}

std::string format_float_text(unsigned type_oid, std::string_view text) {
  const std::string copy(text);
  char* end = nullptr;
  if (type_oid == kFloat4Oid) {
    const float value = std::strtof(copy.c_str(), &end);
    if (end == copy.c_str() || *end != '\0') return copy;
    return format_float(text, value);
  }
  const double value = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str() || *end != '\0') return copy;
  return format_float(text, value);
}

}  // namespace

std::string format_value(unsigned type_oid, std::string_view text, bool is_null) {
  if (is_null) return "<null>";
  switch (type_oid) {
    case kBoolOid:
      if (text == "t") return "true";
      if (text == "f") return "false";
      return std::string(text);
    case kFloat4Oid:
    case kFloat8Oid:
      return format_float_text(type_oid, text);
    case kTimestampTzOid:
      if (text.ends_with("+00")) return std::string(text.substr(0, text.size() - 3)) + " UTC";
      return std::string(text);
    default:
      return std::string(text);
  }
}

std::string quote_value(std::string_view value) {
  bool needs_quotes = value.empty() || value.front() == '#';
  for (const char c : value) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '\\') needs_quotes = true;
  }
  if (!needs_quotes) return std::string(value);
  std::string quoted = "\"";
  for (const char c : value) {
    switch (c) {
      case '"': quoted += "\\\""; break;
      case '\\': quoted += "\\\\"; break;
      case '\n': quoted += "\\n"; break;
      case '\t': quoted += "\\t"; break;
      case '\r': quoted += "\\r"; break;
      default: quoted += c;
    }
  }
  quoted += '"';
  return quoted;
}

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
  std::size_t unit_start = 0;
  while (unit_start < text.size() &&
         ((text[unit_start] >= '0' && text[unit_start] <= '9') || text[unit_start] == '.')) {
    ++unit_start;
  }
  if (unit_start == 0) return std::nullopt;
  const std::string number(text.substr(0, unit_start));
  char* end = nullptr;
  const double amount = std::strtod(number.c_str(), &end);
  if (*end != '\0' || !std::isfinite(amount)) return std::nullopt;
  const std::string_view unit = text.substr(unit_start);
  double millis_per_unit = 0;
  if (unit == "ns") millis_per_unit = 1e-6;
  else if (unit == "us") millis_per_unit = 1e-3;
  else if (unit == "ms") millis_per_unit = 1;
  else if (unit == "s" || unit == "sec") millis_per_unit = 1000;
  else if (unit == "m" || unit == "min") millis_per_unit = 60'000;
  else if (unit == "h") millis_per_unit = 3'600'000;
  else return std::nullopt;
  return std::chrono::milliseconds(std::llround(amount * millis_per_unit));
}

std::string format_duration(std::chrono::milliseconds duration) {
  const long long ms = duration.count();
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + "s";
  return std::to_string(ms) + "ms";
}

}  // namespace tandem::td
