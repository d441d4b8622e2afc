// Set-returning functions in the SELECT list. PostgreSQL runs
// `SELECT k, unnest(a) FROM t` (or generate_series) as one output row per
// element of each input row; with a single such call that is a LATERAL
// call after the FROM items:
//   SELECT k, _srf.unnest AS unnest FROM t, unnest(a) AS _srf(unnest)
// Several calls (which PostgreSQL runs in lock step), calls in a grouped
// query (which PostgreSQL runs after grouping) and calls nested in an
// expression are 0A000.
#include "planner/binder/query_binder.hpp"

namespace tandem::planner {
namespace {

bool is_srf(const sql::Expr& e) {
  const auto* call = e.as<sql::FunctionCall>();
  if (call == nullptr || call->over) return false;
  const std::string& name = call->name.back();
  return (name == "unnest" || name == "generate_series") && (call->name.size() == 1 || call->name[0] == "pg_catalog");
}

}  // namespace

std::optional<Result<sql::Select>> lift_select_list_srf(const sql::Select& select) {
  size_t found = select.projection.size();
  for (size_t i = 0; i < select.projection.size(); ++i) {
    if (!is_srf(select.projection[i].expr)) continue;
    if (found != select.projection.size()) {
      return Result<sql::Select>(not_supported_at("several set-returning functions in a SELECT list are",
                                                  select.projection[i].expr.pos));
    }
    found = i;
  }
  if (found == select.projection.size()) return std::nullopt;
  const sql::SelectItem& item = select.projection[found];
  if (!select.group_by.empty() || select.having) {
    return Result<sql::Select>(not_supported_at("set-returning functions in a grouped SELECT list are", item.expr.pos));
  }
  sql::Select lifted = select;
  const std::string name = item.expr.as<sql::FunctionCall>()->name.back();
  sql::TableFunction call{true, *item.expr.as<sql::FunctionCall>(), false, sql::TableAlias{"_srf", {name}}};
  lifted.from.push_back(sql::TableRef{std::move(call), item.expr.pos});
  lifted.projection[found] = sql::SelectItem{sql::Expr{sql::ColumnRef{{"_srf", name}}, item.expr.pos},
                                             item.alias ? item.alias : std::optional<std::string>(name)};
  return Result<sql::Select>(std::move(lifted));
}

}  // namespace tandem::planner
