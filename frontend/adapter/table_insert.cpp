#include "frontend/adapter/table_insert.hpp"

#include "catalog/catalog_errors.hpp"
#include "common/eval.hpp"
#include "common/func_resolve.hpp"
#include "common/value_io.hpp"
#include "frontend/adapter/catalog_ops.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/parser/parser.hpp"

namespace tandem::frontend {
namespace {

Status with_pos(Status s, const sql::Expr& e) {
  if (s.position() == 0) s.set_position(static_cast<int>(e.pos.offset) + 1);
  return s;
}

}  // namespace

Result<std::shared_ptr<BoundInsert>> bind_insert(const catalog::CatalogSnapshot& snapshot,
                                                       const catalog::SearchPath& path, const sql::Insert& insert,
                                                       std::vector<ColumnType>& param_types) {
  TANDEM_ASSIGN_OR_RETURN(const catalog::Item* item, snapshot.resolve_item(partial_name(insert.table), path));
  if (item->id.is_system()) return catalog::errors::system_object("item", item->name.to_string());
  const catalog::TableDetails* table = item->table();
  if (table == nullptr) {
    return Status::error(sqlstate::kWrongObjectType, "cannot insert into " +
                                                         std::string(catalog::item_kind_noun(item->kind)) + " \"" +
                                                         item->name.item + "\"");
  }
  auto bound = std::make_shared<BoundInsert>();
  TANDEM_ASSIGN_OR_RETURN(bound->returning, bind_returning(insert.returning, item->desc,
                                                           insert.alias.empty() ? item->name.item : insert.alias,
                                                           param_types));
  bound->table = catalog::to_compute_id(item->id);
  bound->table_name = item->name.item;
  bound->desc = item->desc;
  for (const auto& c : table->columns) bound->not_null.push_back(c.not_null);
  const size_t width = item->desc.arity();

  // Target columns: listed, or all in order.
  std::vector<size_t> targets;
  if (insert.columns.empty()) {
    for (size_t i = 0; i < width; ++i) targets.push_back(i);
  } else {
    std::vector<bool> seen(width, false);
    for (const auto& name : insert.columns) {
      auto index = item->desc.column_index(name);
      if (!index) {
        return Status::error(sqlstate::kUndefinedColumn,
                             "column \"" + name + "\" of relation \"" + item->name.item + "\" does not exist");
      }
      if (seen[*index]) {
        return Status::error(sqlstate::kDuplicateColumn, "column \"" + name + "\" specified more than once");
      }
      seen[*index] = true;
      targets.push_back(*index);
    }
  }

  planner::Scope scope;
  planner::ExprBinder binder(scope, &param_types, 0);
  // Defaults, bound once, for the columns a row does not provide.
  std::vector<ScalarExpr> defaults;
  for (size_t i = 0; i < width; ++i) {
    const ColumnType& type = item->desc.columns[i].type;
    const auto& default_sql = table->columns[i].default_sql;
    if (!default_sql) {
      defaults.push_back(ScalarExpr::null(type));
      continue;
    }
    TANDEM_ASSIGN_OR_RETURN(sql::Expr e, sql::parse_expression(*default_sql));
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr bound_default, binder.bind(e));
    TANDEM_ASSIGN_OR_RETURN(bound_default, make_cast(std::move(bound_default), type, CastContext::kAssignment));
    defaults.push_back(std::move(bound_default));
  }

