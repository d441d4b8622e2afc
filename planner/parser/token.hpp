#pragma once
// Token: the unit the lexer produces and the parser consumes.
//
// `text` is normalized: unquoted words are folded to lower case (ASCII only,
// as PostgreSQL does), quoted identifiers and string literals hold their
// unescaped value, numbers keep their source spelling (the binder decides
// int4/int8/numeric), operators are spelled canonically (`!=` becomes `<>`).
// `offset`/`length` locate the token's source bytes, used for error messages
// (`syntax error at or near "<source text>"`) and positions.

#include <cstdint>
#include <string>

namespace tandem::sql {

enum class TokenKind : uint8_t {
  kWord,         // unquoted identifier or keyword, lower-cased
  kQuotedIdent,  // "Quoted" identifier, exact text
  kString,       // '...', E'...', $$...$$ literal, unescaped
  kNumber,       // 1, 1.5, .5, 1e10 (source text)
  kParam,        // $1 (text = the digits)
  kOp,           // operators and punctuation: ( ) [ ] , ; . : :: + <> ->> ...
  kEof,
};

struct Token {
  TokenKind kind = TokenKind::kEof;
  std::string text;
  uint32_t offset = 0;  // byte offset of the first source byte
  uint32_t length = 0;  // number of source bytes

  bool is_word(const char* w) const { return kind == TokenKind::kWord && text == w; }
  bool is_op(const char* o) const { return kind == TokenKind::kOp && text == o; }
};

}  // namespace tandem::sql
