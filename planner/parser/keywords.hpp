#pragma once
// Keyword classes of the Materialize/PostgreSQL grammar. Keywords are plain
// words (token.hpp); these predicates say where a word may NOT be used as an
// unquoted identifier. All take lower-case words.
// Threading: pure functions over immutable tables.

#include <string_view>

namespace tandem::sql {

// PostgreSQL's fully reserved keywords (SELECT, FROM, WHERE, ...): never a
// column, table or function name unless quoted.
bool is_reserved_keyword(std::string_view word);

// PostgreSQL's type_func_name keywords (LEFT, JOIN, LIKE, IS, ...): usable as
// function names (`left(s, 2)`) but not as column or table names.
bool is_type_func_keyword(std::string_view word);

// True when `word` cannot be an unquoted column reference or object name.
inline bool is_reserved_for_name(std::string_view word) {
  return is_reserved_keyword(word) || is_type_func_keyword(word);
}

// True when `word` cannot be a table alias written without AS (`FROM t x`):
// the reserved words plus words that may follow a table reference
// (SET in UPDATE, VALUES in INSERT, OF in AS OF).
bool is_reserved_for_table_alias(std::string_view word);

// True when `word` cannot be a column alias written without AS.
bool is_reserved_for_column_alias(std::string_view word);

// True when the printer must quote `ident` to read it back as the same
// identifier: it is not [a-z_][a-z0-9_$]* or it is any keyword the parser
// treats specially somewhere.
bool ident_needs_quotes(std::string_view ident);

// Self-check of the keyword tables (they must be sorted); for tests.
bool keyword_tables_sorted();

}  // namespace tandem::sql
