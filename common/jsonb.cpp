// jsonb/json values: parsing (json_lex/json_parse's grammar and messages),
// printing (jsonb_out, jsonb_pretty), the order-preserving encoding and the
// wire formats. See common/jsonb.hpp.
#include "common/jsonb.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "common/row.hpp"
#include "common/sqlstate.hpp"

namespace tandem {
namespace {

enum : uint8_t {
  kEncNull = 0x01,
  kEncString = 0x02,
  kEncNumber = 0x03,
  kEncBool = 0x04,
  kEncArray = 0x10,
  kEncObject = 0x11,
};

// ---------------------------------------------------------------- parsing

bool is_json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_alnum_token(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' || u == '$' ||
         u >= 0x80;
}

class JsonParser {
 public:
  JsonParser(std::string_view text, bool for_jsonb) : s_(text), jsonb_(for_jsonb) {}

  Result<JsonValue> parse() {
    JsonValue v;
    TANDEM_RETURN_IF_ERROR(parse_value(&v, 0));
    skip_space();
    if (p_ < s_.size()) return syntax("Expected end of input, but found \"" + std::string(token_at(p_)) + "\".");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 6400;

  void skip_space() {
    while (p_ < s_.size() && is_json_space(s_[p_])) ++p_;
  }

  // The token starting at `at`, as PostgreSQL's lexer delimits it.
  std::string_view token_at(size_t at) const {
    if (at >= s_.size()) return {};
    const char c = s_[at];
    if (c == '"') {
      size_t q = at + 1;
      while (q < s_.size() && s_[q] != '"') q += s_[q] == '\\' ? 2 : 1;
      return s_.substr(at, std::min(q + 1, s_.size()) - at);
    }
    if (!is_alnum_token(c) && c != '-') return s_.substr(at, 1);
    size_t q = at + 1;
    while (q < s_.size() && is_alnum_token(s_[q])) ++q;
    return s_.substr(at, q - at);
  }

  Status syntax(std::string detail) const {
    // PostgreSQL's CONTEXT line shows the input up to the error.
    return Status::error(sqlstate::kInvalidTextRepresentation, "invalid input syntax for type json")
        .with_detail(std::move(detail));
  }
  Status ended() const { return syntax("The input string ended unexpectedly."); }
  Status expected(std::string_view what) const {
    if (p_ >= s_.size()) return ended();
    const std::string_view tok = token_at(p_);
    if (invalid_token(tok)) return syntax("Token \"" + std::string(tok) + "\" is invalid.");
    return syntax("Expected " + std::string(what) + ", but found \"" + std::string(tok) + "\".");
  }
  // A token the lexer itself rejects (neither punctuation, string, number
  // nor keyword).
  bool invalid_token(std::string_view tok) const {
    if (tok.empty()) return false;
    const char c = tok[0];
    if (c == '"' || c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':') return false;
    if (tok == "true" || tok == "false" || tok == "null") return false;
    return !valid_number(tok);
  }
  static bool valid_number(std::string_view t) {
    size_t i = 0;
    if (i < t.size() && t[i] == '-') ++i;
    if (i >= t.size()) return false;
    if (t[i] == '0') {
      ++i;
    } else if (t[i] >= '1' && t[i] <= '9') {
      while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    } else {
      return false;
    }
    if (i < t.size() && t[i] == '.') {
      ++i;
      const size_t d = i;
      while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
      if (i == d) return false;
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
      ++i;
      if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
      const size_t d = i;
      while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
      if (i == d) return false;
    }
    return i == t.size();
  }

  // A number's token ends at a non-alphanumeric; `1.5e+3` includes '.', '+'.
  std::string_view number_token() const {
    size_t q = p_;
    if (q < s_.size() && s_[q] == '-') ++q;
    while (q < s_.size() && (is_alnum_token(s_[q]) || s_[q] == '.' ||
                             ((s_[q] == '+' || s_[q] == '-') && (s_[q - 1] == 'e' || s_[q - 1] == 'E')))) {
      ++q;
    }
    return s_.substr(p_, q - p_);
  }

  Status parse_value(JsonValue* v, int depth) {
    if (depth > kMaxDepth) {
      return Status::error("54001", "stack depth limit exceeded");
    }
    skip_space();
    if (p_ >= s_.size()) return ended();
    const size_t start = p_;
    const char c = s_[p_];
    if (c == '{') {
      TANDEM_RETURN_IF_ERROR(parse_object(v, depth));
    } else if (c == '[') {
      TANDEM_RETURN_IF_ERROR(parse_array(v, depth));
    } else if (c == '"') {
      v->kind = JsonValue::Kind::kString;
      TANDEM_RETURN_IF_ERROR(parse_string(&v->string));
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const std::string_view tok = number_token();
      if (!valid_number(tok)) return syntax("Token \"" + std::string(tok) + "\" is invalid.");
      p_ += tok.size();
      v->kind = JsonValue::Kind::kNumber;
      auto n = Numeric::parse(tok);
      if (!n.ok()) {
        if (jsonb_) return n.status();
      } else {
        v->number = *n;
      }
    } else {
      const std::string_view tok = token_at(p_);
      if (tok == "true" || tok == "false") {
        v->kind = JsonValue::Kind::kBool;
        v->boolean = tok == "true";
      } else if (tok == "null") {
        v->kind = JsonValue::Kind::kNull;
      } else if (invalid_token(tok)) {
        return syntax("Token \"" + std::string(tok) + "\" is invalid.");
      } else {
        return syntax("Expected JSON value, but found \"" + std::string(tok) + "\".");
      }
      p_ += tok.size();
    }
    if (!jsonb_) v->raw = s_.substr(start, p_ - start);
    return Status::ok();
  }

  Status parse_object(JsonValue* v, int depth) {
    v->kind = JsonValue::Kind::kObject;
    ++p_;  // {
    skip_space();
    if (p_ < s_.size() && s_[p_] == '}') {
      ++p_;
      return Status::ok();
    }
    for (bool first = true;; first = false) {
      skip_space();
      if (p_ >= s_.size()) return ended();
      if (s_[p_] != '"') return expected(first ? "string or \"}\"" : "string");
      std::string key;
      TANDEM_RETURN_IF_ERROR(parse_string(&key));
      skip_space();
      if (p_ >= s_.size()) return ended();
      if (s_[p_] != ':') return expected("\":\"");
      ++p_;
      JsonValue member;
      TANDEM_RETURN_IF_ERROR(parse_value(&member, depth + 1));
      v->members.emplace_back(std::move(key), std::move(member));
      skip_space();
      if (p_ >= s_.size()) return ended();
      if (s_[p_] == ',') {
        ++p_;
        continue;
      }
      if (s_[p_] == '}') {
        ++p_;
        break;
      }
      return expected("\",\" or \"}\"");
    }
    if (jsonb_) jsonb_normalize_object(v);
    return Status::ok();
  }

  Status parse_array(JsonValue* v, int depth) {
    v->kind = JsonValue::Kind::kArray;
    ++p_;  // [
    skip_space();
    if (p_ < s_.size() && s_[p_] == ']') {
      ++p_;
      return Status::ok();
    }
    for (;;) {
      skip_space();
      if (p_ >= s_.size()) return ended();
      const char c = s_[p_];
      if (c == ']' || c == ',' || c == ':' || c == '}') {
        return expected(v->elements.empty() ? "array element or \"]\"" : "JSON value");
      }
      JsonValue element;
      TANDEM_RETURN_IF_ERROR(parse_value(&element, depth + 1));
      v->elements.push_back(std::move(element));
      skip_space();
      if (p_ >= s_.size()) return ended();
      if (s_[p_] == ',') {
        ++p_;
        continue;
      }
      if (s_[p_] == ']') {
        ++p_;
        return Status::ok();
      }
      return expected("\",\" or \"]\"");
    }
  }

  static void append_utf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  Status parse_string(std::string* out) {
    ++p_;  // "
    uint32_t high_surrogate = 0;
    for (;;) {
      if (p_ >= s_.size()) return ended();
      const char c = s_[p_];
      if (c == '"') {
        ++p_;
        break;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
        return syntax("Character with value " + std::string(hex) + " must be escaped.");
      }
      if (c != '\\') {
        if (high_surrogate) return syntax("Unicode low surrogate must follow a high surrogate.");
        out->push_back(c);
        ++p_;
        continue;
      }
      if (p_ + 1 >= s_.size()) return ended();
      const char e = s_[p_ + 1];
      if (e == 'u') {
        uint32_t cp = 0;
        for (int i = 0; i < 4; ++i) {
          const size_t at = p_ + 2 + static_cast<size_t>(i);
          if (at >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[at]))) {
            return syntax("\"\\u\" must be followed by four hexadecimal digits.");
          }
          const char h = s_[at];
          cp = cp * 16 + static_cast<uint32_t>(h <= '9' ? h - '0' : (std::tolower(h) - 'a' + 10));
        }
        p_ += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (high_surrogate) return syntax("Unicode high surrogate must not follow a high surrogate.");
          high_surrogate = cp;
          continue;
        }
        if (cp >= 0xDC00 && cp <= 0xDFFF) {
          if (!high_surrogate) return syntax("Unicode low surrogate must follow a high surrogate.");
          cp = 0x10000 + ((high_surrogate - 0xD800) << 10) + (cp - 0xDC00);
          high_surrogate = 0;
        } else if (high_surrogate) {
          return syntax("Unicode low surrogate must follow a high surrogate.");
        }
        if (cp == 0) {
          return Status::error(sqlstate::kUntranslatableCharacter, "unsupported Unicode escape sequence")
              .with_detail("\\u0000 cannot be converted to text.");
        }
        append_utf8(cp, out);
        continue;
      }
      if (high_surrogate) return syntax("Unicode low surrogate must follow a high surrogate.");
      switch (e) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        default: {
          // The escape as PostgreSQL shows it: one (possibly multibyte) char.
          size_t len = 1;
          const auto u = static_cast<unsigned char>(e);
          if (u >= 0xF0) len = 4;
          else if (u >= 0xE0) len = 3;
          else if (u >= 0xC0) len = 2;
          return syntax("Escape sequence \"\\" + std::string(s_.substr(p_ + 1, len)) + "\" is invalid.");
        }
      }
      p_ += 2;
    }
    if (high_surrogate) return syntax("Unicode low surrogate must follow a high surrogate.");
    return Status::ok();
  }

  std::string_view s_;
  size_t p_ = 0;
  bool jsonb_;
};

