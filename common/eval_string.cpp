// Text functions (lengths and positions count UTF-8 characters), LIKE/ILIKE
// with ESCAPE, and md5. lower/upper/ILIKE fold ASCII letters only (the C
// locale's behaviour). Results that are substrings of an argument are
// returned as views without copying; new strings go to ctx.arena.
#include <algorithm>
#include <cstring>
#include <optional>
#include <regex>

#include "common/eval_internal.hpp"
#include "common/md5.hpp"
#include "common/sqlstate.hpp"
#include "common/types.hpp"
#include "common/value_io.hpp"

namespace tandem::detail {
namespace {

size_t char_len_at(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  return std::min(n, s.size() - i);
}

// Byte offset of the character with 0-based index `chars` (or s.size()).
size_t byte_offset(std::string_view s, int64_t chars) {
  size_t i = 0;
  while (chars > 0 && i < s.size()) {
    i += char_len_at(s, i);
    --chars;
  }
  return i;
}

// Rejects what std::regex would read as an out-of-range number, which
// libstdc++'s compiler accumulates in a long without checking for overflow
// (undefined behaviour): a back reference past the pattern's groups and a
// repetition count past 255 (PostgreSQL's limit), with PostgreSQL's errors.
// Sets *has_backref when the pattern holds a back reference.
Status check_regex_pattern(std::string_view pattern, bool* has_backref) {
  *has_backref = false;
  constexpr uint64_t kSaturated = uint64_t{1} << 40;
  const auto number_at = [&](size_t& i) {
    uint64_t v = 0;
    for (; i < pattern.size() && pattern[i] >= '0' && pattern[i] <= '9'; ++i) {
      v = std::min(kSaturated, v * 10 + static_cast<uint64_t>(pattern[i] - '0'));
    }
    return v;
  };
  const auto groups = static_cast<uint64_t>(std::count(pattern.begin(), pattern.end(), '('));
  for (size_t i = 0; i < pattern.size();) {
    if (pattern[i] == '\\' && i + 1 < pattern.size() && pattern[i + 1] >= '1' && pattern[i + 1] <= '9') {
      ++i;
      *has_backref = true;
      if (number_at(i) > groups) {
        return Status::error(sqlstate::kInvalidRegularExpression,
                             "invalid regular expression: invalid backreference number");
      }
    } else if (pattern[i] == '\\') {
      i += 2;
    } else if (pattern[i] == '[') {
      // A bracket expression's digits and braces are characters: skip to
      // its ']' (a ']' first in it, after an optional '^', is one of them).
      ++i;
      if (i < pattern.size() && pattern[i] == '^') ++i;
      if (i < pattern.size() && pattern[i] == ']') ++i;
      while (i < pattern.size() && pattern[i] != ']') i += pattern[i] == '\\' ? 2 : 1;
      ++i;
    } else if (pattern[i] == '{') {
      ++i;
      uint64_t low = number_at(i);
      uint64_t high = 0;
      if (i < pattern.size() && pattern[i] == ',') high = number_at(++i);
      if (low > 255 || high > 255) {
        return Status::error(sqlstate::kInvalidRegularExpression,
                             "invalid regular expression: invalid repetition count(s)");
      }
    } else {
      ++i;
    }
  }
  return Status::ok();
}

// The longest text a pattern with back references is matched against:
// libstdc++ matches those by backtracking, recursing once or more per
// character, and 2000 characters stay far inside a thread's stack (sanitizer
// builds included).
constexpr size_t kMaxBackrefSubject = 2000;

// `s ~ pattern`: PostgreSQL's regular expressions are POSIX AREs; the
// ECMAScript grammar of std::regex agrees on the patterns clients send
// (anchors, groups, classes, alternation, quantifiers). A pattern without
// back references runs on libstdc++'s breadth-first executor
// (regex_constants::__polynomial): time linear in the text, and a stack
// bounded by the pattern, where the default backtracking one recurses per
// character (a long text overflowed the stack) and may take exponential
// time. The last compiled pattern is kept per thread: a filter evaluates
// one pattern over many rows.
Result<Datum> regex_match(std::string_view s, std::string_view pattern, bool case_insensitive) {
  thread_local std::string cached_pattern;
  thread_local bool cached_ci = false;
  thread_local bool cached_backref = false;
  thread_local std::optional<std::regex> cached;
  if (!cached || cached_pattern != pattern || cached_ci != case_insensitive) {
    cached.reset();
    TANDEM_RETURN_IF_ERROR(check_regex_pattern(pattern, &cached_backref));
    try {
      auto flags = std::regex::ECMAScript;
      if (case_insensitive) flags |= std::regex::icase;
      if (!cached_backref) flags |= std::regex_constants::__polynomial;
      cached.emplace(pattern.begin(), pattern.end(), flags);
    } catch (const std::regex_error& e) {
      cached.reset();
      return Status::error(sqlstate::kInvalidRegularExpression,
                           "invalid regular expression: " + std::string(e.what()));
    }
    cached_pattern.assign(pattern);
    cached_ci = case_insensitive;
  }
  if (cached_backref && s.size() > kMaxBackrefSubject) {
    return Status::error("54001", "stack depth limit exceeded")
        .with_detail("A regular expression with back references is matched against at most " +
                     std::to_string(kMaxBackrefSubject) + " bytes of text.");
  }
  if (cached_backref) return Datum::from_bool(std::regex_search(s.begin(), s.end(), *cached));
  // Whether a match starts anywhere, in one breadth-first pass from the
  // first byte: `[\s\S]*(?:pattern)` matched from the start (a search
  // would run the executor from every start position: time quadratic in
  // the text). `^` still matches only at the start of the text.
  thread_local std::string anywhere_pattern;
  thread_local std::optional<std::regex> anywhere;
  if (!anywhere || anywhere_pattern != cached_pattern || anywhere->flags() != cached->flags()) {
    anywhere.reset();
    try {
      anywhere.emplace("[\\s\\S]*(?:" + cached_pattern + ")", cached->flags());
    } catch (const std::regex_error&) {
      return Datum::from_bool(std::regex_search(s.begin(), s.end(), *cached));
    }
    anywhere_pattern = cached_pattern;
  }
  return Datum::from_bool(std::regex_search(s.begin(), s.end(), *anywhere, std::regex_constants::match_continuous));
}

char lower_ascii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }
char upper_ascii(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c; }

Datum text(std::string_view s) { return Datum::from_string(s); }

Datum concat2(std::string_view a, std::string_view b, RowArena& arena) {
  char* p = arena.allocate(a.size() + b.size());
  if (!a.empty()) std::memcpy(p, a.data(), a.size());
  if (!b.empty()) std::memcpy(p + a.size(), b.data(), b.size());
  return text(std::string_view(p, a.size() + b.size()));
}

bool in_set(std::string_view set, std::string_view ch) {
  for (size_t i = 0; i < set.size(); i += char_len_at(set, i)) {
    if (set.substr(i, char_len_at(set, i)) == ch) return true;
  }
  return false;
}

std::string_view trim_chars(std::string_view s, std::string_view set, bool left, bool right) {
  if (left) {
    while (!s.empty()) {
      const size_t n = char_len_at(s, 0);
      if (!in_set(set, s.substr(0, n))) break;
      s.remove_prefix(n);
    }
  }
  if (right) {
    while (!s.empty()) {
      size_t start = s.size() - 1;
      while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
      if (!in_set(set, s.substr(start))) break;
      s.remove_suffix(s.size() - start);
    }
  }
  return s;
}

Status too_large() { return Status::error(sqlstate::kProgramLimitExceeded, "requested length too large"); }

// The longest text repeat() builds (PostgreSQL's limit on a value: 1 GB)
// and lpad()/rpad() pad to, in characters. A fuzz build keeps values to a
// megabyte: the sanitizers make linear work over a large value slower than
// the fuzzer's per-input timeout.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr double kMaxRepeatBytes = 1e6;
constexpr int64_t kMaxPadLength = 1000000;
#else
constexpr double kMaxRepeatBytes = 1e9;
constexpr int64_t kMaxPadLength = 100000000;
#endif

Result<Datum> pad(std::string_view s, int64_t len, std::string_view fill, bool left, RowArena& arena) {
  if (len <= 0) return text("");
  if (len > kMaxPadLength) return too_large();
  const int64_t have = static_cast<int64_t>(utf8_length(s));
  if (have >= len) return text(s.substr(0, byte_offset(s, len)));
  if (fill.empty()) return text(s);
  std::string out;
  int64_t need = len - have;
  std::string padding;
  size_t i = 0;
  while (need > 0) {
    const size_t n = char_len_at(fill, i);
    padding.append(fill.substr(i, n));
    i = (i + n) % fill.size();
    --need;
  }
  out = left ? padding + std::string(s) : std::string(s) + padding;
  return text(arena.push(out));
}

Result<Datum> like(std::string_view s, std::string_view p, bool ci, std::string_view escape) {
  if (escape.size() > 1) {
    return Status::error(sqlstate::kInvalidEscapeCharacter, "invalid escape string")
        .with_hint("Escape string must be empty or one character.");
  }
  Status err;
  const bool m = like_match(s, p, ci, escape.empty() ? '\0' : escape[0], !escape.empty(), &err);
  if (!err.is_ok()) return err;
  return Datum::from_bool(m);
}

}  // namespace

