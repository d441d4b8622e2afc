#pragma once
// Catalog functions: the PostgreSQL functions clients such as psql call on
// catalog rows (pg_table_is_visible, pg_get_userbyid, obj_description,
// col_description, pg_get_indexdef, pg_get_constraintdef, pg_get_viewdef, pg_get_expr,
// pg_encoding_to_char, pg_type_is_visible) and the reg* casts, defined as
// SQL over the builtin catalog relations, the way Materialize defines them
// (`sql_impl` functions). The query binder expands a call into its
// definition with the arguments substituted and binds that, so a call reads
// the same catalog snapshot as the rest of the statement and is planned like
// any subquery (which is why they are not available where subqueries are
// not, e.g. in JOIN ... ON).
//
// reg* casts: a string literal cast to regclass / regtype is resolved while
// binding, to the object's OID (42P01 / 42704 when it does not exist); to
// regnamespace, looked up in pg_namespace (NULL when absent); any other expression cast to one of them yields the
// object's name as text (PostgreSQL's output form of a reg* value).
// COLLATE accepts the collations tandem's text comparison implements:
// "default", "C" and "POSIX".
// Threading: pure functions.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "planner/parser/ast.hpp"

namespace tandem::planner {

// The definition of catalog function `name` (unqualified or pg_catalog.)
// called with `nargs` arguments, an SQL expression over $1..$n, or nullopt
// when `name` is not a catalog function with that many arguments.
std::optional<std::string> catalog_function_sql(const std::vector<std::string>& name, size_t nargs);

// The definition of `expr::<type>` for a reg* type applied to a non-literal
// expression (over $1), or nullopt when `type` is not a reg* type.
std::optional<std::string> reg_cast_sql(const sql::TypeName& type);

// The definition of `$n::<type>` for a reg* type applied to a parameter:
// the OID of the object the bound text names (NULL when none), or nullopt
// when `type` is not a reg* type.
std::optional<std::string> reg_lookup_sql(const sql::TypeName& type);

// "regclass", "regnamespace" or "regtype" for those type names (optionally
// pg_catalog-qualified), else "".
std::string reg_type_name(const sql::TypeName& type);

// Substitutes $1..$n in `definition` by the parenthesised arguments and
// parses the result.
Result<sql::Expr> expand_definition(std::string_view definition, const std::vector<const sql::Expr*>& args);

// True for the collations COLLATE accepts (see above).
bool is_supported_collation(const std::vector<std::string>& collation);

}  // namespace tandem::planner
