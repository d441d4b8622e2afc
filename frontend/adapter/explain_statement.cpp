#include "frontend/adapter/explain_statement.hpp"

#include <tuple>

#include "frontend/adapter/session_catalog.hpp"
#include "planner/explain/explain.hpp"
#include "planner/parser/parser.hpp"

namespace tandem::frontend {
namespace {

// EXPLAIN INDEX i / MATERIALIZED VIEW mv: the explainee becomes the item's
// stored CREATE statement, under the item's qualified name.
Result<sql::Explain> resolve_existing(const catalog::CatalogSnapshot& snapshot, const catalog::SearchPath& path,
                                      const sql::Explain& explain) {
  const auto& object = std::get<sql::ExplainObject>(explain.explainee);
  bool index = object.type == sql::ObjectType::kIndex;
  catalog::PartialName partial;
  const auto& parts = object.name.parts;
  partial.item = parts.back();
  if (parts.size() >= 2) partial.schema = parts[parts.size() - 2];
  if (parts.size() == 3) partial.database = parts[0];
  TANDEM_ASSIGN_OR_RETURN(const catalog::Item* item, snapshot.resolve_item(partial, path));
  catalog::ItemKind want = index ? catalog::ItemKind::kIndex : catalog::ItemKind::kMaterializedView;
  if (item->kind != want) {
    return Status::error(sqlstate::kWrongObjectType, "\"" + item->name.item + "\" is not " +
                                                         (index ? "an index" : "a materialized view"));
  }
  TANDEM_ASSIGN_OR_RETURN(sql::Statement stmt, sql::parse_one(item->create_sql));
  sql::Explain out = explain;
  if (auto* create = stmt.as<sql::CreateIndex>(); create && index) {
    sql::CreateIndex c = *create;
    c.name = item->name.item;
    out.explainee = std::move(c);
  } else if (auto* mv = stmt.as<sql::CreateMaterializedView>(); mv && !index) {
    sql::CreateMaterializedView c = *mv;
    c.name.parts = {item->name.database, item->name.schema, item->name.item};
    if (item->name.database.empty()) c.name.parts.erase(c.name.parts.begin());
    out.explainee = std::move(c);
  } else {
    return Status::error(sqlstate::kInternalError, "the stored definition of \"" + item->name.item +
                                                       "\" is not a CREATE statement of its kind");
  }
  return out;
}

}  // namespace

Result<ExecResult> explain_plan_statement(std::shared_ptr<const catalog::CatalogSnapshot> snapshot,
                                          const catalog::SearchPath& path, const std::string& cluster,
                                          const sql::Explain& explain, const std::vector<ColumnType>& param_types,
                                          std::vector<ResultColumn> columns, const ReadRouting& routing) {
  sql::Explain resolved = explain;
  if (std::holds_alternative<sql::ExplainObject>(explain.explainee)) {
    TANDEM_ASSIGN_OR_RETURN(resolved, resolve_existing(*snapshot, path, explain));
  }
  // The explainee's cluster: IN CLUSTER, else the session's.
  std::string target = cluster;
  if (auto* index = std::get_if<sql::CreateIndex>(&resolved.explainee); index && !index->in_cluster.empty()) {
    target = index->in_cluster;
  }
  if (auto* mv = std::get_if<sql::CreateMaterializedView>(&resolved.explainee); mv && !mv->in_cluster.empty()) {
    target = mv->in_cluster;
  }
  TANDEM_ASSIGN_OR_RETURN(const catalog::Cluster* c, snapshot->resolve_cluster(target));
  SessionCatalog reader(snapshot, path, c->id);
  planner::ExplainRequest request;
  request.statement = &resolved;
  request.cluster = c->name;
  request.schema_prefix = path.database + "." + (path.schemas.empty() ? "public" : path.schemas.front());
  request.param_types = param_types;
  if (routing) std::tie(request.interactive_runtime, request.interactive_dataflows) = routing(c->id);
  planner::PlanContext ctx;
  compute::GlobalId scratch = 1;
  ctx.allocate_id = [&scratch] { return scratch++; };
  ctx.mz_now = kMinTimestamp;  // any time: the plan's shape does not depend on it
  const SessionValues any_session;
  ctx.statement_time = 0;
  ctx.session = &any_session;
  TANDEM_ASSIGN_OR_RETURN(std::string text, planner::explain_plan(request, reader, std::move(ctx)));
  ExecResult r;
  r.returns_rows = true;
  r.columns = std::move(columns);
  r.rows.push_back(Row::pack_one(Datum::from_string(text)));
  r.tag = "EXPLAIN";
  return r;
}

}  // namespace tandem::frontend
