#include "planner/parser/lexer.hpp"

#include <cctype>
#include <string>

#include "common/sqlstate.hpp"

namespace tandem::sql {
namespace {

bool is_ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
bool is_ident_cont(unsigned char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9') || c == '$';
}
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_op_char(unsigned char c) {
  switch (c) {
    case '+': case '-': case '*': case '/': case '<': case '>': case '=': case '~':
    case '!': case '@': case '#': case '%': case '^': case '&': case '|': case '`':
    case '?':
      return true;
    default:
      return false;
  }
}
// Characters that allow a multi-character operator to end in + or -.
bool is_op_special(unsigned char c) {
  switch (c) {
    case '~': case '!': case '@': case '#': case '%': case '^': case '&': case '|':
    case '`': case '?':
      return true;
    default:
      return false;
  }
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

int hex_value(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : s_(text) {}

  Result<std::vector<Token>> run() {
    // PostgreSQL never sees a NUL byte in a statement (a query string is a
    // C string); tandem's HTTP API can send one, and a text value must not
    // hold one.
    if (size_t nul = s_.find('\0'); nul != std::string_view::npos) return nul_error(nul);
    std::vector<Token> out;
    out.reserve(s_.size() / 4 + 2);
    while (true) {
      TANDEM_RETURN_IF_ERROR(skip_space_and_comments());
      if (i_ >= s_.size()) break;
      Token t;
      t.offset = static_cast<uint32_t>(i_);
      TANDEM_RETURN_IF_ERROR(next(t));
      t.length = static_cast<uint32_t>(i_ - t.offset);
      out.push_back(std::move(t));
    }
    Token eof;
    eof.kind = TokenKind::kEof;
    eof.offset = static_cast<uint32_t>(s_.size());
    out.push_back(std::move(eof));
    return out;
  }

 private:
  Status error(const char* what, size_t at) const {
    std::string near(s_.substr(at));
    return Status::error(sqlstate::kSyntaxError, std::string(what) + " at or near \"" + near + "\"")
        .with_position(char_position(s_, static_cast<uint32_t>(at)));
  }

  // PostgreSQL's error for a NUL byte in text (pg_verifymbstr's).
  Status nul_error(size_t at) const {
    return Status::error(sqlstate::kCharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": 0x00")
        .with_position(char_position(s_, static_cast<uint32_t>(at)));
  }

  Status skip_space_and_comments() {
    while (i_ < s_.size()) {
      unsigned char c = s_[i_];
      if (is_space(c)) {
        ++i_;
      } else if (c == '-' && i_ + 1 < s_.size() && s_[i_ + 1] == '-') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '*') {
        size_t start = i_;
        int depth = 0;
        while (true) {
          if (i_ + 1 >= s_.size()) return error("unterminated /* comment", start);
          if (s_[i_] == '/' && s_[i_ + 1] == '*') {
            ++depth;
            i_ += 2;
          } else if (s_[i_] == '*' && s_[i_ + 1] == '/') {
            i_ += 2;
            if (--depth == 0) break;
          } else {
            ++i_;
          }
        }
      } else {
        break;
      }
    }
    return Status::ok();
  }

  // After a closing quote: if only whitespace with a newline separates it
  // from another quote, consume up to and including that quote.
  bool string_continues() {
    size_t j = i_;
    bool newline = false;
    while (j < s_.size() && is_space(s_[j])) {
      if (s_[j] == '\n' || s_[j] == '\r') newline = true;
      ++j;
    }
    if (newline && j < s_.size() && s_[j] == '\'') {
      i_ = j + 1;
      return true;
    }
    return false;
  }

  Status next(Token& t) {
    unsigned char c = s_[i_];
    size_t start = i_;
    if ((c == 'e' || c == 'E') && i_ + 1 < s_.size() && s_[i_ + 1] == '\'') {
      i_ += 2;
      t.kind = TokenKind::kString;
      return lex_escape_string(t, start);
    }
    if ((c == 'u' || c == 'U') && i_ + 2 < s_.size() && s_[i_ + 1] == '&' && s_[i_ + 2] == '\'') {
      i_ += 3;  // U&'...': a string with Unicode escapes
      t.kind = TokenKind::kString;
      return lex_unicode_string(t, start);
    }
    if ((c == 'n' || c == 'N') && i_ + 1 < s_.size() && s_[i_ + 1] == '\'') {
      i_ += 2;  // N'...': national character literal, same as a plain string
      t.kind = TokenKind::kString;
      return lex_plain_string(t, start);
    }
    if (is_ident_start(c)) {
      t.kind = TokenKind::kWord;
      while (i_ < s_.size() && is_ident_cont(s_[i_])) {
        char ch = s_[i_++];
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
        t.text += ch;
      }
      return Status::ok();
    }
    if (is_digit(c) || (c == '.' && i_ + 1 < s_.size() && is_digit(s_[i_ + 1]))) {
      t.kind = TokenKind::kNumber;
      while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
      if (i_ < s_.size() && s_[i_] == '.' && !(i_ + 1 < s_.size() && s_[i_ + 1] == '.')) {
        ++i_;
        while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
      }
      if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
        size_t j = i_ + 1;
        if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
        if (j < s_.size() && is_digit(s_[j])) {
          i_ = j;
          while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
        }
      }
      t.text = std::string(s_.substr(start, i_ - start));
      return Status::ok();
    }
    switch (c) {
      case '\'':
        ++i_;
        t.kind = TokenKind::kString;
        return lex_plain_string(t, start);
      case '"':
        return lex_quoted_ident(t, start);
      case '$':
        return lex_dollar(t, start);
      case '(': case ')': case '[': case ']': case ',': case ';':
        t.kind = TokenKind::kOp;
        t.text = std::string(1, static_cast<char>(c));
        ++i_;
        return Status::ok();
      case '.':
        t.kind = TokenKind::kOp;
        if (i_ + 1 < s_.size() && s_[i_ + 1] == '.') {
          t.text.append(2, '.');
          i_ += 2;
        } else {
          t.text.push_back('.');
          ++i_;
        }
        return Status::ok();
      case ':':
        t.kind = TokenKind::kOp;
        if (i_ + 1 < s_.size() && (s_[i_ + 1] == ':' || s_[i_ + 1] == '=')) {
          t.text = std::string(s_.substr(i_, 2));
          i_ += 2;
        } else {
          t.text.push_back(':');
          ++i_;
        }
        return Status::ok();
      default:
        break;
    }
    if (is_op_char(c)) return lex_operator(t);
    // Any other byte (a control character, { } \) starts no token:
    // PostgreSQL's grammar rejects it as a one-character token. Handed to
    // the parser it would read as an operator.
    return Status::error(sqlstate::kSyntaxError,
                         "syntax error at or near \"" + std::string(1, static_cast<char>(c)) + "\"")
        .with_position(char_position(s_, static_cast<uint32_t>(start)));
  }

