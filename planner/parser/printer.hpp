#pragma once
// The SQL printer: AST -> canonical SQL text.
//
// Contract: for every AST the parser produces, parse(print(ast)) == ast
// (positions aside; see box.hpp). The output is canonical rather than
// pretty: keywords are upper case, every compound expression is wrapped in
// parentheses (so precedence never needs reconstructing), identifiers are
// quoted when they would not read back as themselves (keywords, upper-case
// or special characters), strings are re-escaped, desugared special forms
// print as the calls they became (`extract('year', x)`), and CAST is always
// spelled CAST(x AS t). FETCH FIRST prints as LIMIT, TABLE t as
// SELECT * FROM t. Hand-built trees the parser cannot produce (e.g. a
// UNION as the right operand of a UNION) print with parentheses and so read
// back as the equivalent parenthesized form.
// Threading: pure functions.

#include <string>
#include <string_view>

#include "planner/parser/ast.hpp"

namespace tandem::sql {

std::string print(const Statement& stmt);
std::string print(const Query& query);
std::string print(const Expr& expr);
std::string print(const TypeName& type);

// "Foo" -> "\"Foo\"", foo -> foo, select -> "\"select\"".
std::string quote_ident(std::string_view ident);
// a'b -> 'a''b' (standard_conforming_strings: backslashes are literal).
std::string quote_string(std::string_view s);

}  // namespace tandem::sql
