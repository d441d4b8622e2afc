#pragma once
// Whether a function name is one of PostgreSQL 15's built-in functions
// (pg_builtin_functions.cpp says which): a call tandem cannot resolve by
// name is then a feature not supported yet, else an undefined function.
// Threading: pure.

#include <string_view>

namespace tandem {

bool is_postgres_builtin_function(std::string_view name);

}  // namespace tandem
