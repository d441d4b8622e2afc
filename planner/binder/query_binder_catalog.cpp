// Catalog functions, reg* casts and COLLATE in the query binder's hook
// (binder/catalog_functions.hpp).
#include "catalog/builtin_relations.hpp"
#include "common/sqlstate.hpp"
#include "planner/binder/catalog_functions.hpp"
#include "planner/binder/query_binder.hpp"

namespace tandem::planner {
namespace {

ScalarExpr oid_literal(uint32_t oid) {
  return ScalarExpr::literal(Datum::from_oid(oid), ColumnType{TypeId::kOid, -1, false});
}

std::vector<std::string> split_name(const std::string& text) {
  std::vector<std::string> parts;
  std::string part;
  for (char c : text) {
    if (c == '.') {
      parts.push_back(part);
      part.clear();
    } else {
      part += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
  }
  parts.push_back(part);
  return parts;
}

}  // namespace

std::optional<Result<ScalarExpr>> QueryBinder::bind_catalog_expr(const sql::Expr& e, ExprBinder& binder) {
  if (auto* collate = e.as<sql::Collate>()) {
    if (!is_supported_collation(collate->collation)) {
      return Result<ScalarExpr>(Status::error(sqlstate::kFeatureNotSupported,
                                              "collation \"" + collate->collation.back() + "\" is not supported"));
    }
    auto inner = binder.bind(*collate->expr);
    if (inner.ok() && !is_string_type(inner->type().id)) {
      return Result<ScalarExpr>(Status::error(
          sqlstate::kDatatypeMismatch, "collations are not supported by type " + std::string(type_name(inner->type().id))));
    }
    return inner;
  }
  if (auto* cast = e.as<sql::Cast>()) {
    std::string reg = reg_type_name(cast->type);
    if (reg.empty()) return std::nullopt;
    if (auto* literal = cast->expr->as<sql::StringLiteral>()) {
      if (reg == "regclass") {
        const CatalogItem* item = catalog_.resolve(split_name(literal->value));
        if (item == nullptr) {
          return Result<ScalarExpr>(
              Status::error(sqlstate::kUndefinedTable, "relation \"" + literal->value + "\" does not exist"));
        }
        return Result<ScalarExpr>(oid_literal(catalog::item_oid(catalog::item_id_from_compute(item->id))));
      }
      if (reg == "regtype") {
        auto type = type_from_name(literal->value);
        if (!type.ok()) return Result<ScalarExpr>(type.status());
        return Result<ScalarExpr>(oid_literal(type_oid(type->id)));
      }
      // regnamespace: by name among the schemas pg_namespace lists.
      std::vector<const sql::Expr*> args{cast->expr.get()};
      auto expanded =
          expand_definition("(SELECT mz_n.oid FROM pg_catalog.pg_namespace mz_n WHERE mz_n.nspname = $1)", args);
      if (!expanded.ok()) return Result<ScalarExpr>(expanded.status());
      expansions_.push_back(std::move(*expanded));
      return binder.bind(expansions_.back());
    }
    std::vector<const sql::Expr*> args{cast->expr.get()};
    // A parameter cast to a reg type is a name looked up when the statement
    // runs ($1::regtype with 'int4' bound, as drivers' type introspection
    // sends it), not an OID to print.
    std::optional<std::string> lookup;
    if (cast->expr->as<sql::Parameter>() != nullptr) lookup = reg_lookup_sql(cast->type);
    auto expanded = expand_definition(lookup ? *lookup : *reg_cast_sql(cast->type), args);
    if (!expanded.ok()) return Result<ScalarExpr>(expanded.status());
    expansions_.push_back(std::move(*expanded));
    return binder.bind(expansions_.back());
  }
  auto* call = e.as<sql::FunctionCall>();
  if (call == nullptr || call->over || call->star || call->distinct) return std::nullopt;
  auto definition = catalog_function_sql(call->name, call->args.size());
  if (!definition) return std::nullopt;
  std::vector<const sql::Expr*> args;
  for (const auto& a : call->args) args.push_back(&a);
  auto expanded = expand_definition(*definition, args);
  if (!expanded.ok()) return Result<ScalarExpr>(expanded.status());
  expansions_.push_back(std::move(*expanded));
  return binder.bind(expansions_.back());
}

}  // namespace tandem::planner
