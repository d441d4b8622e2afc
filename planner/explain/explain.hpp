#pragma once
// EXPLAIN [RAW | DECORRELATED | [LOCALLY] OPTIMIZED | PHYSICAL] PLAN
//   [AS TEXT | AS JSON] FOR <SELECT | CREATE INDEX | CREATE MATERIALIZED VIEW>:
// plans the explainee exactly as executing it would,
// with a PlanTrace, and renders the requested stage without creating or
// running anything. One result row, one text column named after the stage
// ("Raw Plan", "Decorrelated Plan", "Locally Optimized Plan",
// "Optimized Plan", "Physical Plan"); `EXPLAIN <query>` and `EXPLAIN PLAN
// FOR` are the optimized plan.
//
// What each stage shows (planner/explain/explain_plans.hpp for the trees):
//   RAW, DECORRELATED, LOCALLY OPTIMIZED: the explainee's relation (for an
//     index: the indexed collection's) as one tree without a heading.
//   OPTIMIZED: a SELECT answered on the fast path prints
//     `Explained Query (fast path):` with the peek (→Map/Filter/Project over
//     →Index Lookup on / →Indexed / →Constant); otherwise
//     `Explained Query:` (a SELECT), `<index name>:` or `<view name>:` over
//     the optimized MIR (an index adds its ArrangeBy). A SELECT with ORDER
//     BY/LIMIT/OFFSET or hidden columns adds the `Finish` on top.
//   PHYSICAL: the same headings over the LIR the dataflow would render.
//   Every form then lists `Source <name>` per collection read from
//   storage, `Used Indexes:` with the usage of each index read (lookup,
//   *** full scan ***) and ends with `Target cluster: <name>`.
// EXPLAIN TIMESTAMP, modifiers (WITH (...)) and EXPLAIN INDEX/MATERIALIZED
// VIEW <name> are not handled here (the adapter turns the latter into the
// item's CREATE statement first).
// Threading: pure functions over the CatalogReader.
#include <string>
#include <vector>

#include "planner/catalog_reader.hpp"
#include "planner/parser/ast.hpp"
#include "planner/read_planner.hpp"

namespace tandem::planner {

struct ExplainRequest {
  const sql::Explain* statement = nullptr;
  std::string cluster;         // the session's cluster (IN CLUSTER overrides it)
  std::string schema_prefix;   // "materialize.public": qualifies a new view's name
  std::vector<ColumnType> param_types;
  // How the session's cluster routes reads: peeks to its interactive
  // runtime, and peek dataflows too when interactive_dataflows.
  bool interactive_runtime = false;
  bool interactive_dataflows = false;
};

// The result column's name, or 0A000 for what EXPLAIN does not support
// (modifiers, EXPLAIN TIMESTAMP).
Result<std::string> explain_column_name(const sql::Explain& statement);

// The EXPLAIN text (or JSON document). `ctx.trace` is ignored (EXPLAIN
// keeps its own).
Result<std::string> explain_plan(const ExplainRequest& request, const CatalogReader& catalog, PlanContext ctx);

// The name CREATE INDEX gives an index without one: `<item>_<col>..._idx`
// (`_expr` per expression key), `<item>_primary_idx` for a DEFAULT INDEX.
std::string generated_index_name(const sql::CreateIndex& index, const std::string& item,
                                 const std::vector<std::string>& item_columns, const std::vector<ScalarExpr>& key);

}  // namespace tandem::planner