  std::vector<std::vector<const sql::Expr*>> source_rows;
  if (insert.default_values) {
    source_rows.emplace_back();
  } else {
    const sql::Query& q = *insert.query;
    auto* values = std::get_if<sql::Values>(&q.body.node);
    if (values == nullptr || !q.order_by.empty() || q.limit || q.offset || !q.ctes.empty()) {
      // INSERT ... SELECT: the adapter plans and runs the query; its output
      // types are fixed then (source_types) and checked per row here.
      bound->source = q;
      bound->targets = targets;
      bound->defaults = std::move(defaults);
      return bound;
    }
    for (const auto& r : values->rows) {
      std::vector<const sql::Expr*> row;
      for (const auto& e : r) row.push_back(&e);
      source_rows.push_back(std::move(row));
    }
  }
  for (const auto& source : source_rows) {
    if (source.size() > targets.size()) {
      return Status::error(sqlstate::kSyntaxError, "INSERT has more expressions than target columns")
          .with_position(static_cast<int>(source[targets.size()]->pos.offset) + 1);
    }
    // Without a column list, a row may stop early: the rest take their
    // defaults (PostgreSQL's rule); with one, it must cover the list.
    if (!insert.default_values && source.size() < targets.size() && !insert.columns.empty()) {
      return Status::error(sqlstate::kSyntaxError, "INSERT has more target columns than expressions");
    }
    if (source.size() != source_rows.front().size()) {
      return Status::error(sqlstate::kSyntaxError, "VALUES lists must all be the same length")
          .with_position(static_cast<int>(source.front()->pos.offset) + 1);
    }
    std::vector<ScalarExpr> row = defaults;
    for (size_t i = 0; i < source.size(); ++i) {
      size_t column = targets[i];
      const ColumnType& type = item->desc.columns[column].type;
      auto e = binder.bind(*source[i]);
      if (!e.ok()) return e.status();
      ColumnType from = e->type();
      auto cast = make_cast(std::move(*e), type, CastContext::kAssignment);
      if (!cast.ok()) {
        if (cast.status().sqlstate() == sqlstate::kCannotCoerce || cast.status().sqlstate() == sqlstate::kDatatypeMismatch) {
          return with_pos(Status::error(sqlstate::kDatatypeMismatch,
                                        "column \"" + item->desc.columns[column].name + "\" is of type " +
                                            format_type(type) + " but expression is of type " + format_type(from))
                              .with_hint("You will need to rewrite or cast the expression."),
                          *source[i]);
        }
        return with_pos(cast.status(), *source[i]);
      }
      row[column] = std::move(*cast);
      bound->may_block = bound->may_block || planner::ExprBinder::may_block(row[column]);
    }
    bound->rows.push_back(std::move(row));
  }
  return bound;
}

namespace {

Status not_null_error(const BoundInsert& insert, size_t column) {
  return Status::error(sqlstate::kNotNullViolation, "null value in column \"" + insert.desc.columns[column].name +
                                                        "\" of relation \"" + insert.table_name +
                                                        "\" violates not-null constraint");
}

}  // namespace

Result<TableWrite> evaluate_insert_select(const BoundInsert& insert, const std::vector<Row>& rows, const Row& params,
                                          EvalContext& ctx) {
  if (insert.source_types.size() != insert.targets.size()) {
    return Status::error(sqlstate::kSyntaxError, insert.source_types.size() > insert.targets.size()
                                                     ? "INSERT has more expressions than target columns"
                                                     : "INSERT has more target columns than expressions");
  }
  RowArena param_arena;
  std::vector<Datum> param_datums = unpack(params.ref(), &param_arena);
  std::vector<Datum> defaults;
  for (const auto& e : insert.defaults) {
    TANDEM_ASSIGN_OR_RETURN(Datum d, eval(e, param_datums, ctx));
    defaults.push_back(d);
  }
  TableWrite write;
  write.table = insert.table;
  RowArena arena;
  std::vector<Datum> source;
  for (const Row& row : rows) {
    unpack_into(row.ref(), &source, &arena);
    std::vector<Datum> full = defaults;
    for (size_t i = 0; i < insert.targets.size(); ++i) {
      size_t column = insert.targets[i];
      Datum d = source[i];
      const ColumnType& to = insert.desc.columns[column].type;
      if (!d.is_null() && !insert.source_types[i].same_type(to)) {
        TANDEM_ASSIGN_OR_RETURN(d, cast_datum(d, insert.source_types[i], to, false, ctx.arena));
      }
      full[column] = d;
    }
    for (size_t c = 0; c < full.size(); ++c) {
      if (full[c].is_null() && insert.not_null[c]) return not_null_error(insert, c);
    }
    write.updates.emplace_back(Row::pack(full), 1);
  }
  return write;
}

Result<TableWrite> evaluate_insert(const BoundInsert& insert, const Row& params, EvalContext& ctx) {
  RowArena param_arena;
  std::vector<Datum> param_datums = unpack(params.ref(), &param_arena);
  TableWrite write;
  write.table = insert.table;
  std::vector<Datum> datums;
  for (const auto& exprs : insert.rows) {
    datums.clear();
    for (size_t c = 0; c < exprs.size(); ++c) {
      TANDEM_ASSIGN_OR_RETURN(Datum d, eval(exprs[c], param_datums, ctx));
      if (d.is_null() && insert.not_null[c]) {
        std::string failing = "Failing row contains (";
        for (size_t i = 0; i < exprs.size(); ++i) {
          if (i > 0) failing += ", ";
          failing += i < datums.size() ? (datums[i].is_null() ? "null" : datum_to_text(datums[i], insert.desc.columns[i].type))
                                       : (i == c ? "null" : "...");
        }
        return Status::error(sqlstate::kNotNullViolation, "null value in column \"" + insert.desc.columns[c].name +
                                                              "\" of relation \"" + insert.table_name +
                                                              "\" violates not-null constraint")
            .with_detail(failing + ").");
      }
      datums.push_back(d);
    }
    write.updates.emplace_back(Row::pack(datums), 1);
  }
  return write;
}

}  // namespace tandem::frontend