bool like_match(std::string_view t, std::string_view pat, bool ci, char escape, bool has_escape, Status* error) {
  size_t ti = 0, pi = 0, star_p = std::string_view::npos, star_t = 0;
  auto eq = [&](char a, char b) { return ci ? lower_ascii(a) == lower_ascii(b) : a == b; };
  while (ti < t.size()) {
    if (pi < pat.size()) {
      const char c = pat[pi];
      if (c == '%' && !(has_escape && escape == '%')) {
        star_p = ++pi;
        star_t = ti;
        continue;
      }
      if (c == '_' && !(has_escape && escape == '_')) {
        ti += char_len_at(t, ti);
        ++pi;
        continue;
      }
      size_t lit = pi;
      if (has_escape && c == escape) {
        if (pi + 1 >= pat.size()) {
          *error = Status::error(sqlstate::kInvalidEscapeSequence, "LIKE pattern must not end with escape character");
          return false;
        }
        lit = pi + 1;
      }
      const size_t n = char_len_at(pat, lit);
      bool ok = ti + n <= t.size();
      for (size_t k = 0; ok && k < n; ++k) ok = eq(t[ti + k], pat[lit + k]);
      if (ok) {
        ti += n;
        pi = lit + n;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    star_t += char_len_at(t, star_t);
    ti = star_t;
    pi = star_p;
  }
  while (pi < pat.size() && pat[pi] == '%' && !(has_escape && escape == '%')) ++pi;
  if (pi < pat.size() && has_escape && pat[pi] == escape && pi + 1 >= pat.size()) {
    *error = Status::error(sqlstate::kInvalidEscapeSequence, "LIKE pattern must not end with escape character");
  }
  return pi == pat.size();
}

Result<Datum> eval_string_unary(UnaryFunc f, const Datum& a, EvalContext& ctx) {
  switch (f) {
    case UnaryFunc::kCharLength:
      if (a.kind() == DatumKind::kBytes) return Datum::from_int32(static_cast<int32_t>(a.as_bytes().size()));
      return Datum::from_int32(static_cast<int32_t>(utf8_length(a.as_string())));
    case UnaryFunc::kOctetLength: return Datum::from_int32(static_cast<int32_t>(a.as_string().size()));
    case UnaryFunc::kLower:
    case UnaryFunc::kUpper: {
      const std::string_view s = a.as_string();
      char* p = ctx.arena.allocate(s.size());
      for (size_t i = 0; i < s.size(); ++i) p[i] = f == UnaryFunc::kLower ? lower_ascii(s[i]) : upper_ascii(s[i]);
      return text(std::string_view(p, s.size()));
    }
    case UnaryFunc::kBtrimSpaces: return text(trim_chars(a.as_string(), " ", true, true));
    case UnaryFunc::kLtrimSpaces: return text(trim_chars(a.as_string(), " ", true, false));
    case UnaryFunc::kRtrimSpaces: return text(trim_chars(a.as_string(), " ", false, true));
    case UnaryFunc::kReverse: {
      const std::string_view s = a.as_string();
      char* p = ctx.arena.allocate(s.size());
      size_t out = s.size();
      for (size_t i = 0; i < s.size();) {
        const size_t n = char_len_at(s, i);
        out -= n;
        std::memcpy(p + out, s.data() + i, n);
        i += n;
      }
      return text(std::string_view(p, s.size()));
    }
    case UnaryFunc::kAscii: {
      const std::string_view s = a.as_string();
      if (s.empty()) return Datum::from_int32(0);
      const size_t n = char_len_at(s, 0);
      const unsigned char c0 = static_cast<unsigned char>(s[0]);
      int32_t cp = n == 1 ? c0 : n == 2 ? (c0 & 0x1F) : n == 3 ? (c0 & 0x0F) : (c0 & 0x07);
      for (size_t i = 1; i < n; ++i) cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
      return Datum::from_int32(cp);
    }
    case UnaryFunc::kChr: {
      const int64_t cp = a.as_integer();
      if (cp == 0) return Status::error(sqlstate::kProgramLimitExceeded, "null character not permitted");
      if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return Status::error(sqlstate::kProgramLimitExceeded,
                             "requested character too large for encoding: " + std::to_string(cp));
      }
      char buf[4];
      size_t n;
      if (cp < 0x80) { buf[0] = static_cast<char>(cp); n = 1; }
      else if (cp < 0x800) { buf[0] = static_cast<char>(0xC0 | (cp >> 6)); buf[1] = static_cast<char>(0x80 | (cp & 0x3F)); n = 2; }
      else if (cp < 0x10000) {
        buf[0] = static_cast<char>(0xE0 | (cp >> 12)); buf[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        buf[2] = static_cast<char>(0x80 | (cp & 0x3F)); n = 3;
      } else {
        buf[0] = static_cast<char>(0xF0 | (cp >> 18)); buf[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        buf[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); buf[3] = static_cast<char>(0x80 | (cp & 0x3F)); n = 4;
      }
      return text(ctx.arena.push(std::string_view(buf, n)));
    }
    case UnaryFunc::kMd5: {
      static constexpr char kHex[] = "0123456789abcdef";
      const auto digest = md5_digest(a.as_string());
      char* p = ctx.arena.allocate(32);
      for (int i = 0; i < 16; ++i) {
        p[2 * i] = kHex[digest[i] >> 4];
        p[2 * i + 1] = kHex[digest[i] & 15];
      }
      return text(std::string_view(p, 32));
    }
    default:
      return Status::error(sqlstate::kInternalError, "unexpected string function " + std::string(func_id(f)));
  }
}

Result<Datum> eval_string_binary(BinaryFunc f, const Datum& a, const Datum& b, EvalContext& ctx) {
  switch (f) {
    case BinaryFunc::kTextConcat: return concat2(a.as_string(), b.as_string(), ctx.arena);
    case BinaryFunc::kLike: return like(a.as_string(), b.as_string(), false, "\\");
    case BinaryFunc::kILike: return like(a.as_string(), b.as_string(), true, "\\");
    case BinaryFunc::kRegexMatch: return regex_match(a.as_string(), b.as_string(), false);
    case BinaryFunc::kRegexMatchCI: return regex_match(a.as_string(), b.as_string(), true);
    case BinaryFunc::kFormatType: {
      TypeId id;
      if (!type_from_oid(static_cast<uint32_t>(a.as_integer()), &id)) return text("???");
      ColumnType type{id, b.is_null() ? -1 : static_cast<int32_t>(b.as_integer())};
      return text(ctx.arena.push(format_type(type)));
    }
    case BinaryFunc::kStrpos: {
      const std::string_view s = a.as_string(), sub = b.as_string();
      const size_t pos = s.find(sub);
      if (pos == std::string_view::npos) return Datum::from_int32(0);
      return Datum::from_int32(static_cast<int32_t>(utf8_length(s.substr(0, pos)) + 1));
    }
    case BinaryFunc::kLeft:
    case BinaryFunc::kRight: {
      const std::string_view s = a.as_string();
      const int64_t n = b.as_integer();
      const int64_t len = static_cast<int64_t>(utf8_length(s));
      int64_t keep = n >= 0 ? std::min(n, len) : std::max<int64_t>(0, len + n);
      if (f == BinaryFunc::kLeft) return text(s.substr(0, byte_offset(s, keep)));
      return text(s.substr(byte_offset(s, len - keep)));
    }
    case BinaryFunc::kRepeat: {
      const std::string_view s = a.as_string();
      const int64_t n = b.as_integer();
      if (n <= 0 || s.empty()) return text("");
      if (static_cast<double>(n) * static_cast<double>(s.size()) > kMaxRepeatBytes) return too_large();
      char* p = ctx.arena.allocate(s.size() * static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) std::memcpy(p + i * s.size(), s.data(), s.size());
      return text(std::string_view(p, s.size() * static_cast<size_t>(n)));
    }
    case BinaryFunc::kStartsWith: return Datum::from_bool(a.as_string().substr(0, b.as_string().size()) == b.as_string());
    case BinaryFunc::kBtrim: return text(trim_chars(a.as_string(), b.as_string(), true, true));
    case BinaryFunc::kLtrim: return text(trim_chars(a.as_string(), b.as_string(), true, false));
    case BinaryFunc::kRtrim: return text(trim_chars(a.as_string(), b.as_string(), false, true));
    default:
      return Status::error(sqlstate::kInternalError, "unexpected string function " + std::string(func_id(f)));
  }
}

Result<Datum> eval_string_variadic(VariadicFunc f, std::span<const Datum> args, std::span<const ColumnType> types,
                                   EvalContext& ctx) {
  switch (f) {
    case VariadicFunc::kConcat:
    case VariadicFunc::kConcatWs: {
      size_t first = 0;
      std::string_view sep;
      if (f == VariadicFunc::kConcatWs) {
        if (args.empty() || args[0].is_null()) return Datum::null();
        sep = args[0].as_string();
        first = 1;
      }
      std::string out;
      bool any = false;
      for (size_t i = first; i < args.size(); ++i) {
        if (args[i].is_null()) continue;
        if (any) out.append(sep);
        any = true;
        format_datum(args[i], types[i], &out);
      }
      return text(ctx.arena.push(out));
    }
    case VariadicFunc::kSubstr: {
      const std::string_view s = args[0].as_string();
      const int64_t start = args[1].as_integer();
      if (args.size() == 2) return text(s.substr(byte_offset(s, std::max<int64_t>(start - 1, 0))));
      const int64_t count = args[2].as_integer();
      if (count < 0) return Status::error(sqlstate::kSubstringError, "negative substring length not allowed");
      // SQL: characters from position start to start+count-1, clipped to 1..len.
      const int64_t end = start + count;  // exclusive, 1-based
      const int64_t from = std::max<int64_t>(start, 1);
      if (end <= from) return text("");
      const size_t b0 = byte_offset(s, from - 1);
      const size_t b1 = b0 + byte_offset(s.substr(b0), end - from);
      return text(s.substr(b0, b1 - b0));
    }
    case VariadicFunc::kReplace: {
      const std::string_view s = args[0].as_string(), from = args[1].as_string(), to = args[2].as_string();
      if (from.empty()) return text(s);
      std::string out;
      size_t i = 0;
      for (size_t pos; (pos = s.find(from, i)) != std::string_view::npos; i = pos + from.size()) {
        out.append(s.substr(i, pos - i));
        out.append(to);
      }
      if (i == 0) return text(s);
      out.append(s.substr(i));
      return text(ctx.arena.push(out));
    }
    case VariadicFunc::kLpad:
    case VariadicFunc::kRpad:
      return pad(args[0].as_string(), args[1].as_integer(), args.size() > 2 ? args[2].as_string() : " ",
                 f == VariadicFunc::kLpad, ctx.arena);
    case VariadicFunc::kSplitPart: {
      const std::string_view s = args[0].as_string(), delim = args[1].as_string();
      const int64_t n = args[2].as_integer();
      if (n == 0) return Status::error(sqlstate::kInvalidParameterValue, "field position must not be zero");
      std::vector<std::string_view> parts;
      if (delim.empty()) {
        parts.push_back(s);
      } else {
        size_t i = 0;
        for (size_t pos; (pos = s.find(delim, i)) != std::string_view::npos; i = pos + delim.size()) {
          parts.push_back(s.substr(i, pos - i));
        }
        parts.push_back(s.substr(i));
      }
      if (s.empty()) return text("");
      const int64_t k = n > 0 ? n - 1 : static_cast<int64_t>(parts.size()) + n;
      if (k < 0 || k >= static_cast<int64_t>(parts.size())) return text("");
      return text(parts[static_cast<size_t>(k)]);
    }
    case VariadicFunc::kLikeEscape:
    case VariadicFunc::kILikeEscape:
      return like(args[0].as_string(), args[1].as_string(), f == VariadicFunc::kILikeEscape, args[2].as_string());
    default:
      return Status::error(sqlstate::kInternalError, "unexpected variadic function " + std::string(func_id(f)));
  }
}

}  // namespace tandem::detail