// ---------------------------------------------------------------- printing

void format_value(const JsonValue& v, std::string* out, int indent, bool pretty) {
  auto newline = [&](int level) {
    out->push_back('\n');
    out->append(static_cast<size_t>(level) * 4, ' ');
  };
  switch (v.kind) {
    case JsonValue::Kind::kNull: out->append("null"); return;
    case JsonValue::Kind::kBool: out->append(v.boolean ? "true" : "false"); return;
    case JsonValue::Kind::kNumber: v.number.append_to(out); return;
    case JsonValue::Kind::kString: append_json_string(v.string, out); return;
    case JsonValue::Kind::kArray:
      out->push_back('[');
      for (size_t i = 0; i < v.elements.size(); ++i) {
        if (i) out->append(pretty ? "," : ", ");
        if (pretty) newline(indent + 1);
        format_value(v.elements[i], out, indent + 1, pretty);
      }
      if (pretty) newline(indent);  // even when empty, as jsonb_pretty does
      out->push_back(']');
      return;
    case JsonValue::Kind::kObject:
      out->push_back('{');
      for (size_t i = 0; i < v.members.size(); ++i) {
        if (i) out->append(pretty ? "," : ", ");
        if (pretty) newline(indent + 1);
        append_json_string(v.members[i].first, out);
        out->append(": ");
        format_value(v.members[i].second, out, indent + 1, pretty);
      }
      if (pretty) newline(indent);
      out->push_back('}');
      return;
  }
}

