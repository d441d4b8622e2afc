// The jsonb set-returning functions in FROM: jsonb_each and jsonb_each_text
// (columns key, value), jsonb_array_elements[_text] (value) and
// jsonb_object_keys (jsonb_object_keys), each a FlatMap over the items
// before it (compute/plan/table_func.hpp). json's counterparts are 0A000.
#include "planner/binder/query_binder.hpp"

#include "common/sqlstate.hpp"
#include "planner/mir/mir.hpp"

namespace tandem::planner {
namespace {

struct JsonbSrf {
  const char* name;
  compute::TableFunc func;
  std::vector<std::string> columns;
};

const JsonbSrf* find_jsonb_srf(const std::string& name) {
  static const JsonbSrf kFuncs[] = {
      {"jsonb_each", compute::TableFunc::kJsonbEach, {"key", "value"}},
      {"jsonb_each_text", compute::TableFunc::kJsonbEachText, {"key", "value"}},
      {"jsonb_array_elements", compute::TableFunc::kJsonbArrayElements, {"value"}},
      {"jsonb_array_elements_text", compute::TableFunc::kJsonbArrayElementsText, {"value"}},
      {"jsonb_object_keys", compute::TableFunc::kJsonbObjectKeys, {"jsonb_object_keys"}},
  };
  for (const auto& f : kFuncs) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

}  // namespace

bool is_jsonb_srf_name(const std::string& name) { return find_jsonb_srf(name) != nullptr; }

std::optional<Result<QueryBinder::FromItem>> QueryBinder::bind_jsonb_function(const sql::TableFunction& f,
                                                                              const Scope& outer, size_t level,
                                                                              sql::SourcePos pos) {
  const std::string& name = f.call.name.back();
  if (name.starts_with("json_") && is_jsonb_srf_name("jsonb" + name.substr(4))) {
    return Result<FromItem>(not_supported_at("table function " + name + " is", pos));
  }
  const JsonbSrf* srf = find_jsonb_srf(name);
  if (srf == nullptr) return std::nullopt;
  if (f.call.args.size() != 1) {
    return Result<FromItem>(
        at_pos(Status::error(sqlstate::kUndefinedFunction, "function " + name + " does not exist"), pos));
  }
  ExprBinder binder(outer, param_types_, hir::kParamBase);
  binder.set_hook(make_hook(nullptr, nullptr, "functions in FROM"));
  auto arg = binder.bind(f.call.args[0]);
  if (!arg.ok()) return Result<FromItem>(arg.status());
  const TypeId arg_type = arg->type().id;
  auto doc = make_cast(std::move(*arg), ColumnType{TypeId::kJsonb}, CastContext::kImplicit);
  if (!doc.ok()) {
    return Result<FromItem>(at_pos(Status::error(sqlstate::kUndefinedFunction, "function " + name + "(" +
                                                                                   std::string(type_name(arg_type)) +
                                                                                   ") does not exist"),
                                   pos));
  }
  std::vector<ScalarExpr> args;
  args.push_back(std::move(*doc));
  const std::vector<ColumnType> types = mir::table_func_types(srf->func, args);
  FromItem item;
  item.rel = hir::Rel{hir::FlatMap{hir::Rel{hir::Constant{{Row()}, {}}}, srf->func, std::move(args)}};
  for (size_t i = 0; i < types.size(); ++i) {
    item.columns.push_back(ScopeColumn{"", srf->columns[i], types[i], level});
    item.star.push_back(i);
  }
  std::optional<sql::TableAlias> alias = f.alias;
  // FROM jsonb_object_keys(j) AS k names its one column k (a scalar
  // result); the others' columns are OUT parameters (value) and keep
  // their names.
  if (alias && alias->columns.empty() && srf->func == compute::TableFunc::kJsonbObjectKeys) {
    alias->columns.push_back(alias->name);
  }
  Status st = apply_alias(item, alias, name);
  if (!st.is_ok()) return Result<FromItem>(st);
  return Result<FromItem>(std::move(item));
}

}  // namespace tandem::planner
