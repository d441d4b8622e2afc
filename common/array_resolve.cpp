// Binding of the array constructs and functions (PostgreSQL's anyarray /
// anycompatible resolution for one-dimensional arrays): ARRAY[...],
// subscripts, op ANY|ALL (array), || between arrays and elements, and
// array_to_string, array_upper, array_lower, array_length, cardinality,
// array_cat, array_append, array_prepend, string_to_array.
#include "common/array_resolve.hpp"

#include "common/func_resolve.hpp"
#include "common/sqlstate.hpp"

namespace tandem {
namespace {

using T = TypeId;

Status not_array(const ScalarExpr& e, std::string_view what) {
  return Status::error(sqlstate::kDatatypeMismatch, std::string(what) + " requires an array, not type " +
                                                        std::string(type_name(e.type().id)));
}

Result<ScalarExpr> coerce(ScalarExpr e, TypeId to, CastContext context = CastContext::kImplicit) {
  return make_cast(std::move(e), ColumnType{to}, context);  // keeps e's nullability
}

// The common array type of two array-or-unknown operands.
Result<TypeId> common_array(const ScalarExpr& a, const ScalarExpr& b, std::string_view context) {
  const ColumnType types[] = {a.type(), b.type()};
  TANDEM_ASSIGN_OR_RETURN(ColumnType t, unify_types(types, context));
  if (!is_array_type(t.id)) return not_array(a, context);
  return t.id;
}

Result<ScalarExpr> resolve_concat(std::vector<ScalarExpr>& args) {
  ScalarExpr& a = args[0];
  ScalarExpr& b = args[1];
  const bool a_array = is_array_type(a.type().id) || (a.type().id == T::kUnknown && is_array_type(b.type().id));
  const bool b_array = is_array_type(b.type().id) || (b.type().id == T::kUnknown && is_array_type(a.type().id));
  if (a_array && b_array) {
    TANDEM_ASSIGN_OR_RETURN(TypeId t, common_array(a, b, "array_cat"));
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr x, coerce(std::move(a), t));
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr y, coerce(std::move(b), t));
    ColumnType out{t, -1, x.type().nullable && y.type().nullable};
    return ScalarExpr::binary(BinaryFunc::kArrayConcat, std::move(x), std::move(y), out);
  }
  const bool append = a_array;
  ScalarExpr& array = append ? a : b;
  ScalarExpr& element = append ? b : a;
  const TypeId t = array.type().id;
  auto e = coerce(std::move(element), array_element_type(t));
  if (!e.ok()) {
    return Status::error(sqlstate::kUndefinedFunction, "operator does not exist: " +
                                                           std::string(type_name(append ? t : element.type().id)) +
                                                           " || " +
                                                           std::string(type_name(append ? element.type().id : t)));
  }
  ColumnType out{t, -1, false};
  return append ? ScalarExpr::binary(BinaryFunc::kArrayAppend, std::move(array), std::move(*e), out)
                : ScalarExpr::binary(BinaryFunc::kArrayPrepend, std::move(*e), std::move(array), out);
}

}  // namespace

Result<ScalarExpr> make_array(std::vector<ScalarExpr> elements, TypeId element) {
  std::vector<ColumnType> types;
  for (const auto& e : elements) {
    if (is_array_type(e.type().id)) return Status::error(sqlstate::kFeatureNotSupported, "multidimensional arrays are not supported");
    types.push_back(e.type());
  }
  if (element == T::kUnknown) {
    if (elements.empty()) {
      return Status::error(sqlstate::kIndeterminateDatatype, "cannot determine type of empty array")
          .with_hint("Explicitly cast to the desired type, for example ARRAY[]::integer[].");
    }
    TANDEM_ASSIGN_OR_RETURN(ColumnType t, unify_types(types, "ARRAY"));
    element = t.id == T::kUnknown ? T::kText : t.id;
  }
  const TypeId array = array_type_of(element);
  if (array == T::kUnknown) {
    return Status::error(sqlstate::kFeatureNotSupported,
                         "arrays of type " + std::string(type_name(element)) + " are not supported");
  }
  for (auto& e : elements) {
    TANDEM_ASSIGN_OR_RETURN(e, coerce(std::move(e), element));
  }
  return fold(ScalarExpr::variadic(VariadicFunc::kArrayCreate, std::move(elements), ColumnType{array, -1, false}));
}

Result<ScalarExpr> make_subscript(ScalarExpr array, ScalarExpr index) {
  if (!is_array_type(array.type().id)) {
    return Status::error(sqlstate::kDatatypeMismatch, "cannot subscript type " +
                                                          std::string(type_name(array.type().id)) +
                                                          " because it does not support subscripting");
  }
  auto i = coerce(std::move(index), T::kInt4, CastContext::kAssignment);
  if (!i.ok()) return Status::error(sqlstate::kDatatypeMismatch, "array subscript must have type integer");
  ColumnType out{array_element_type(array.type().id), array.type().typmod, true};
  return ScalarExpr::binary(BinaryFunc::kArrayIndex, std::move(array), std::move(*i), out);
}