// ---------------------------------------------------------------- encoding

void put_u32(std::string* out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>(v >> (8 * i)));
}
uint32_t get_u32(const char*& p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(*p++);
  return v;
}

void push_key_datum(std::string* out, const Datum& d) {
  RowPacker packer(out);
  packer.set_normalize_numeric(true);
  packer.push(d);
}

void encode_value(const JsonValue& v, std::string* out, std::string* scales, bool* need_scales) {
  switch (v.kind) {
    case JsonValue::Kind::kNull: out->push_back(static_cast<char>(kEncNull)); return;
    case JsonValue::Kind::kBool:
      out->push_back(static_cast<char>(kEncBool));
      out->push_back(v.boolean ? 1 : 0);
      return;
    case JsonValue::Kind::kString:
      out->push_back(static_cast<char>(kEncString));
      push_key_datum(out, Datum::from_string(v.string));
      return;
    case JsonValue::Kind::kNumber: {
      out->push_back(static_cast<char>(kEncNumber));
      push_key_datum(out, Datum::from_numeric(v.number));
      // The key-mode numeric ends with its canonical scale, the full one
      // with its display scale: the trailer keeps the latter.
      std::string full;
      RowPacker(&full).push(Datum::from_numeric(v.number));
      scales->push_back(full.back());
      if (full.back() != out->back()) *need_scales = true;
      return;
    }
    case JsonValue::Kind::kArray:
      out->push_back(static_cast<char>(kEncArray));
      put_u32(out, static_cast<uint32_t>(v.elements.size()));
      for (const auto& e : v.elements) encode_value(e, out, scales, need_scales);
      return;
    case JsonValue::Kind::kObject:
      out->push_back(static_cast<char>(kEncObject));
      put_u32(out, static_cast<uint32_t>(v.members.size()));
      for (const auto& [k, m] : v.members) {
        push_key_datum(out, Datum::from_string(k));
        encode_value(m, out, scales, need_scales);
      }
      return;
  }
}

