#include "planner/parser/keywords.hpp"

#include <algorithm>
#include <array>
#include <iterator>

namespace tandem::sql {
namespace {

// Sorted lists (checked by keywords_test.cpp) searched by binary search.
constexpr std::string_view kReserved[] = {
    "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "both",
    "case", "cast", "check", "collate", "column", "constraint", "create", "current_catalog",
    "current_date", "current_role", "current_time", "current_timestamp", "current_user",
    "default", "deferrable", "desc", "distinct", "do", "else", "end", "except", "false",
    "fetch", "for", "foreign", "from", "grant", "group", "having", "in", "initially",
    "intersect", "into", "lateral", "leading", "limit", "localtime", "localtimestamp", "not",
    "null", "offset", "on", "only", "or", "order", "placing", "primary", "references",
    "returning", "select", "session_user", "some", "symmetric", "table", "then", "to",
    "trailing", "true", "union", "unique", "user", "using", "variadic", "when", "where",
    "window", "with",
};

constexpr std::string_view kTypeFunc[] = {
    "authorization", "binary", "collation", "concurrently", "cross", "current_schema",
    "freeze", "full", "ilike", "inner", "is", "isnull", "join", "left", "like", "natural",
    "notnull", "outer", "overlaps", "right", "similar", "tablesample", "verbose",
};

// Words that may follow a table reference in some statement.
constexpr std::string_view kTableAliasExtra[] = {"of", "set", "values"};

// Words with a special meaning inside expressions or after a select item,
// quoted by the printer to stay unambiguous (PostgreSQL's col_name keywords
// plus a few Materialize/expression words).
constexpr std::string_view kOtherKeywords[] = {
    "at", "between", "bigint", "bit", "boolean", "char", "character", "coalesce", "dec",
    "decimal", "double", "escape", "exists", "extract", "filter", "float", "greatest",
    "grouping", "int", "integer", "interval", "least", "national", "nchar", "none",
    "normalize", "nullif", "numeric", "of", "over", "overlay", "position", "precision",
    "real", "row", "set", "setof", "smallint", "substring", "time", "timestamp", "treat",
    "trim", "values", "varchar", "zone",
};

template <size_t N>
bool contains(const std::string_view (&list)[N], std::string_view w) {
  return std::binary_search(std::begin(list), std::end(list), w);
}

}  // namespace

bool is_reserved_keyword(std::string_view word) { return contains(kReserved, word); }
bool is_type_func_keyword(std::string_view word) { return contains(kTypeFunc, word); }

bool is_reserved_for_table_alias(std::string_view word) {
  return is_reserved_for_name(word) || contains(kTableAliasExtra, word);
}

bool is_reserved_for_column_alias(std::string_view word) {
  return is_reserved_for_name(word) || word == "of";
}

bool ident_needs_quotes(std::string_view ident) {
  if (ident.empty()) return true;
  char c0 = ident[0];
  if (!((c0 >= 'a' && c0 <= 'z') || c0 == '_')) return true;
  for (char c : ident) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '$')) return true;
  }
  return is_reserved_for_name(ident) || contains(kOtherKeywords, ident);
}

// Exposed for keywords_test.cpp.
bool keyword_tables_sorted() {
  auto sorted = [](const auto& list) { return std::is_sorted(std::begin(list), std::end(list)); };
  return sorted(kReserved) && sorted(kTypeFunc) && sorted(kTableAliasExtra) &&
         sorted(kOtherKeywords);
}

}  // namespace tandem::sql
