#pragma once
// Internal to common/: the json/jsonb functions whose arguments are of any
// type (to_jsonb, to_json, jsonb_build_object/array, json_build_object/
// array), asked by common/func_resolve.cpp before the catalog. nullopt =
// not one of them; `args` are consumed only when a result is returned.
// Threading: pure functions.

#include <optional>
#include <string_view>
#include <vector>

#include "common/scalar_expr.hpp"
#include "common/status.hpp"

namespace tandem {

std::optional<Result<ScalarExpr>> resolve_json_function(std::string_view name, std::vector<ScalarExpr>& args);

}  // namespace tandem