// Skips one encoded value, counting its numbers.
void skip_value(const char*& p, size_t* numbers) {
  const uint8_t tag = static_cast<uint8_t>(*p++);
  switch (tag) {
    case kEncNull: return;
    case kEncBool: ++p; return;
    case kEncString:
    case kEncNumber: {
      RowIter it{RowRef(std::string_view(p, 1 << 30))};
      const std::string_view packed = it.next_packed();
      p += packed.size();
      if (tag == kEncNumber) ++*numbers;
      return;
    }
    case kEncArray: {
      const uint32_t n = get_u32(p);
      for (uint32_t i = 0; i < n; ++i) skip_value(p, numbers);
      return;
    }
    default: {  // object
      const uint32_t n = get_u32(p);
      for (uint32_t i = 0; i < n; ++i) {
        RowIter it{RowRef(std::string_view(p, 1 << 30))};
        p += it.next_packed().size();
        skip_value(p, numbers);
      }
      return;
    }
  }
}

// Skips the top-level value (with its raw-scalar flag when an array).
void skip_top(const char*& p, size_t* numbers) {
  if (static_cast<uint8_t>(*p) == kEncArray) {
    ++p;
    const uint32_t n = get_u32(p);
    ++p;  // raw-scalar flag
    for (uint32_t i = 0; i < n; ++i) skip_value(p, numbers);
    return;
  }
  skip_value(p, numbers);
}

struct Decoder {
  const char* p;
  const char* scales;  // nullptr: no trailer

  JsonValue value() {
    const uint8_t tag = static_cast<uint8_t>(*p++);
    switch (tag) {
      case kEncNull: return JsonValue::null();
      case kEncBool: return JsonValue::from_bool(*p++ != 0);
      case kEncString: {
        RowIter it{RowRef(std::string_view(p, 1 << 30))};
        const std::string_view packed = it.next_packed();
        p += packed.size();
        RowArena arena;
        return JsonValue::from_string(std::string(unpack_one(RowRef(packed), &arena).as_string()));
      }
      case kEncNumber: {
        RowIter it{RowRef(std::string_view(p, 1 << 30))};
        std::string packed(it.next_packed());
        p += packed.size();
        if (scales) packed.back() = *scales++;
        return JsonValue::from_number(unpack_one(RowRef(packed)).as_numeric());
      }
      case kEncArray: {
        JsonValue v = JsonValue::array();
        const uint32_t n = get_u32(p);
        v.elements.reserve(n);
        for (uint32_t i = 0; i < n; ++i) v.elements.push_back(value());
        return v;
      }
      default: {
        JsonValue v = JsonValue::object();
        const uint32_t n = get_u32(p);
        v.members.reserve(n);
        for (uint32_t i = 0; i < n; ++i) {
          RowIter it{RowRef(std::string_view(p, 1 << 30))};
          const std::string_view packed = it.next_packed();
          p += packed.size();
          RowArena arena;
          std::string key(unpack_one(RowRef(packed), &arena).as_string());
          v.members.emplace_back(std::move(key), value());
        }
        return v;
      }
    }
  }
};

}  // namespace

