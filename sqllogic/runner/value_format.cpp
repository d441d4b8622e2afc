#include "sqllogic/runner/value_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace tandem::slt {
namespace {

enum class ValueClass { kBool, kInteger, kFloat, kNumeric, kText, kBytea, kOther };

ValueClass classify(unsigned oid) {
  switch (oid) {
    case pg_oid::kBool: return ValueClass::kBool;
    case pg_oid::kInt2:
    case pg_oid::kInt4:
    case pg_oid::kInt8: return ValueClass::kInteger;
    case pg_oid::kFloat4:
    case pg_oid::kFloat8: return ValueClass::kFloat;
    case pg_oid::kNumeric: return ValueClass::kNumeric;
    case pg_oid::kText:
    case pg_oid::kVarchar:
    case pg_oid::kBpchar:
    case pg_oid::kName:
    case pg_oid::kChar:
    case pg_oid::kUnknown: return ValueClass::kText;
    case pg_oid::kBytea: return ValueClass::kBytea;
    default: return ValueClass::kOther;
  }
}

std::string bool_word(std::string_view text) { return text == "t" ? "true" : "false"; }

std::string printf_3(double value) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, "%.3f", value);
  return buffer;
}

// Shortest text that reads back as `value`, in plain (non-exponent) notation,
// like Rust's `f64::to_string`.
std::string shortest_float(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[512];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  if (ec != std::errc()) return printf_3(value);
  return std::string(buffer, end);
}

std::string truncated_float(double value) {
  if (!std::isfinite(value)) return printf_3(value);
  const double truncated = std::trunc(value);
  char buffer[512];
  // +0.0 avoids printing "-0" for values in (-1, 0).
  std::snprintf(buffer, sizeof buffer, "%.0f", truncated + 0.0);
  return buffer;
}

bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    int extra = 0;
    if (c < 0x80) extra = 0;
    else if ((c & 0xE0) == 0xC0 && c >= 0xC2) extra = 1;
    else if ((c & 0xF0) == 0xE0) extra = 2;
    else if ((c & 0xF8) == 0xF0 && c <= 0xF4) extra = 3;
    else return false;
    if (i + extra >= s.size()) return false;
    for (int k = 1; k <= extra; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += extra + 1;
  }
  return true;
}

// PostgreSQL's bytea hex output ("\x48656c6c6f") as bytes, if it is UTF-8.
bool bytea_as_utf8(std::string_view text, std::string& out) {
  if (!text.starts_with("\\x") || text.size() % 2 != 0) return false;
  out.clear();
  for (std::size_t i = 2; i < text.size(); i += 2) {
    unsigned byte = 0;
    auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + i + 2, byte, 16);
    if (ec != std::errc() || ptr != text.data() + i + 2) return false;
    out.push_back(static_cast<char>(byte));
  }
  return valid_utf8(out);
}

std::string format_standard_or_cockroach(const Cell& cell, char type_letter, OutputMode mode) {
  const ValueClass value_class = classify(cell.type_oid);
  const std::string text(cell.text);
  const bool cockroach = mode == OutputMode::kCockroach;
  switch (type_letter) {
    case 'B':
      if (value_class == ValueClass::kBool) return bool_word(text);
      return text;
    case 'I':
      switch (value_class) {
        case ValueClass::kBool: return text == "t" ? "1" : "0";
        case ValueClass::kFloat: return truncated_float(std::strtod(text.c_str(), nullptr));
        case ValueClass::kNumeric: return round_decimal(text, 0, /*truncate=*/!cockroach);
        case ValueClass::kText: return "0";
        default: return text;
      }
    case 'R':
      switch (value_class) {
        case ValueClass::kInteger: return text + ".000";
        case ValueClass::kFloat: {
          const double value = std::strtod(text.c_str(), nullptr);
          return cockroach ? shortest_float(value) : printf_3(value);
        }
        case ValueClass::kNumeric: {
          if (cockroach) return text;
          const std::size_t dot = text.find('.');
          if (dot != std::string::npos && text.size() - dot - 1 > 3) {
            return round_decimal(text, 3, /*truncate=*/false);
          }
          return text;
        }
        default: return text;
      }
    case 'T':
      switch (value_class) {
        case ValueClass::kBool: return bool_word(text);
        case ValueClass::kFloat: return printf_3(std::strtod(text.c_str(), nullptr));
        case ValueClass::kText: return text.empty() ? "(empty)" : text;
        case ValueClass::kBytea: {
          std::string decoded;
          if (bytea_as_utf8(text, decoded)) return decoded.empty() ? "(empty)" : decoded;
          return text;
        }
        default: return text;
      }
    default:  // 'O' and anything the parser let through.
      return text;
  }
}

}  // namespace

std::string round_decimal(std::string_view text, int scale, bool truncate) {
  std::string_view digits = text;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  const std::size_t dot = digits.find('.');
  std::string integer_part(digits.substr(0, dot));
  std::string fraction(dot == std::string_view::npos ? std::string_view() : digits.substr(dot + 1));
  if (integer_part.empty()) integer_part.push_back('0');
  for (char c : integer_part + fraction) {
    if (c < '0' || c > '9') return std::string(text);
  }
  // Work on all kept digits as one string, then put the point back.
  const std::size_t kept = static_cast<std::size_t>(scale);
  const bool round_up = !truncate && fraction.size() > kept && fraction[kept] >= '5';
  fraction.resize(kept, '0');
  std::string number = integer_part + fraction;
  if (round_up) {
    std::size_t i = number.size();
    while (i > 0) {
      --i;
      if (number[i] == '9') {
        number[i] = '0';
        if (i == 0) number.insert(number.begin(), '1');
      } else {
        ++number[i];
        break;
      }
    }
  }
  const std::size_t integer_digits = number.size() - kept;
  std::string_view integer_view = std::string_view(number).substr(0, integer_digits);
  const std::size_t first_nonzero = integer_view.find_first_not_of('0');
  std::string result;
  if (negative && number.find_first_not_of('0') != std::string::npos) result.push_back('-');
  if (first_nonzero == std::string_view::npos) {
    result.push_back('0');
  } else {
    result.append(integer_view.substr(first_nonzero));
  }
  if (kept > 0) {
    result.push_back('.');
    result.append(std::string_view(number).substr(integer_digits));
  }
  return result;
}

std::string format_value(const Cell& cell, char type_letter, OutputMode mode) {
  if (cell.is_null) return "NULL";
  std::string formatted = format_standard_or_cockroach(cell, type_letter, mode);
  if (mode == OutputMode::kCockroach) {
    std::string replaced;
    for (char c : formatted) {
      if (c == ' ') replaced += kSpaceSymbol;
      else replaced += c;
    }
    formatted = std::move(replaced);
  }
  return formatted;
}

}  // namespace tandem::slt
