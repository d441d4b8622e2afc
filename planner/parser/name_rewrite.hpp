#pragma once
// Rewriting the catalog object names a query refers to.
//
// A view's create_sql is stored as text and re-planned at boot and on every
// read that inlines it, so the names in it must keep meaning the same objects:
// at CREATE VIEW every reference is qualified fully (database.schema.item,
// resolved with the creating session's search_path), and ALTER ... RENAME
// rewrites the references of the items that name the renamed one. Both are
// one walk over the AST that visits every *catalog object reference* of a
// query and lets the caller replace it.
//
// What is a catalog object reference: a table name in FROM (also inside
// joins, derived tables, LATERAL subqueries, CTE bodies, and subqueries in
// any expression: IN/EXISTS/scalar/ARRAY/ANY/ALL), unless it is a one-part
// name that a CTE in scope defines, as the binder resolves it: a query's CTEs
// are visible in its body, in every subquery nested in it, and in the CTEs
// that follow them in the same WITH (with WITH RECURSIVE, in all of them).
// Function and type names are not catalog objects here.
//
// Column qualifiers: an unaliased `FROM t` gives its columns the qualifier
// `t`, the last part of the name. When a mapper changes that last part (a
// rename), the walk keeps what the query binds to by adding `AS t` to the
// reference if a column reference or `t.*` that could see it (in the same
// SELECT, its ORDER BY, or a subquery nested in that SELECT) uses `t` as its
// table qualifier. References nothing qualifies by `t` get no alias.
//
// Threading: pure functions.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "planner/parser/ast.hpp"

namespace tandem::sql {

// Given the parts of a catalog object reference as written ({item},
// {schema, item} or {database, schema, item}), returns the parts to write
// instead, or nullopt to leave the reference as it is.
using ObjectNameMapper =
    std::function<std::optional<std::vector<std::string>>(const std::vector<std::string>& parts)>;

// Rewrites every catalog object reference in `query` through `map`, in
// source order. Returns the number of references replaced.
size_t rewrite_object_names(Query& query, const ObjectNameMapper& map);

// The catalog object references of `query` as written, in source order (the
// names `rewrite_object_names` would offer to a mapper).
std::vector<std::vector<std::string>> object_references(const Query& query);

}  // namespace tandem::sql
