#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "common/array.hpp"
#include "common/datetime.hpp"
#include "common/jsonb.hpp"
#include "common/sqlstate.hpp"
#include "common/value_io.hpp"

namespace tandem {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

Status invalid_syntax(std::string_view type, std::string_view text) {
  return Status::error(sqlstate::kInvalidTextRepresentation,
                       "invalid input syntax for type " + std::string(type) + ": \"" + std::string(text) + "\"");
}

// PostgreSQL's float formatting (ryu-based, extra_float_digits > 0): shortest
// round-trip digits, fixed notation for decimal exponents in
// [-4, kFixedLimit), otherwise d.ddde+XX.
template <class F>
void format_float(F v, int fixed_limit, std::string* out) {
  if (std::isnan(v)) { out->append("NaN"); return; }
  if (std::isinf(v)) { out->append(v > 0 ? "Infinity" : "-Infinity"); return; }
  if (v == 0) { out->append(std::signbit(v) ? "-0" : "0"); return; }
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string_view s(buf, res.ptr - buf);
  bool neg = false;
  if (s[0] == '-') { neg = true; s.remove_prefix(1); }
  const size_t epos = s.find('e');
  std::string digits;
  for (char c : s.substr(0, epos)) if (c != '.') digits.push_back(c);
  int exp = 0;
  std::from_chars(s.data() + epos + 1 + (s[epos + 1] == '+'), s.data() + s.size(), exp);
  if (neg) out->push_back('-');
  const int nd = static_cast<int>(digits.size());
  if (exp >= -4 && exp < fixed_limit) {
    if (exp >= 0) {
      if (nd <= exp + 1) {
        out->append(digits);
        out->append(static_cast<size_t>(exp + 1 - nd), '0');
      } else {
        out->append(digits, 0, static_cast<size_t>(exp + 1));
        out->push_back('.');
        out->append(digits, static_cast<size_t>(exp + 1), std::string::npos);
      }
    } else {
      out->append("0.");
      out->append(static_cast<size_t>(-exp - 1), '0');
      out->append(digits);
    }
    return;
  }
  out->push_back(digits[0]);
  if (nd > 1) {
    out->push_back('.');
    out->append(digits, 1, std::string::npos);
  }
  char ebuf[16];
  std::snprintf(ebuf, sizeof(ebuf), "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  out->append(ebuf);
}

// Built with append: GCC 12 warns falsely (-Wrestrict) on "\"" + std::string.
Status float_out_of_range(std::string_view text, const char* type) {
  std::string msg;
  msg.push_back('"');
  msg.append(text);
  msg.append("\" is out of range for type ");
  msg.append(type);
  return Status::error(sqlstate::kNumericValueOutOfRange, std::move(msg));
}

const char* int_type_name(TypeId t) {
  switch (t) {
    case TypeId::kInt2: return "smallint";
    case TypeId::kInt4: return "integer";
    case TypeId::kOid: return "oid";
    default: return "bigint";
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Result<Datum> parse_mz_timestamp(std::string_view text) {
  std::string_view t = trim(text);
  uint64_t v = 0;
  auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  if (!t.empty() && r.ec == std::errc() && r.ptr == t.data() + t.size()) return Datum::from_mz_timestamp(v);
  if (!t.empty() && r.ec == std::errc::result_out_of_range) {
    return Status::error(sqlstate::kNumericValueOutOfRange,
                         "value \"" + std::string(text) + "\" is out of range for type mz_timestamp");
  }
  auto ts = parse_timestamp(t, true);
  if (!ts.ok()) return invalid_syntax("mz_timestamp", text);
  // PostgreSQL epoch microseconds -> Unix epoch milliseconds.
  const int64_t unix_us = *ts + 946684800LL * kUsecsPerSec;
  if (unix_us < 0) {
    return Status::error(sqlstate::kNumericValueOutOfRange, "mz_timestamp out of range");
  }
  return Datum::from_mz_timestamp(static_cast<uint64_t>(unix_us / 1000));
}

}  // namespace

void format_float8(double v, std::string* out) { format_float(v, 15, out); }
void format_float4(float v, std::string* out) { format_float(v, 6, out); }

size_t utf8_length(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

void format_bytea(std::string_view bytes, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->append("\\x");
  for (unsigned char c : bytes) {
    out->push_back(kHex[c >> 4]);
    out->push_back(kHex[c & 15]);
  }
}

void format_datum(const Datum& d, const ColumnType& type, std::string* out) {
  switch (d.kind()) {
    case DatumKind::kNull: return;
    case DatumKind::kBool: out->push_back(d.as_bool() ? 't' : 'f'); return;
    case DatumKind::kInt16:
    case DatumKind::kInt32:
    case DatumKind::kInt64:
    case DatumKind::kOid: {
      char buf[24];
      auto r = std::to_chars(buf, buf + sizeof(buf), d.as_integer());
      out->append(buf, r.ptr - buf);
      return;
    }
    case DatumKind::kMzTimestamp: out->append(std::to_string(d.as_mz_timestamp())); return;
    case DatumKind::kFloat32: format_float4(d.as_float32(), out); return;
    case DatumKind::kFloat64: format_float8(d.as_float64(), out); return;
    case DatumKind::kNumeric:
      if (type.id == TypeId::kNumeric) {
        d.as_numeric().at_typmod_scale(type.typmod).append_to(out);
      } else {
        d.as_numeric().append_to(out);
      }
      return;
    case DatumKind::kDate: format_date(d.as_date(), out); return;
    case DatumKind::kTime: format_time(d.as_time(), out); return;
    case DatumKind::kTimestamp: format_timestamp(d.as_timestamp(), false, out); return;
    case DatumKind::kTimestampTz: format_timestamp(d.as_timestamp(), true, out); return;
    case DatumKind::kInterval: format_interval(d.as_interval(), out); return;
    case DatumKind::kString: out->append(d.as_string()); return;
    case DatumKind::kBytes: format_bytea(d.as_bytes(), out); return;
    case DatumKind::kArray: format_array(d, out); return;
    case DatumKind::kJsonb: format_jsonb(d, out); return;
  }
  (void)type;
}

std::string datum_to_text(const Datum& d, const ColumnType& type) {
  std::string s;
  format_datum(d, type, &s);
  return s;
}

Result<int64_t> parse_integer(std::string_view text, TypeId type) {
  std::string_view t = trim(text);
  const char* name = int_type_name(type);
  if (t.empty()) return invalid_syntax(name, text);
  bool neg = false;
  size_t i = 0;
  if (t[0] == '+' || t[0] == '-') {
    neg = t[0] == '-';
    ++i;
  }
  if (i >= t.size()) return invalid_syntax(name, text);
  uint64_t v = 0;
  bool overflow = false;
  for (; i < t.size(); ++i) {
    const char c = t[i];
    if (c < '0' || c > '9') return invalid_syntax(name, text);
    if (v > (UINT64_MAX - 9) / 10) overflow = true;
    else v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  int64_t lo, hi;
  switch (type) {
    case TypeId::kInt2: lo = INT16_MIN; hi = INT16_MAX; break;
    case TypeId::kInt4: lo = INT32_MIN; hi = INT32_MAX; break;
    case TypeId::kOid: lo = INT32_MIN; hi = UINT32_MAX; break;
    default: lo = INT64_MIN; hi = INT64_MAX; break;
  }
  const uint64_t limit = neg ? static_cast<uint64_t>(-(lo + 1)) + 1 : static_cast<uint64_t>(hi);
  if (overflow || v > limit) {
    return Status::error(sqlstate::kNumericValueOutOfRange,
                         "value \"" + std::string(text) + "\" is out of range for type " + name);
  }
  if (neg) {
    const int64_t r = v == 0 ? int64_t{0} : static_cast<int64_t>(0 - v);
    // oidin accepts negative 32-bit values and wraps them, as PostgreSQL does.
    if (type == TypeId::kOid) return static_cast<int64_t>(static_cast<uint32_t>(static_cast<int32_t>(r)));
    return r;
  }
  return static_cast<int64_t>(v);
}

Result<bool> parse_bool(std::string_view text) {
  std::string_view t = trim(text);
  std::string l;
  for (char c : t) l.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  auto prefix_of = [&](std::string_view word, size_t min_len) {
    return l.size() >= min_len && l.size() <= word.size() && word.substr(0, l.size()) == l;
  };
  if (prefix_of("true", 1) || prefix_of("yes", 1) || prefix_of("on", 2) || l == "1") return true;
  if (prefix_of("false", 1) || prefix_of("no", 1) || prefix_of("off", 2) || l == "0") return false;
  return invalid_syntax("boolean", text);
}

Result<double> parse_float8(std::string_view text) {
  std::string s(trim(text));
  if (s.empty()) return invalid_syntax("double precision", text);
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return invalid_syntax("double precision", text);
  if (errno == ERANGE && (v == 0.0 || std::isinf(v))) {
    return float_out_of_range(text, "double precision");
  }
  return v;
}

Result<float> parse_float4(std::string_view text) {
  std::string s(trim(text));
  if (s.empty()) return invalid_syntax("real", text);
  errno = 0;
  char* end = nullptr;
  const float v = std::strtof(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return invalid_syntax("real", text);
  if (errno == ERANGE && (v == 0.0f || std::isinf(v))) {
    return float_out_of_range(text, "real");
  }
  return v;
}

Result<std::string_view> parse_bytea(std::string_view text, RowArena& arena) {
  if (text.size() >= 2 && text[0] == '\\' && text[1] == 'x') {
    char* out = arena.allocate(text.size() / 2);
    size_t n = 0;
    for (size_t i = 2; i < text.size();) {
      if (std::isspace(static_cast<unsigned char>(text[i]))) { ++i; continue; }
      const int hi = hex_value(text[i]);
      if (hi < 0) {
        return Status::error(sqlstate::kInvalidParameterValue,
                             "invalid hexadecimal digit: \"" + std::string(1, text[i]) + "\"");
      }
      if (i + 1 >= text.size()) {
        return Status::error(sqlstate::kInvalidParameterValue, "invalid hexadecimal data: odd number of digits");
      }
      const int lo = hex_value(text[i + 1]);
      if (lo < 0) {
        return Status::error(sqlstate::kInvalidParameterValue,
                             "invalid hexadecimal digit: \"" + std::string(1, text[i + 1]) + "\"");
      }
      out[n++] = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    return std::string_view(out, n);
  }
  char* out = arena.allocate(text.size());
  size_t n = 0;
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '\\') { out[n++] = text[i++]; continue; }
    if (i + 1 < text.size() && text[i + 1] == '\\') { out[n++] = '\\'; i += 2; continue; }
    if (i + 3 < text.size() + 0 && text[i + 1] >= '0' && text[i + 1] <= '3' && text[i + 2] >= '0' &&
        text[i + 2] <= '7' && text[i + 3] >= '0' && text[i + 3] <= '7') {
      out[n++] = static_cast<char>((text[i + 1] - '0') * 64 + (text[i + 2] - '0') * 8 + (text[i + 3] - '0'));
      i += 4;
      continue;
    }
    return Status::error(sqlstate::kInvalidTextRepresentation, "invalid input syntax for type bytea");
  }
  return std::string_view(out, n);
}

Result<std::string_view> coerce_char_length(std::string_view s, const ColumnType& type, bool explicit_cast,
                                            RowArena& arena) {
  const int max = char_typmod_length(type.typmod);
  if (max < 0) return s;
  const size_t len = utf8_length(s);
  if (len > static_cast<size_t>(max)) {
    // Byte offset of the max-th character.
    size_t cut = 0, chars = 0;
    while (cut < s.size() && chars < static_cast<size_t>(max)) {
      ++cut;
      while (cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) ++cut;
      ++chars;
    }
    if (!explicit_cast) {
      for (size_t i = cut; i < s.size(); ++i) {
        if (s[i] != ' ') {
          return Status::error(sqlstate::kStringDataRightTruncation,
                               "value too long for type " + format_type(type));
        }
      }
    }
    return s.substr(0, cut);
  }
  if (type.id == TypeId::kBpchar && len < static_cast<size_t>(max)) {
    const size_t pad = static_cast<size_t>(max) - len;
    char* p = arena.allocate(s.size() + pad);
    std::memcpy(p, s.data(), s.size());
    std::memset(p + s.size(), ' ', pad);
    return std::string_view(p, s.size() + pad);
  }
  return s;
}

Result<Datum> parse_datum(std::string_view text, const ColumnType& type, RowArena& arena) {
  if (is_array_type(type.id)) return parse_array(text, type, arena);
  if (type.id == TypeId::kJsonb) return parse_jsonb(text, arena);
  if (type.id == TypeId::kJson) return parse_json_text(text, arena);
  switch (type.id) {
    case TypeId::kBool: {
      TANDEM_ASSIGN_OR_RETURN(bool b, parse_bool(text));
      return Datum::from_bool(b);
    }
    case TypeId::kInt2: {
      TANDEM_ASSIGN_OR_RETURN(int64_t v, parse_integer(text, type.id));
      return Datum::from_int16(static_cast<int16_t>(v));
    }
    case TypeId::kInt4: {
      TANDEM_ASSIGN_OR_RETURN(int64_t v, parse_integer(text, type.id));
      return Datum::from_int32(static_cast<int32_t>(v));
    }
    case TypeId::kInt8: {
      TANDEM_ASSIGN_OR_RETURN(int64_t v, parse_integer(text, type.id));
      return Datum::from_int64(v);
    }
    case TypeId::kOid: {
      TANDEM_ASSIGN_OR_RETURN(int64_t v, parse_integer(text, type.id));
      return Datum::from_oid(static_cast<uint32_t>(v));
    }
    case TypeId::kFloat4: {
      TANDEM_ASSIGN_OR_RETURN(float v, parse_float4(text));
      return Datum::from_float32(v);
    }
    case TypeId::kFloat8: {
      TANDEM_ASSIGN_OR_RETURN(double v, parse_float8(text));
      return Datum::from_float64(v);
    }
    case TypeId::kNumeric: {
      TANDEM_ASSIGN_OR_RETURN(Numeric n, Numeric::parse(text));
      TANDEM_ASSIGN_OR_RETURN(Numeric m, n.apply_typmod(type.typmod));
      return Datum::from_numeric(m);
    }
    case TypeId::kUnknown:
    case TypeId::kText: return Datum::from_string(arena.push(text));
    case TypeId::kVarchar:
    case TypeId::kBpchar: {
      TANDEM_ASSIGN_OR_RETURN(std::string_view s, coerce_char_length(text, type, false, arena));
      if (s.data() == text.data()) s = arena.push(s);
      return Datum::from_string(s);
    }
    case TypeId::kBytea: {
      TANDEM_ASSIGN_OR_RETURN(std::string_view b, parse_bytea(text, arena));
      return Datum::from_bytes(b);
    }
    case TypeId::kDate: {
      TANDEM_ASSIGN_OR_RETURN(int32_t v, parse_date(text));
      return Datum::from_date(v);
    }
    case TypeId::kTime: {
      TANDEM_ASSIGN_OR_RETURN(int64_t v, parse_time(text));
      return Datum::from_time(v);
    }
    case TypeId::kTimestamp: {
      TANDEM_ASSIGN_OR_RETURN(int64_t v, parse_timestamp(text, false));
      return Datum::from_timestamp(v);
    }
    case TypeId::kTimestampTz: {
      TANDEM_ASSIGN_OR_RETURN(int64_t v, parse_timestamp(text, true));
      return Datum::from_timestamptz(v);
    }
    case TypeId::kInterval: {
      TANDEM_ASSIGN_OR_RETURN(Interval v, parse_interval(text));
      return Datum::from_interval(v);
    }
    case TypeId::kMzTimestamp: return parse_mz_timestamp(text);
    default: break;
  }
  return Status::error(sqlstate::kFeatureNotSupported, "unsupported type for text input");
}

}  // namespace tandem
