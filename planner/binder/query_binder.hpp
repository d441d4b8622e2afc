#pragma once
// QueryBinder: query AST -> HIR (planner/hir/hir.hpp) with PostgreSQL's
// name resolution, GROUP BY rules and subquery semantics.
//
// A query is bound in an *outer* Scope (empty at top level; the enclosing
// row for a subquery). Its own columns extend the outer layout, so
// correlated references are ColumnRefs below the outer width (see hir.hpp).
// Views (from the CatalogReader's SQL) and CTEs are bound once and inlined
// at each reference, re-rooted to the referencing scope.
//
// Errors: 42P01 unknown relation, 42703/42702 unknown/ambiguous column,
// 42803 GROUP BY violations and misplaced aggregates, 42601 subquery column
// counts, 0A000 for what is not supported (window functions, LATERAL,
// WITH RECURSIVE, scalar subqueries that may return several rows).
// Threading: one binder per statement.

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "planner/binder/expr_binder.hpp"
#include "planner/catalog_reader.hpp"
#include "planner/hir/hir.hpp"
#include "planner/parser/ast.hpp"
#include "planner/query_plan.hpp"

namespace tandem::planner {

// A bound query: `rel`'s own columns are the visible ones followed by hidden
// ORDER BY columns; the finishing (order, limit, offset) is kept apart.
struct BoundQuery {
  hir::Rel rel;
  std::vector<OutputColumn> columns;  // visible
  std::vector<SortKey> order_by;      // over rel's columns
  std::optional<ScalarExpr> limit;    // over the parameters only
  std::optional<ScalarExpr> offset;
};

class QueryBinder {
 public:
  QueryBinder(const CatalogReader& catalog, std::vector<ColumnType>* param_types)
      : catalog_(catalog), param_types_(param_types) {}

  // The top-level query, with its finishing apart.
  Result<BoundQuery> bind_query(const sql::Query& query, const Scope& outer);
  // A query used as a relation (subquery, derived table, view, CTE): ORDER
  // BY with LIMIT/OFFSET becomes a TopK; only visible columns remain.
  Result<BoundQuery> bind_relation(const sql::Query& query, const Scope& outer);

 private:
  struct FromItem {
    hir::Rel rel{hir::Constant{{Row()}, {}}};
    std::vector<ScopeColumn> columns;  // own columns, level set
    std::vector<size_t> star;          // columns `*` expands to, in order
  };
  struct Cte {
    hir::Rel rel;
    std::vector<std::string> names;
    std::vector<ColumnType> types;
    size_t bound_width = 0;  // outer width the CTE was bound at
  };
  // Pending subqueries of one clause: they become an hir::Apply below it.
  struct SubquerySite {
    std::vector<hir::Subquery> pending;
  };
  struct Grouping;
  struct Windowing;

  Result<BoundQuery> bind_set_expr(const sql::SetExpr& body, const Scope& outer, const sql::Query* query);
  Result<BoundQuery> bind_values(const sql::Values& values, const Scope& outer);
  Result<BoundQuery> bind_set_operation(const sql::SetOperation& op, const Scope& outer);
  Status bind_output_order(const sql::Query& query, BoundQuery& bound);
  Status bind_limit(const sql::Query& query, BoundQuery& bound);

  // query_binder_from.cpp
  Result<FromItem> bind_from(const std::vector<sql::TableRef>& from, const Scope& outer, size_t level);
  Result<FromItem> bind_table_ref(const sql::TableRef& ref, const Scope& outer, size_t level);
  Result<FromItem> bind_table_name(const sql::TableName& t, const Scope& outer, size_t level, sql::SourcePos pos);
  Result<FromItem> bind_join(const sql::Join& join, const Scope& outer, size_t level);
  Result<FromItem> bind_unnest(const sql::TableFunction& f, const Scope& outer, size_t level, sql::SourcePos pos);
  // jsonb_each[_text], jsonb_array_elements[_text], jsonb_object_keys
  // (query_binder_jsonb.cpp); nullopt when `f` is none of them.
  std::optional<Result<FromItem>> bind_jsonb_function(const sql::TableFunction& f, const Scope& outer, size_t level,
                                                      sql::SourcePos pos);
  Result<FromItem> bind_table_function(const sql::TableFunction& f, const Scope& outer, size_t level,
                                       sql::SourcePos pos);
  static Status apply_alias(FromItem& item, const std::optional<sql::TableAlias>& alias, const std::string& name);

  // query_binder_select.cpp
  Result<BoundQuery> bind_select(const sql::Select& select, const Scope& outer, const sql::Query* query);
  Result<Grouping> bind_grouping(const sql::Select& select, const sql::Query* query, const Scope& from_scope,
                                 size_t outer_width);

  // query_binder_window.cpp: the window calls of the select list and ORDER
  // BY over `rel` (own width `own`, bound in `scope`), see windowing.hpp.
  Result<Windowing> bind_windows(const sql::Select& select, const sql::Query* query, const Scope& scope,
                                 const Grouping* grouping, hir::Rel rel, size_t own);
  Result<compute::WindowFrame> bind_window_frame(const sql::WindowSpec& spec, ExprBinder& binder);
  // A hook binding the window calls of `w` to their values, else `base`'s.
  // REQUIRES: `w` outlives the hook.
  static ExprBinder::Hook window_hook(const Windowing& w, ExprBinder::Hook base);

  // query_binder_subquery.cpp
  // A hook binding subqueries into `site` (nullptr: not allowed here) and,
  // with `grouping`, GROUP BY expressions and aggregates; `clause` names the
  // clause in "aggregate functions are not allowed in WHERE".
  ExprBinder::Hook make_hook(SubquerySite* site, const Grouping* grouping, std::string clause);
  Result<ScalarExpr> bind_subquery_expr(const sql::Expr& expr, ExprBinder& binder, SubquerySite& site);
  // Wraps `rel` (own width `width` at outer width `outer_width`) in an Apply
  // of the site's subqueries, if any.
  static hir::Rel apply_site(hir::Rel rel, SubquerySite& site);
  // Catalog functions, reg* casts and COLLATE (binder/catalog_functions.hpp):
  // the bound expression, or nullopt for any other node.
  std::optional<Result<ScalarExpr>> bind_catalog_expr(const sql::Expr& e, ExprBinder& binder);

  const CatalogReader& catalog_;
  std::vector<ColumnType>* param_types_;
  std::vector<std::map<std::string, Cte>> ctes_;  // innermost WITH last
  int view_depth_ = 0;
  std::deque<sql::Expr> expansions_;  // catalog function bodies being bound
};

// query_binder_srf.cpp: a SELECT whose list holds a set-returning function
// (unnest) at top level, rewritten to call it LATERAL after the FROM items;
// nullopt when there is none.
std::optional<Result<sql::Select>> lift_select_list_srf(const sql::Select& select);
// jsonb_each, jsonb_array_elements, ... (query_binder_jsonb.cpp).
bool is_jsonb_srf_name(const std::string& name);

// Scope helpers shared by the binder files.
size_t max_level(const Scope& scope);
Status at_pos(Status s, sql::SourcePos pos);
Status not_supported_at(const std::string& what, sql::SourcePos pos);

}  // namespace tandem::planner