  Status lex_operator(Token& t) {
    size_t start = i_;
    size_t end = i_;
    while (end < s_.size() && is_op_char(s_[end])) {
      // A comment start ends the operator.
      if (end > start && end + 1 < s_.size() &&
          ((s_[end] == '-' && s_[end + 1] == '-') || (s_[end] == '/' && s_[end + 1] == '*'))) {
        break;
      }
      ++end;
    }
    size_t len = end - start;
    if (len > 1) {
      bool special = false;
      for (size_t k = start; k < end; ++k) special |= is_op_special(s_[k]);
      if (!special) {
        while (len > 1 && (s_[start + len - 1] == '+' || s_[start + len - 1] == '-')) --len;
      }
    }
    i_ = start + len;
    t.kind = TokenKind::kOp;
    t.text = std::string(s_.substr(start, len));
    if (t.text == "!=") t.text = "<>";
    return Status::ok();
  }

  Status lex_plain_string(Token& t, size_t start) {
    while (true) {
      if (i_ >= s_.size()) return error("unterminated quoted string", start);
      char ch = s_[i_++];
      if (ch == '\'') {
        if (i_ < s_.size() && s_[i_] == '\'') {
          t.text += '\'';
          ++i_;
        } else if (!string_continues()) {
          return Status::ok();
        }
      } else {
        t.text += ch;
      }
    }
  }

  // U&'...' [UESCAPE 'c']: the body as a plain string, then the escapes
  // cXXXX and c+XXXXXX (code points) and cc (the escape character itself),
  // with c = '\\' unless UESCAPE names another.
  Status lex_unicode_string(Token& t, size_t start) {
    std::string raw;
    {
      Token body;
      TANDEM_RETURN_IF_ERROR(lex_plain_string(body, start));
      raw = std::move(body.text);
    }
    char escape = '\\';
    size_t after = i_;
    size_t j = i_;
    while (j < s_.size() && std::isspace(static_cast<unsigned char>(s_[j]))) ++j;
    if (s_.size() - j >= 7 && (s_.substr(j, 7) == "UESCAPE" || s_.substr(j, 7) == "uescape")) {
      size_t k = j + 7;
      while (k < s_.size() && std::isspace(static_cast<unsigned char>(s_[k]))) ++k;
      if (k + 2 < s_.size() && s_[k] == '\'' && s_[k + 2] == '\'') {
        escape = s_[k + 1];
        after = k + 3;
      } else {
        return error("invalid Unicode escape character", k);
      }
    }
    i_ = after;
    for (size_t n = 0; n < raw.size();) {
      if (raw[n] != escape) {
        t.text += raw[n++];
        continue;
      }
      if (n + 1 < raw.size() && raw[n + 1] == escape) {
        t.text += escape;
        n += 2;
        continue;
      }
      const bool plus = n + 1 < raw.size() && raw[n + 1] == '+';
      const size_t digits = plus ? 6 : 4;
      const size_t first = n + (plus ? 2 : 1);
      uint32_t v = 0;
      for (size_t d = 0; d < digits; ++d) {
        if (first + d >= raw.size() || hex_value(raw[first + d]) < 0) {
          return Status::error(sqlstate::kInvalidEscapeSequence, "invalid Unicode escape")
              .with_hint("Unicode escapes must be \\XXXX or \\+XXXXXX.")
              .with_position(char_position(s_, static_cast<uint32_t>(start)));
        }
        v = v * 16 + static_cast<uint32_t>(hex_value(raw[first + d]));
      }
      if (v == 0 || v > 0x10FFFF) {
        return Status::error(sqlstate::kInvalidEscapeSequence, "invalid Unicode escape value")
            .with_position(char_position(s_, static_cast<uint32_t>(start)));
      }
      append_utf8(t.text, v);
      n = first + digits;
    }
    return Status::ok();
  }