JsonValue::JsonValue() = default;
JsonValue::JsonValue(const JsonValue&) = default;
JsonValue::JsonValue(JsonValue&&) noexcept = default;
JsonValue& JsonValue::operator=(const JsonValue&) = default;
JsonValue& JsonValue::operator=(JsonValue&&) noexcept = default;
JsonValue::~JsonValue() = default;

const JsonValue* JsonValue::find(std::string_view key) const {
  if (kind != Kind::kObject) return nullptr;
  for (auto it = members.rbegin(); it != members.rend(); ++it) {  // json: the last duplicate
    if (it->first == key) return &it->second;
  }
  return nullptr;
}

bool jsonb_key_less(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

void jsonb_normalize_object(JsonValue* object) {
  auto& m = object->members;
  std::stable_sort(m.begin(), m.end(), [](const auto& a, const auto& b) { return jsonb_key_less(a.first, b.first); });
  // Keep the last of each run of equal keys.
  std::vector<std::pair<std::string, JsonValue>> out;
  out.reserve(m.size());
  for (size_t i = 0; i < m.size(); ++i) {
    if (i + 1 < m.size() && m[i + 1].first == m[i].first) continue;
    out.push_back(std::move(m[i]));
  }
  m = std::move(out);
}

Result<JsonValue> parse_json(std::string_view text, bool for_jsonb) {
  return JsonParser(text, for_jsonb).parse();
}

void format_jsonb_value(const JsonValue& v, std::string* out) { format_value(v, out, 0, false); }
void format_jsonb_pretty(const JsonValue& v, std::string* out) { format_value(v, out, 0, true); }

void append_json_string(std::string_view s, std::string* out) {
  out->push_back('"');
  for (const char c : s) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out->append(buf);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

std::string jsonb_scalar_text(const JsonValue& v) {
  if (v.kind == JsonValue::Kind::kString) return v.string;
  std::string s;
  format_jsonb_value(v, &s);
  return s;
}

std::string_view jsonb_typeof(const JsonValue& v) {
  switch (v.kind) {
    case JsonValue::Kind::kNull: return "null";
    case JsonValue::Kind::kBool: return "boolean";
    case JsonValue::Kind::kNumber: return "number";
    case JsonValue::Kind::kString: return "string";
    case JsonValue::Kind::kArray: return "array";
    case JsonValue::Kind::kObject: return "object";
  }
  return "null";
}

std::string encode_jsonb(const JsonValue& v) {
  std::string out;
  std::string scales;
  bool need_scales = false;
  if (v.kind == JsonValue::Kind::kObject) {
    encode_value(v, &out, &scales, &need_scales);
  } else {
    const bool raw = v.kind != JsonValue::Kind::kArray;
    out.push_back(static_cast<char>(kEncArray));
    put_u32(&out, raw ? 1 : static_cast<uint32_t>(v.elements.size()));
    out.push_back(raw ? 0 : 1);
    if (raw) {
      encode_value(v, &out, &scales, &need_scales);
    } else {
      for (const auto& e : v.elements) encode_value(e, &out, &scales, &need_scales);
    }
  }
  if (need_scales) {
    out.push_back(1);
    out.append(scales);
  } else {
    out.push_back(0);
  }
  return out;
}

Datum make_jsonb(const JsonValue& v, RowArena& arena) { return Datum::from_jsonb(arena.push(encode_jsonb(v))); }

JsonValue decode_jsonb(std::string_view encoding) {
  const char* p = encoding.data();
  size_t numbers = 0;
  skip_top(p, &numbers);
  Decoder d{encoding.data(), *p == 1 ? p + 1 : nullptr};
  if (static_cast<uint8_t>(*d.p) == kEncArray) {
    ++d.p;
    const uint32_t n = get_u32(d.p);
    const bool raw = *d.p++ == 0;
    if (raw) return d.value();
    JsonValue v = JsonValue::array();
    v.elements.reserve(n);
    for (uint32_t i = 0; i < n; ++i) v.elements.push_back(d.value());
    return v;
  }
  return d.value();
}

size_t jsonb_encoded_size(std::string_view bytes) {
  const char* p = bytes.data();
  size_t numbers = 0;
  skip_top(p, &numbers);
  const size_t trailer = *p == 1 ? 1 + numbers : 1;
  return static_cast<size_t>(p - bytes.data()) + trailer;
}

void append_jsonb_key_mode(std::string_view encoding, std::string* out) {
  const char* p = encoding.data();
  size_t numbers = 0;
  skip_top(p, &numbers);
  out->append(encoding.data(), static_cast<size_t>(p - encoding.data()));
  out->push_back(0);
}

bool jsonb_is_key_mode(std::string_view encoding) {
  const char* p = encoding.data();
  size_t numbers = 0;
  skip_top(p, &numbers);
  return *p == 0;
}

Result<std::vector<std::vector<Datum>>> expand_jsonb(JsonbSetFunc f, const Datum& doc, RowArena& arena) {
  const JsonValue v = decode_jsonb(doc);
  std::vector<std::vector<Datum>> rows;
  auto as_text = [&](const JsonValue& e) {
    if (e.kind == JsonValue::Kind::kNull) return Datum::null();
    return Datum::from_string(arena.push(jsonb_scalar_text(e)));
  };
  auto bad = [](std::string msg) { return Status::error(sqlstate::kInvalidParameterValue, std::move(msg)); };
  switch (f) {
    case JsonbSetFunc::kEach:
    case JsonbSetFunc::kEachText:
      if (v.kind != JsonValue::Kind::kObject) {
        return bad(std::string("cannot call ") + (f == JsonbSetFunc::kEach ? "jsonb_each" : "jsonb_each_text") +
                   " on a non-object");
      }
      for (const auto& [k, m] : v.members) {
        const Datum key = Datum::from_string(arena.push(k));
        rows.push_back({key, f == JsonbSetFunc::kEach ? make_jsonb(m, arena) : as_text(m)});
      }
      return rows;
    case JsonbSetFunc::kArrayElements:
    case JsonbSetFunc::kArrayElementsText:
      if (v.kind == JsonValue::Kind::kObject) return bad("cannot extract elements from an object");
      if (v.kind != JsonValue::Kind::kArray) return bad("cannot extract elements from a scalar");
      for (const auto& e : v.elements) {
        rows.push_back({f == JsonbSetFunc::kArrayElements ? make_jsonb(e, arena) : as_text(e)});
      }
      return rows;
    case JsonbSetFunc::kObjectKeys:
      if (v.kind == JsonValue::Kind::kArray) return bad("cannot call jsonb_object_keys on an array");
      if (v.kind != JsonValue::Kind::kObject) return bad("cannot call jsonb_object_keys on a scalar");
      for (const auto& m : v.members) rows.push_back({Datum::from_string(arena.push(m.first))});
      return rows;
  }
  return rows;
}

void format_jsonb(const Datum& d, std::string* out) { format_jsonb_value(decode_jsonb(d), out); }

Result<Datum> parse_jsonb(std::string_view text, RowArena& arena) {
  TANDEM_ASSIGN_OR_RETURN(JsonValue v, parse_json(text, true));
  return make_jsonb(v, arena);
}

Result<Datum> parse_json_text(std::string_view text, RowArena& arena) {
  auto parsed = parse_json(text, false);
  if (!parsed.ok()) return parsed.status();
  return Datum::from_string(arena.push(text));
}

void send_jsonb(const Datum& d, std::string* out) {
  out->push_back(1);
  format_jsonb(d, out);
}

Result<Datum> recv_jsonb(std::string_view bytes, RowArena& arena) {
  if (bytes.empty() || bytes[0] != 1) {
    return Status::error(sqlstate::kInvalidBinaryRepresentation,
                         "unsupported jsonb version number " + std::to_string(bytes.empty() ? 0 : int(bytes[0])));
  }
  return parse_jsonb(bytes.substr(1), arena);
}

}  // namespace tandem
