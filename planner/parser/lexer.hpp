#pragma once
// The SQL lexer: text -> tokens, following PostgreSQL's scan.l rules.
//
//  * words: [A-Za-z_\x80-\xff][A-Za-z0-9_$\x80-\xff]*, folded to lower case;
//    keywords are words (the parser decides what is reserved where);
//  * "quoted" identifiers keep their exact text, "" is an escaped quote;
//  * '...' strings with '' escapes; E'...' strings with backslash escapes;
//    a string followed by whitespace containing a newline and another
//    string continues it (SQL's adjacent-literal concatenation);
//  * $$...$$ and $tag$...$tag$ dollar quoting; $1 parameters;
//  * numbers 1, 1.5, .5, 1e10, 1.5E-3 (kept as source text);
//  * operators: maximal runs of + - * / < > = ~ ! @ # % ^ & | ` ?, cut
//    before -- or /*, and, like PostgreSQL, a multi-character operator does
//    not end in + or - unless it contains one of ~ ! @ # % ^ & | ` ?
//    (so `a=-1` is `=` `-` `1`); `!=` is normalized to `<>`;
//  * -- line comments and nested /* */ comments are skipped.
//
// A NUL byte, in the text or from an E'\000' or E'\x00' escape, is 22021
// "invalid byte sequence for encoding "UTF8": 0x00", as PostgreSQL answers
// the escapes. Other errors are 42601 Statuses with PostgreSQL's messages ("unterminated quoted
// string at or near ...") and a 1-based character position. The returned
// vector always ends with one kEof token whose offset is text.size().
// Threading: pure function.

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "planner/parser/token.hpp"

namespace tandem::sql {

Result<std::vector<Token>> lex(std::string_view text);

// 1-based character (not byte) position of `byte_offset` in UTF-8 `text`,
// as PostgreSQL reports in ErrorResponse 'P' fields.
int char_position(std::string_view text, uint32_t byte_offset);

}  // namespace tandem::sql
