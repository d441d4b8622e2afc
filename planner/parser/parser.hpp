#pragma once
// The SQL parser's public face: text -> AST (planner/parser/ast.hpp).
//
// A hand-written recursive-descent parser for Materialize's dialect of SQL
// (PostgreSQL's grammar plus CREATE MATERIALIZED VIEW / INDEX / CLUSTER,
// SUBSCRIBE, EXPLAIN ... PLAN, SHOW <objects>, AS OF, ...).
//
// Errors: a lexical or syntax error is a Status with SQLSTATE 42601, the
// message PostgreSQL would give (`syntax error at or near "FROM"`,
// `syntax error at end of input`, `unterminated quoted string at or near
// ...`) and the 1-based character position of the offending token in the
// text that was passed in. Statements recognised by their leading keywords
// but not supported are not errors: they parse to Unsupported{what}.
// Input nested so deeply that parsing would use more than 1 MB of stack is
// rejected with 54000 ("statement is too deeply nested"); call the parser on
// a thread with at least 2 MB of stack (std::thread's default is 8 MB).
//
// Positions: every SourcePos in the returned AST is a byte offset into the
// `sql` argument (for parse_statements: the whole multi-statement string).
//
// Threading: pure functions; safe to call from any thread concurrently.

#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "planner/parser/ast.hpp"

namespace tandem::sql {

// Splits `sql` on top-level `;` (quotes, comments and dollar quotes are
// respected by the lexer) and parses every statement. Empty statements
// (`;;`, whitespace, comments only) are skipped, so an empty input yields an
// empty vector. Fails on the first erroneous statement (PostgreSQL rejects a
// simple-query string as a whole).
Result<std::vector<ParsedStatement>> parse_statements(std::string_view sql);

// Exactly one statement (a trailing `;` is allowed). Zero statements is
// `syntax error at end of input`; several is 42601 "cannot insert multiple
// commands into a prepared statement", as PostgreSQL answers a Parse message.
Result<Statement> parse_one(std::string_view sql);

// A single expression / query / type name filling the whole input; for
// tests, defaults and tools.
Result<Expr> parse_expression(std::string_view sql);
Result<Query> parse_query(std::string_view sql);
Result<TypeName> parse_type(std::string_view sql);

}  // namespace tandem::sql
