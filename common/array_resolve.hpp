#pragma once
// Internal to common/: the array cases of operator and function resolution
// (common/func_resolve.cpp asks these first). nullopt = not an array
// operator/function; `args` are consumed only when a result is returned.
// Threading: pure functions.

#include <optional>
#include <string_view>
#include <vector>

#include "common/scalar_expr.hpp"
#include "common/status.hpp"

namespace tandem {

std::optional<Result<ScalarExpr>> resolve_array_operator(std::string_view op, std::vector<ScalarExpr>& args);
std::optional<Result<ScalarExpr>> resolve_array_function(std::string_view name, std::vector<ScalarExpr>& args);

}  // namespace tandem
