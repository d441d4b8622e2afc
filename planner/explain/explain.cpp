#include "planner/explain/explain.hpp"

#include "planner/explain/explain_plans.hpp"
#include "planner/explain/plan_trace.hpp"

namespace tandem::planner {
namespace {

using Stage = sql::Explain::Stage;

Status unsupported(std::string what) { return Status::error(sqlstate::kFeatureNotSupported, std::move(what)); }

// Every Get of `rel`: id -> name.
void collect_gets(const mir::Rel& rel, std::map<compute::GlobalId, std::string>* out) {
  if (auto* g = std::get_if<mir::Get>(&rel.node)) (*out)[g->id] = g->name;
  mir::for_each_child(rel, [&](const mir::Rel& c) { collect_gets(c, out); });
}

// Names the collections `rel` reads and, for those `desc` imports an index
// of, the index.
ReadNames read_names(const mir::Rel& rel, const compute::DataflowDescription* desc, const CatalogReader& catalog) {
  ReadNames names;
  collect_gets(rel, &names.collections);
  for (const auto& [id, name] : names.collections) {
    for (const auto& index : catalog.indexes_on(id)) {
      bool imported = false;
      if (desc != nullptr) {
        for (const auto& i : desc->index_imports) imported = imported || i.index_id == index.index_id;
      }
      // A fast-path peek reads an index without a dataflow: name them all.
      names.indexes[index.index_id] = ReadNames::Index{index.name, id};
      if (imported) names.read_through[id] = index.index_id;
    }
  }
  return names;
}

void list_reads(const compute::DataflowDescription& desc, const ReadNames& names, Explanation* out) {
  for (const auto& s : desc.source_imports) {
    auto it = names.collections.find(s.id);
    out->sources.push_back(it != names.collections.end() ? it->second : "collection " + std::to_string(s.id));
  }
  for (const auto& i : desc.index_imports) {
    auto it = names.indexes.find(i.index_id);
    out->used_indexes.push_back(
        {it != names.indexes.end() ? it->second.name : "index " + std::to_string(i.index_id), "*** full scan ***"});
  }
}

// ORDER BY / LIMIT / OFFSET / the output projection, when there is any.
std::optional<ExplainNode> finish_node(const Finishing& f, size_t arity) {
  bool trivial = f.order_by.empty() && !f.limit && f.offset == 0 && f.visible == arity;
  if (trivial) return std::nullopt;
  std::vector<std::string> parts;
  std::string order;
  for (size_t i = 0; i < f.order_by.size(); ++i) {
    const SortKey& k = f.order_by[i];
    order += (i ? ", #" : "#") + std::to_string(k.column) + (k.desc ? " desc" : " asc") +
             (k.nulls_first ? " nulls_first" : " nulls_last");
  }
  if (!order.empty()) parts.push_back("order_by=[" + order + "]");
  if (f.limit) parts.push_back("limit=" + std::to_string(*f.limit));
  if (f.offset != 0) parts.push_back("offset=" + std::to_string(f.offset));
  std::string output;
  for (size_t c = 0; c < f.visible; ++c) output += (c ? ", #" : "#") + std::to_string(c);
  parts.push_back("output=[" + output + "]");
  ExplainNode n;
  n.op = "Finish";
  for (size_t i = 0; i < parts.size(); ++i) n.args += (i ? " " : "") + parts[i];
  return n;
}

ExplainNode with_finish(ExplainNode plan, const std::optional<ExplainNode>& finish) {
  if (!finish) return plan;
  ExplainNode f = *finish;
  f.inputs.push_back(std::move(plan));
  return f;
}

// The fast path's peek of an existing index.
ExplainNode fast_path_peek(const PeekExisting& peek, const ReadNames& names, const CatalogReader& catalog,
                           Explanation* out) {
  std::string collection = names.collections.count(peek.collection) ? names.collections.at(peek.collection) : "?";
  std::string index_name = "?";
  std::vector<ColumnType> key_types;
  for (const auto& i : catalog.indexes_on(peek.collection)) {
    if (i.index_id != peek.index_id) continue;
    index_name = i.name;
    for (const auto& k : i.key) key_types.push_back(k.type());
  }
  ExplainNode read;
  read.arrow = true;
  read.op = peek.literal_keys ? "Index Lookup on" : "Indexed";
  read.args = collection + " (using " + index_name + ")";
  if (peek.literal_keys) {
    std::string values;
    for (size_t i = 0; i < peek.literal_keys->size(); ++i) {
      values += (i ? ", " : "") + explain_row((*peek.literal_keys)[i], key_types);
    }
    read.details.push_back("Lookup values: " + values);
  }
  ExplainNode mfp;
  mfp.arrow = true;
  mfp.op = "Map/Filter/Project";
  mfp.details = mfp_details(peek.mfp);
  mfp.inputs.push_back(std::move(read));
  out->used_indexes.push_back({index_name, peek.literal_keys ? "lookup" : "*** full scan ***"});
  return mfp;
}

ExplainNode constant_node(size_t rows) {
  ExplainNode n;
  n.arrow = true;
  n.op = "Constant";
  n.args = "(" + std::to_string(rows) + " rows)";
  return n;
}

// The stage's tree of a relation traced without a dataflow around it.
Result<ExplainNode> traced_tree(Stage stage, const PlanTrace& trace) {
  switch (stage) {
    case Stage::kRaw: return explain_hir(*trace.raw);
    case Stage::kDecorrelated: return explain_mir(*trace.decorrelated);
    default: return explain_mir(*trace.optimized);
  }
}

bool tree_only(Stage stage) {
  return stage == Stage::kRaw || stage == Stage::kDecorrelated || stage == Stage::kLocallyOptimized;
}

compute::GlobalId exported_object(const compute::DataflowDescription& desc) {
  return desc.index_exports.empty() ? desc.objects_to_build.back().id : desc.index_exports.front().on_id;
}

Result<Explanation> explain_query(Stage stage, const sql::Query& query, const ExplainRequest& request,
                                  const CatalogReader& catalog, PlanContext ctx) {
  PlanTrace trace;
  ctx.trace = &trace;
  std::vector<ColumnType> types = request.param_types;
  std::vector<Datum> params(types.size(), Datum::null());
  TANDEM_ASSIGN_OR_RETURN(ReadPlan plan, plan_read(query, catalog, types, params, ctx));
  Explanation out;
  if (tree_only(stage)) {
    TANDEM_ASSIGN_OR_RETURN(ExplainNode tree, traced_tree(stage, trace));
    out.plans.push_back({"", std::move(tree)});
    return out;
  }
  const mir::Rel& optimized = *trace.optimized;
  auto finish = finish_node(plan.finishing, mir::arity(optimized));
  if (auto* k = std::get_if<FastPathConstant>(&plan.plan)) {
    out.plans.push_back({"Explained Query (fast path):", with_finish(constant_node(k->rows.size()), finish)});
    return out;
  }
  if (auto* peek = std::get_if<PeekExisting>(&plan.plan)) {
    ReadNames names = read_names(optimized, nullptr, catalog);
    ExplainNode tree = fast_path_peek(*peek, names, catalog, &out);
    out.plans.push_back({"Explained Query (fast path):", with_finish(std::move(tree), finish)});
    out.target_runtime = request.interactive_runtime ? "interactive" : "maintenance";
    return out;
  }
  const auto& dataflow = std::get<PeekDataflow>(plan.plan);
  ReadNames names = read_names(optimized, &dataflow.desc, catalog);
  ExplainNode tree = stage == Stage::kPhysical ? explain_lir(dataflow.desc, exported_object(dataflow.desc), names)
                                               : explain_mir(optimized, &names);
  out.plans.push_back({"Explained Query:", with_finish(std::move(tree), finish)});
  list_reads(dataflow.desc, names, &out);
  out.target_runtime = request.interactive_runtime && request.interactive_dataflows ? "interactive" : "maintenance";
  return out;
}

std::string qualifier_of(const std::string& name) {
  size_t dot = name.rfind('.');
  return dot == std::string::npos ? "" : name.substr(0, dot + 1);
}

Result<Explanation> explain_index(Stage stage, const sql::CreateIndex& index,
                                  const CatalogReader& catalog, PlanContext ctx, std::string* cluster) {
  const CatalogItem* on = catalog.resolve(index.on.parts);
  if (on == nullptr) {
    return Status::error(sqlstate::kUndefinedTable, "relation \"" + index.on.parts.back() + "\" does not exist");
  }
  if (on->kind == ItemKind::kIndex) {
    return Status::error(sqlstate::kWrongObjectType, "cannot create an index on index \"" + index.on.parts.back() + "\"");
  }
  if (!index.in_cluster.empty()) *cluster = index.in_cluster;
  PlanTrace trace;
  ctx.trace = &trace;
  compute::GlobalId index_id = ctx.allocate_id();
  TANDEM_ASSIGN_OR_RETURN(compute::DataflowDescription desc, plan_index(index, index_id, catalog, ctx));
  Explanation out;
  if (tree_only(stage)) {
    TANDEM_ASSIGN_OR_RETURN(ExplainNode tree, traced_tree(stage, trace));
    out.plans.push_back({"", std::move(tree)});
    return out;
  }
  const auto& key = desc.index_exports.front().key;
  std::vector<std::string> columns;
  for (const auto& c : on->desc.columns) columns.push_back(c.name);
  std::string item = on->name.substr(qualifier_of(on->name).size());
  std::string name = index.name.empty() ? generated_index_name(index, item, columns, key) : index.name;
  ReadNames names = read_names(*trace.optimized, &desc, catalog);
  ExplainNode arrange;
  std::string keys;
  for (size_t i = 0; i < key.size(); ++i) keys += (i ? ", " : "") + print(key[i]);
  if (stage == Stage::kPhysical) {
    arrange.arrow = true;
    arrange.op = "Arrange";
    arrange.args = "(" + keys + ")";
    arrange.inputs.push_back(explain_lir(desc, exported_object(desc), names));
  } else {
    arrange.op = "ArrangeBy";
    arrange.args = "keys=[[" + keys + "]]";
    arrange.inputs.push_back(explain_mir(*trace.optimized, &names));
  }
  out.plans.push_back({qualifier_of(on->name) + name + ":", std::move(arrange)});
  list_reads(desc, names, &out);
  return out;
}

Result<Explanation> explain_materialized_view(Stage stage, const sql::CreateMaterializedView& mv,
                                              const ExplainRequest& request, const CatalogReader& catalog,
                                              PlanContext ctx, std::string* cluster) {
  if (!mv.in_cluster.empty()) *cluster = mv.in_cluster;
  PlanTrace trace;
  ctx.trace = &trace;
  compute::GlobalId export_id = ctx.allocate_id();
  TANDEM_ASSIGN_OR_RETURN(compute::DataflowDescription desc,
                          plan_materialized_view(mv.query, export_id, catalog, ctx));
  Explanation out;
  if (tree_only(stage)) {
    TANDEM_ASSIGN_OR_RETURN(ExplainNode tree, traced_tree(stage, trace));
    out.plans.push_back({"", std::move(tree)});
    return out;
  }
  std::string name;
  const auto& parts = mv.name.parts;
  if (parts.size() == 1) {
    name = request.schema_prefix.empty() ? parts[0] : request.schema_prefix + "." + parts[0];
  } else {
    // schema.view: the database is the prefix's first part.
    if (parts.size() == 2 && !request.schema_prefix.empty()) {
      name = request.schema_prefix.substr(0, request.schema_prefix.find('.')) + ".";
    }
    for (size_t i = 0; i < parts.size(); ++i) name += (i ? "." : "") + parts[i];
  }
  ReadNames names = read_names(*trace.optimized, &desc, catalog);
  ExplainNode tree = stage == Stage::kPhysical ? explain_lir(desc, exported_object(desc), names)
                                               : explain_mir(*trace.optimized, &names);
  out.plans.push_back({name + ":", std::move(tree)});
  list_reads(desc, names, &out);
  return out;
}

}  // namespace

Result<std::string> explain_column_name(const sql::Explain& statement) {
  if (!statement.modifiers.empty()) {
    return unsupported("EXPLAIN ... WITH (" + statement.modifiers.front().name + ") is not supported yet");
  }
  switch (statement.stage) {
    case Stage::kRaw: return std::string("Raw Plan");
    case Stage::kDecorrelated: return std::string("Decorrelated Plan");
    case Stage::kLocallyOptimized: return std::string("Locally Optimized Plan");
    case Stage::kDefault:
    case Stage::kOptimized: return std::string("Optimized Plan");
    case Stage::kPhysical: return std::string("Physical Plan");
    case Stage::kTimestamp: break;
  }
  return unsupported("EXPLAIN TIMESTAMP is not a plan");
}

Result<std::string> explain_plan(const ExplainRequest& request, const CatalogReader& catalog, PlanContext ctx) {
  const sql::Explain& statement = *request.statement;
  if (auto column = explain_column_name(statement); !column.ok()) return column.status();
  std::string cluster = request.cluster;
  Result<Explanation> explained = std::visit(
      [&](const auto& e) -> Result<Explanation> {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, sql::Query>) {
          return explain_query(statement.stage, e, request, catalog, ctx);
        } else if constexpr (std::is_same_v<T, sql::CreateIndex>) {
          return explain_index(statement.stage, e, catalog, ctx, &cluster);
        } else if constexpr (std::is_same_v<T, sql::CreateMaterializedView>) {
          return explain_materialized_view(statement.stage, e, request, catalog, ctx, &cluster);
        } else {
          return unsupported("EXPLAIN of an existing index or materialized view is not supported here");
        }
      },
      statement.explainee);
  if (!explained.ok()) return explained.status();
  explained->target_cluster = cluster;
  return statement.format == sql::Explain::Format::kJson ? explain_json(*explained) : explain_text(*explained);
}

std::string generated_index_name(const sql::CreateIndex& index, const std::string& item,
                                 const std::vector<std::string>& item_columns, const std::vector<ScalarExpr>& key) {
  if (index.default_index) return item + "_primary_idx";
  std::string name = item;
  for (const auto& k : key) {
    auto* col = std::get_if<ColumnRef>(&k.node);
    name += "_" + (col != nullptr && col->index < item_columns.size() ? item_columns[col->index] : std::string("expr"));
  }
  return name + "_idx";
}

}  // namespace tandem::planner
