// Binding of the json/jsonb functions that take arguments of any type
// (PostgreSQL's "any"/anyelement parameters). See common/jsonb_resolve.hpp.
#include "common/jsonb_resolve.hpp"

#include "common/func_resolve.hpp"
#include "common/sqlstate.hpp"

namespace tandem {

std::optional<Result<ScalarExpr>> resolve_json_function(std::string_view name, std::vector<ScalarExpr>& args) {
  const bool to_one = name == "to_jsonb" || name == "to_json";
  const bool build = name == "jsonb_build_object" || name == "jsonb_build_array" || name == "json_build_object" ||
                     name == "json_build_array";
  if (!to_one && !build) return std::nullopt;
  if (to_one && args.size() != 1) return std::nullopt;
  // Untyped literals are text, as PostgreSQL resolves "any".
  for (auto& a : args) {
    if (a.type().id != TypeId::kUnknown) continue;
    auto cast = make_cast(std::move(a), ColumnType{TypeId::kText}, CastContext::kImplicit);
    if (!cast.ok()) return Result<ScalarExpr>(cast.status());
    a = std::move(*cast);
  }
  const bool jsonb = name.starts_with("jsonb") || name == "to_jsonb";
  const TypeId result = jsonb ? TypeId::kJsonb : TypeId::kJson;
  if (to_one) {
    const ColumnType out{result, -1, args[0].type().nullable};
    return Result<ScalarExpr>(
        ScalarExpr::unary(jsonb ? UnaryFunc::kToJsonb : UnaryFunc::kToJson, std::move(args[0]), out));
  }
  VariadicFunc f;
  if (name == "jsonb_build_object") f = VariadicFunc::kJsonbBuildObject;
  else if (name == "jsonb_build_array") f = VariadicFunc::kJsonbBuildArray;
  else if (name == "json_build_object") f = VariadicFunc::kJsonBuildObject;
  else f = VariadicFunc::kJsonBuildArray;
  return Result<ScalarExpr>(ScalarExpr::variadic(f, std::move(args), ColumnType{result, -1, false}));
}

}  // namespace tandem