  Status lex_escape_string(Token& t, size_t start) {
    while (true) {
      if (i_ >= s_.size()) return error("unterminated quoted string", start);
      char ch = s_[i_++];
      if (ch == '\'') {
        if (i_ < s_.size() && s_[i_] == '\'') {
          t.text += '\'';
          ++i_;
        } else if (!string_continues()) {
          return Status::ok();
        }
        continue;
      }
      if (ch != '\\') {
        t.text += ch;
        continue;
      }
      if (i_ >= s_.size()) return error("unterminated quoted string", start);
      char e = s_[i_++];
      switch (e) {
        case 'b': t.text += '\b'; break;
        case 'f': t.text += '\f'; break;
        case 'n': t.text += '\n'; break;
        case 'r': t.text += '\r'; break;
        case 't': t.text += '\t'; break;
        case 'x': {
          int v = 0, n = 0;
          while (n < 2 && i_ < s_.size() && hex_value(s_[i_]) >= 0) v = v * 16 + hex_value(s_[i_++]), ++n;
          if (n > 0 && v == 0) return nul_error(start);
          if (n == 0) t.text += 'x'; else t.text += static_cast<char>(v);
          break;
        }
        case 'u': case 'U': {
          int want = e == 'u' ? 4 : 8;
          uint32_t v = 0;
          for (int n = 0; n < want; ++n) {
            if (i_ >= s_.size() || hex_value(s_[i_]) < 0) {
              return Status::error(sqlstate::kInvalidEscapeSequence, "invalid Unicode escape")
                  .with_hint("Unicode escapes must be \\uXXXX or \\UXXXXXXXX.")
                  .with_position(char_position(s_, static_cast<uint32_t>(i_)));
            }
            v = v * 16 + static_cast<uint32_t>(hex_value(s_[i_++]));
          }
          if (v == 0 || v > 0x10FFFF) {
            return Status::error(sqlstate::kInvalidEscapeSequence, "invalid Unicode escape value")
                .with_position(char_position(s_, static_cast<uint32_t>(i_)));
          }
          append_utf8(t.text, v);
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            int v = e - '0', n = 1;
            while (n < 3 && i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '7') v = v * 8 + (s_[i_++] - '0'), ++n;
            if ((v & 0xFF) == 0) return nul_error(start);
            t.text += static_cast<char>(v & 0xFF);
          } else {
            t.text += e;
          }
      }
    }
  }

  Status lex_quoted_ident(Token& t, size_t start) {
    ++i_;
    t.kind = TokenKind::kQuotedIdent;
    while (true) {
      if (i_ >= s_.size()) return error("unterminated quoted identifier", start);
      char ch = s_[i_++];
      if (ch == '"') {
        if (i_ < s_.size() && s_[i_] == '"') {
          t.text += '"';
          ++i_;
        } else {
          break;
        }
      } else {
        t.text += ch;
      }
    }
    if (t.text.empty()) {
      return Status::error(sqlstate::kSyntaxError, "zero-length delimited identifier at or near \"\"\"\"")
          .with_position(char_position(s_, static_cast<uint32_t>(start)));
    }
    return Status::ok();
  }

  Status lex_dollar(Token& t, size_t start) {
    size_t j = i_ + 1;
    if (j < s_.size() && is_digit(s_[j])) {
      while (j < s_.size() && is_digit(s_[j])) ++j;
      t.kind = TokenKind::kParam;
      t.text = std::string(s_.substr(i_ + 1, j - i_ - 1));
      i_ = j;
      return Status::ok();
    }
    // $tag$: the tag is an identifier without '$'.
    if (j < s_.size() && is_ident_start(s_[j])) {
      while (j < s_.size() && is_ident_cont(s_[j]) && s_[j] != '$') ++j;
    }
    if (j >= s_.size() || s_[j] != '$') {
      t.kind = TokenKind::kOp;
      t.text.push_back('$');
      ++i_;
      return Status::ok();
    }
    std::string_view delim = s_.substr(i_, j + 1 - i_);
    size_t body = j + 1;
    size_t close = s_.find(delim, body);
    if (close == std::string_view::npos) return error("unterminated dollar-quoted string", start);
    t.kind = TokenKind::kString;
    t.text = std::string(s_.substr(body, close - body));
    i_ = close + delim.size();
    return Status::ok();
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

Result<std::vector<Token>> lex(std::string_view text) { return Lexer(text).run(); }

int char_position(std::string_view text, uint32_t byte_offset) {
  int pos = 1;
  size_t end = byte_offset < text.size() ? byte_offset : text.size();
  for (size_t i = 0; i < end; ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++pos;
  }
  return pos;
}

}  // namespace tandem::sql
