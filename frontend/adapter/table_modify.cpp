#include "frontend/adapter/table_modify.hpp"

#include "catalog/catalog_errors.hpp"
#include "common/eval.hpp"
#include "common/func_resolve.hpp"
#include "common/value_io.hpp"
#include "frontend/adapter/catalog_ops.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/parser/parser.hpp"

namespace tandem::frontend {
namespace {

Result<std::shared_ptr<BoundModify>> bind_target(const catalog::CatalogSnapshot& snapshot,
                                                 const catalog::SearchPath& path, const sql::ObjectName& name,
                                                 const std::string& alias, const sql::Box<sql::Expr>& where,
                                                 const char* verb) {
  TANDEM_ASSIGN_OR_RETURN(const catalog::Item* item, snapshot.resolve_item(partial_name(name), path));
  if (item->id.is_system()) return catalog::errors::system_object("item", item->name.to_string());
  const catalog::TableDetails* table = item->table();
  if (table == nullptr) {
    return Status::error(sqlstate::kWrongObjectType, std::string("cannot ") + verb + " " +
                                                         std::string(catalog::item_kind_noun(item->kind)) + " \"" +
                                                         item->name.item + "\"");
  }
  auto bound = std::make_shared<BoundModify>();
  bound->table = catalog::to_compute_id(item->id);
  bound->table_name = item->name.item;
  bound->desc = item->desc;
  for (const auto& c : table->columns) bound->not_null.push_back(c.not_null);
  // SELECT * FROM <table> [AS alias] [WHERE ...], naming the table by its
  // resolved qualified name.
  sql::Select select;
  sql::Expr star;
  star.node = sql::Star{};
  select.projection.push_back(sql::SelectItem{std::move(star), std::nullopt});
  sql::TableName from;
  from.name.parts = {item->name.database, item->name.schema, item->name.item};
  if (item->name.database.empty()) from.name.parts.erase(from.name.parts.begin());
  from.alias = sql::TableAlias{alias.empty() ? item->name.item : alias, {}};
  sql::TableRef ref;
  ref.node = std::move(from);
  select.from.push_back(std::move(ref));
  select.where = where;
  bound->read.body.node = std::move(select);
  return bound;
}

}  // namespace

Result<std::shared_ptr<const BoundModify>> bind_delete(const catalog::CatalogSnapshot& snapshot,
                                                       const catalog::SearchPath& path, const sql::Delete& del,
                                                       std::vector<ColumnType>& param_types) {
  if (!del.using_tables.empty()) return Status::error(sqlstate::kFeatureNotSupported, "DELETE ... USING is not supported yet");
  TANDEM_ASSIGN_OR_RETURN(auto bound, bind_target(snapshot, path, del.table, del.alias, del.where, "delete from"));
  bound->kind = BoundModify::Kind::kDelete;
  const catalog::Item* item = *snapshot.resolve_item(partial_name(del.table), path);
  TANDEM_ASSIGN_OR_RETURN(bound->returning, bind_returning(del.returning, item->desc,
                                                           del.alias.empty() ? item->name.item : del.alias,
                                                           param_types));
  return std::shared_ptr<const BoundModify>(std::move(bound));
}

Result<std::shared_ptr<const BoundModify>> bind_truncate(const catalog::CatalogSnapshot& snapshot,
                                                         const catalog::SearchPath& path,
                                                         const sql::ObjectName& table) {
  TANDEM_ASSIGN_OR_RETURN(auto bound, bind_target(snapshot, path, table, "", {}, "truncate"));
  bound->kind = BoundModify::Kind::kDelete;
  return std::shared_ptr<const BoundModify>(std::move(bound));
}

Result<std::shared_ptr<const BoundModify>> bind_update(const catalog::CatalogSnapshot& snapshot,
                                                       const catalog::SearchPath& path, const sql::Update& update,
                                                       std::vector<ColumnType>& param_types) {
  TANDEM_ASSIGN_OR_RETURN(auto bound, bind_target(snapshot, path, update.table, update.alias, update.where, "update"));
  bound->kind = BoundModify::Kind::kUpdate;
  const catalog::Item* item = *snapshot.resolve_item(partial_name(update.table), path);
  const catalog::TableDetails* table = item->table();
  planner::Scope scope;
  std::string qualifier = update.alias.empty() ? item->name.item : update.alias;
  for (const auto& c : item->desc.columns) scope.columns.push_back({qualifier, c.name, c.type});
  planner::ExprBinder binder(scope, &param_types, item->desc.arity());
  bound->assignments.resize(item->desc.arity());
  for (const auto& a : update.assignments) {
    auto index = item->desc.column_index(a.column);
    if (!index) {
      return Status::error(sqlstate::kUndefinedColumn,
                           "column \"" + a.column + "\" of relation \"" + item->name.item + "\" does not exist")
          .with_position(static_cast<int>(a.pos.offset) + 1);
    }
    if (bound->assignments[*index]) {
      return Status::error(sqlstate::kSyntaxError, "multiple assignments to same column \"" + a.column + "\"");
    }
    const ColumnType& type = item->desc.columns[*index].type;
    ScalarExpr value = ScalarExpr::null(type);
    if (a.default_value) {
      if (const auto& default_sql = table->columns[*index].default_sql) {
        TANDEM_ASSIGN_OR_RETURN(sql::Expr e, sql::parse_expression(*default_sql));
        TANDEM_ASSIGN_OR_RETURN(value, binder.bind(e));
      }
    } else {
      TANDEM_ASSIGN_OR_RETURN(value, binder.bind(a.value));
    }
    ColumnType from = value.type();
    auto cast = make_cast(std::move(value), type, CastContext::kAssignment);
    if (!cast.ok()) {
      if (cast.status().sqlstate() == sqlstate::kCannotCoerce) {
        return Status::error(sqlstate::kDatatypeMismatch, "column \"" + a.column + "\" is of type " +
                                                              format_type(type) + " but expression is of type " +
                                                              format_type(from))
            .with_position(static_cast<int>(a.pos.offset) + 1);
      }
      return cast.status();
    }
    bound->assignments[*index] = std::move(*cast);
  }
  TANDEM_ASSIGN_OR_RETURN(bound->returning, bind_returning(update.returning, item->desc, qualifier, param_types));
  return std::shared_ptr<const BoundModify>(std::move(bound));
}

Result<ExecResult> modify_result(const sql::Statement& s, const BoundModify& modify, const TableWrite& write,
                                 int64_t affected, const Row& params, EvalContext& ctx) {
  const std::string tag = s.as<sql::Update>()     ? "UPDATE " + std::to_string(affected)
                          : s.as<sql::Truncate>() ? std::string("TRUNCATE TABLE")
                                                  : "DELETE " + std::to_string(affected);
  const int sign = modify.kind == BoundModify::Kind::kUpdate ? 1 : -1;
  return returning_result(modify.returning, write, sign, params, ctx, tag);
}

Result<TableWrite> apply_modify(const BoundModify& modify, const std::vector<std::pair<Row, Diff>>& old_rows,
                                const Row& params, EvalContext& ctx, int64_t* affected) {
  TableWrite write;
  write.table = modify.table;
  *affected = 0;
  RowArena arena;
  std::vector<Datum> param_datums = unpack(params.ref(), &arena);
  std::vector<Datum> input;
  std::vector<Datum> output;
  for (const auto& [row, diff] : old_rows) {
    if (diff <= 0) continue;
    *affected += diff;
    write.updates.emplace_back(row, -diff);
    if (modify.kind == BoundModify::Kind::kDelete) continue;
    unpack_into(row.ref(), &input, &arena);
    input.insert(input.end(), param_datums.begin(), param_datums.end());
    output.clear();
    for (size_t c = 0; c < modify.desc.arity(); ++c) {
      Datum d = input[c];
      if (modify.assignments[c]) {
        TANDEM_ASSIGN_OR_RETURN(d, eval(*modify.assignments[c], input, ctx));
      }
      if (d.is_null() && modify.not_null[c]) {
        return Status::error(sqlstate::kNotNullViolation, "null value in column \"" + modify.desc.columns[c].name +
                                                              "\" of relation \"" + modify.table_name +
                                                              "\" violates not-null constraint");
      }
      output.push_back(d);
    }
    write.updates.emplace_back(Row::pack(output), diff);
  }
  return write;
}

}  // namespace tandem::frontend