Result<ScalarExpr> make_quantified(std::string_view raw_op, bool all, ScalarExpr x, ScalarExpr array) {
  std::string op(raw_op);
  if (op == "!=") op = "<>";
  static constexpr std::string_view kOps[] = {"=", "<>", "<", "<=", ">", ">="};
  size_t k = 0;
  while (k < std::size(kOps) && kOps[k] != op) ++k;
  if (k == std::size(kOps)) {
    return Status::error(sqlstate::kFeatureNotSupported, "op ANY/ALL (array) is supported for comparison operators only");
  }
  if (array.type().id == T::kUnknown) {
    TypeId x_type = x.type().id == T::kUnknown ? T::kText : x.type().id;
    TANDEM_ASSIGN_OR_RETURN(array, coerce(std::move(array), array_type_of(x_type)));
  }
  if (!is_array_type(array.type().id)) return not_array(array, "op ANY/ALL (array)");
  const ColumnType types[] = {x.type(), array_element_column(array.type())};
  auto common = unify_types(types, "op ANY/ALL (array)");
  if (!common.ok() || array_type_of(common->id) == T::kUnknown) {
    return Status::error(sqlstate::kUndefinedFunction, "operator does not exist: " +
                                                           std::string(type_name(x.type().id)) + " " + op + " " +
                                                           std::string(type_name(types[1].id)));
  }
  TANDEM_ASSIGN_OR_RETURN(x, coerce(std::move(x), common->id));
  TANDEM_ASSIGN_OR_RETURN(array, coerce(std::move(array), array_type_of(common->id)));
  const auto f = static_cast<BinaryFunc>(static_cast<int>(all ? BinaryFunc::kAllEq : BinaryFunc::kAnyEq) + k);
  return ScalarExpr::binary(f, std::move(x), std::move(array), ColumnType{T::kBool, -1, true});
}

std::optional<Result<ScalarExpr>> resolve_array_operator(std::string_view op, std::vector<ScalarExpr>& args) {
  if (op != "||" || args.size() != 2) return std::nullopt;
  if (!is_array_type(args[0].type().id) && !is_array_type(args[1].type().id)) return std::nullopt;
  return resolve_concat(args);
}

std::optional<Result<ScalarExpr>> resolve_array_function(std::string_view name, std::vector<ScalarExpr>& args) {
  const size_t n = args.size();
  auto array_arg = [&](size_t i) -> Status {
    if (args[i].type().id == T::kUnknown) {
      return Status::error(sqlstate::kIndeterminateDatatype, "could not determine polymorphic type because input has type unknown");
    }
    if (is_array_type(args[i].type().id)) return Status::ok();
    std::string sig;
    for (size_t k = 0; k < n; ++k) sig += (k ? ", " : "") + std::string(type_name(args[k].type().id));
    return Status::error(sqlstate::kUndefinedFunction, "function " + std::string(name) + "(" + sig + ") does not exist")
        .with_hint("No function matches the given name and argument types. You might need to add explicit type casts.");
  };
  auto with = [&](auto f) -> std::optional<Result<ScalarExpr>> { return Result<ScalarExpr>(f()); };
  if ((name == "array_upper" || name == "array_lower" || name == "array_length") && n == 2) {
    return with([&]() -> Result<ScalarExpr> {
      TANDEM_RETURN_IF_ERROR(array_arg(0));
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr dim, coerce(std::move(args[1]), T::kInt4));
      const BinaryFunc f = name == "array_upper" ? BinaryFunc::kArrayUpper
                           : name == "array_lower" ? BinaryFunc::kArrayLower : BinaryFunc::kArrayLength;
      return ScalarExpr::binary(f, std::move(args[0]), std::move(dim), ColumnType{T::kInt4, -1, true});
    });
  }
  if (name == "cardinality" && n == 1) {
    return with([&]() -> Result<ScalarExpr> {
      TANDEM_RETURN_IF_ERROR(array_arg(0));
      ColumnType out{T::kInt4, -1, args[0].type().nullable};
      return ScalarExpr::unary(UnaryFunc::kArrayCardinality, std::move(args[0]), out);
    });
  }
  if (name == "array_to_string" && (n == 2 || n == 3)) {
    return with([&]() -> Result<ScalarExpr> {
      TANDEM_RETURN_IF_ERROR(array_arg(0));
      for (size_t i = 1; i < n; ++i) {
        TANDEM_ASSIGN_OR_RETURN(args[i], coerce(std::move(args[i]), T::kText));
      }
      ColumnType out{T::kText, -1, args[0].type().nullable || args[1].type().nullable};
      if (n == 2) return ScalarExpr::binary(BinaryFunc::kArrayToString, std::move(args[0]), std::move(args[1]), out);
      return ScalarExpr::variadic(VariadicFunc::kArrayToStringNull, std::move(args), out);
    });
  }
  if (name == "string_to_array" && (n == 2 || n == 3)) {
    return with([&]() -> Result<ScalarExpr> {
      for (auto& a : args) {
        TANDEM_ASSIGN_OR_RETURN(a, coerce(std::move(a), T::kText));
      }
      ColumnType out{T::kTextArray, -1, args[0].type().nullable};
      return ScalarExpr::variadic(VariadicFunc::kStringToArray, std::move(args), out);
    });
  }
  if (name == "array_cat" && n == 2) return resolve_concat(args);
  if ((name == "array_append" || name == "array_prepend") && n == 2) {
    return with([&]() -> Result<ScalarExpr> {
      TANDEM_RETURN_IF_ERROR(array_arg(name == "array_append" ? 0 : 1));
      return resolve_concat(args);
    });
  }
  return std::nullopt;
}

}  // namespace tandem
