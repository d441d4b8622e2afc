#include "frontend/adapter/returning.hpp"

#include "common/eval.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/binder/grouping.hpp"

namespace tandem::frontend {

Result<BoundReturning> bind_returning(const std::vector<sql::SelectItem>& items, const catalog::RelationDesc& desc,
                                      const std::string& qualifier, std::vector<ColumnType>& param_types) {
  BoundReturning out;
  if (items.empty()) return out;
  planner::Scope scope;
  for (const auto& c : desc.columns) scope.columns.push_back({qualifier, c.name, c.type});
  planner::ExprBinder binder(scope, &param_types, desc.arity());
  binder.set_hook([](const sql::Expr& e, planner::ExprBinder&) -> std::optional<Result<ScalarExpr>> {
    const auto* call = e.as<sql::FunctionCall>();
    if (call == nullptr || call->over || !planner::is_aggregate_name(call->name.back())) return std::nullopt;
    return Result<ScalarExpr>(Status::error(sqlstate::kGroupingError, "aggregate functions are not allowed in RETURNING"));
  });
  for (const sql::SelectItem& item : items) {
    if (const auto* star = item.expr.as<sql::Star>()) {
      if (!star->qualifier.empty() && star->qualifier.back() != qualifier) {
        return Status::error(sqlstate::kUndefinedTable,
                             "missing FROM-clause entry for table \"" + star->qualifier.back() + "\"")
            .with_position(static_cast<int>(item.expr.pos.offset) + 1);
      }
      for (size_t i = 0; i < desc.arity(); ++i) {
        out.exprs.push_back(ScalarExpr::column(i, desc.columns[i].type));
        out.columns.push_back({desc.columns[i].name, desc.columns[i].type});
      }
      continue;
    }
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, binder.bind(item.expr));
    TANDEM_ASSIGN_OR_RETURN(e, binder.resolve_unknown_as_text(std::move(e)));
    out.columns.push_back({item.alias ? *item.alias : planner::ExprBinder::column_name(item.expr), e.type()});
    out.exprs.push_back(std::move(e));
  }
  return out;
}

Result<ExecResult> returning_result(const BoundReturning& returning, const TableWrite& write, int sign,
                                    const Row& params, EvalContext& ctx, std::string tag) {
  ExecResult r;
  r.tag = std::move(tag);
  if (returning.empty()) return r;
  r.returns_rows = true;
  r.columns = returning.columns;
  RowArena arena;
  const std::vector<Datum> param_datums = unpack(params.ref(), &arena);
  std::vector<Datum> input;
  std::vector<Datum> output;
  for (const auto& [row, diff] : write.updates) {
    if ((sign > 0) != (diff > 0) || diff == 0) continue;
    unpack_into(row.ref(), &input, &arena);
    input.insert(input.end(), param_datums.begin(), param_datums.end());
    output.clear();
    for (const ScalarExpr& e : returning.exprs) {
      TANDEM_ASSIGN_OR_RETURN(Datum d, eval(e, input, ctx));
      output.push_back(d);
    }
    Row packed = Row::pack(output);
    for (Diff i = 0; i < (diff > 0 ? diff : -diff); ++i) r.rows.push_back(packed);
  }
  return r;
}

}  // namespace tandem::frontend
