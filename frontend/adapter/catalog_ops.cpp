#include "frontend/adapter/catalog_ops.hpp"

#include <set>

#include <spdlog/spdlog.h>

#include "catalog/builtin_relations.hpp"
#include "catalog/catalog_errors.hpp"
#include "catalog/controller_status.hpp"
#include "common/func_resolve.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/parser/name_rewrite.hpp"
#include "planner/parser/parser.hpp"
#include "planner/parser/printer.hpp"
#include "planner/read_planner.hpp"
#include "frontend/adapter/session_catalog.hpp"

namespace tandem::frontend {
namespace {

ColumnType text_type() { return ColumnType{TypeId::kText, -1, false}; }

ExecResult rows_result(std::vector<ResultColumn> columns, std::vector<Row> rows) {
  ExecResult r;
  r.returns_rows = true;
  r.columns = std::move(columns);
  r.tag = "SELECT " + std::to_string(rows.size());
  r.rows = std::move(rows);
  return r;
}

void add_notices(ExecResult& r, const std::vector<Status>& notices) {
  for (const Status& n : notices) r.notices.push_back(ResultNotice{ResultNotice::Severity::kNotice, n});
}

// The schema a CREATE puts a new item in, and its qualified name.
Result<catalog::QualifiedName> qualify_new(const catalog::CatalogSnapshot& snapshot, const catalog::SearchPath& path,
                                           const sql::ObjectName& name) {
  const auto& parts = name.parts;
  if (parts.empty() || parts.size() > 3) {
    return Status::error(sqlstate::kSyntaxError, "improper qualified name (too many dotted names)");
  }
  catalog::QualifiedName q;
  q.item = parts.back();
  if (parts.size() == 1) {
    q.database = path.database;
    q.schema = path.schemas.empty() ? catalog::kPublicSchema : path.schemas.front();
  } else if (parts.size() == 2) {
    q.database = path.database;
    q.schema = parts[0];
  } else {
    q.database = parts[0];
    q.schema = parts[1];
  }
  std::optional<std::string> db = parts.size() == 3 ? std::optional<std::string>(q.database) : std::nullopt;
  TANDEM_ASSIGN_OR_RETURN(const catalog::Schema* schema, snapshot.resolve_schema(db, q.schema, path));
  q.database = schema->database;
  return q;
}

// {database, schema, item}, or {schema, item} in an ambient schema.
std::vector<std::string> qualified_parts(const catalog::QualifiedName& name) {
  if (name.database.empty()) return {name.schema, name.item};
  return {name.database, name.schema, name.item};
}

// The create_sql persisted for an item: its canonical statement printed.
template <typename Create>
std::string print_create(Create canonical) {
  sql::Statement stmt;
  stmt.node = std::move(canonical);
  return sql::print(stmt);
}

// Rewrites every catalog object reference in `query` to the fully qualified
// name it resolves to with `path` (CTE names and unknown names stay).
void qualify_references(const catalog::CatalogSnapshot& snapshot, const catalog::SearchPath& path, sql::Query& query) {
  sql::rewrite_object_names(query, [&](const std::vector<std::string>& parts) -> std::optional<std::vector<std::string>> {
    auto found = snapshot.resolve_item(partial_name(sql::ObjectName{parts, {}}), path);
    if (!found.ok()) return std::nullopt;
    return qualified_parts((*found)->name);
  });
}

}  // namespace

// The catalog spec of a table, from its CREATE TABLE statement (also used to
// re-plan persisted tables at boot). The create_sql names the table fully.
Result<catalog::ItemSpec> table_spec(const catalog::CatalogSnapshot& snapshot, const catalog::SearchPath& path,
                                     const sql::CreateTable& create) {
  if (create.temporary) return Status::error(sqlstate::kFeatureNotSupported, "CREATE TEMPORARY TABLE is not supported");
  catalog::ItemSpec spec;
  spec.kind = catalog::ItemKind::kTable;
  TANDEM_ASSIGN_OR_RETURN(spec.name, qualify_new(snapshot, path, create.name));
  catalog::TableDetails details;
  std::set<std::string> seen;
  for (const auto& col : create.columns) {
    if (!seen.insert(col.name).second) {
      return Status::error(sqlstate::kDuplicateColumn, "column \"" + col.name + "\" specified more than once")
          .with_position(static_cast<int>(col.pos.offset) + 1);
    }
    TANDEM_ASSIGN_OR_RETURN(ColumnType type, column_type_of(col.type));
    catalog::TableColumnInfo info;
    info.not_null = col.not_null || col.primary_key;
    type.nullable = !info.not_null;
    if (col.default_value) {
      // The default must bind and coerce to the column's type now.
      std::vector<ColumnType> no_params;
      planner::Scope scope;
      planner::ExprBinder binder(scope, &no_params, 0);
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, binder.bind(*col.default_value));
      auto cast = make_cast(std::move(e), type, CastContext::kAssignment);
      if (!cast.ok()) return cast.status();
      info.default_sql = sql::print(*col.default_value);
    }
    spec.desc.columns.push_back({col.name, type});
    details.columns.push_back(info);
    if (col.primary_key) {
      if (details.primary_key) {
        return Status::error(sqlstate::kInvalidTableDefinition,
                             "multiple primary keys for table \"" + spec.name.item + "\" are not allowed");
      }
      details.primary_key = std::vector<size_t>{spec.desc.columns.size() - 1};
    }
    if (col.unique) details.unique_keys.push_back({spec.desc.columns.size() - 1});
  }
  for (const auto& c : create.constraints) {
    std::vector<size_t> key;
    for (const auto& name : c.columns) {
      auto index = spec.desc.column_index(name);
      if (!index) {
        return Status::error(sqlstate::kUndefinedColumn, "column \"" + name + "\" named in key does not exist")
            .with_position(static_cast<int>(c.pos.offset) + 1);
      }
      key.push_back(*index);
    }
    if (c.primary_key) {
      if (details.primary_key) {
        return Status::error(sqlstate::kInvalidTableDefinition,
                             "multiple primary keys for table \"" + spec.name.item + "\" are not allowed");
      }
      for (size_t i : key) {
        details.columns[i].not_null = true;
        spec.desc.columns[i].type.nullable = false;
      }
      details.primary_key = key;
    } else {
      details.unique_keys.push_back(key);
    }
  }
  if (details.primary_key) spec.desc.keys.push_back(*details.primary_key);
  for (const auto& k : details.unique_keys) spec.desc.keys.push_back(k);
  for (auto& k : spec.desc.keys) std::sort(k.begin(), k.end());
  spec.details = std::move(details);
  // Persist a self-contained statement: the fully qualified name.
  sql::CreateTable canonical = create;
  canonical.name.parts = {spec.name.database, spec.name.schema, spec.name.item};
  canonical.if_not_exists = false;
  spec.create_sql = print_create(std::move(canonical));
  return spec;
}

std::vector<UniqueKey> unique_keys_of(const catalog::Item& item) {
  std::vector<UniqueKey> keys;
  for (auto& k : catalog::table_keys(item)) {
    UniqueKey key{std::move(k.name), std::move(k.columns)};
    for (size_t c : key.columns) {
      key.column_names.push_back(item.desc.columns[c].name);
      key.column_types.push_back(item.desc.columns[c].type);
    }
    keys.push_back(std::move(key));
  }
  return keys;
}

namespace {

Result<const catalog::Item*> resolve(const catalog::CatalogSnapshot& snapshot, const catalog::SearchPath& path,
                                     const sql::ObjectName& name) {
  return snapshot.resolve_item(partial_name(name), path);
}

// Plans an index's dataflow (exporting `index_id`) as of now.
Result<compute::DataflowDescription> index_dataflow(Engine& engine, const catalog::SearchPath& path,
                                                    const sql::CreateIndex& create, compute::GlobalId index_id) {
  SessionCatalog reader(engine.catalog.snapshot(), path);
  planner::PlanContext ctx;
  Coordinator* coord = &engine.coordinator;
  ctx.allocate_id = [coord] { return coord->allocate_transient_id(); };
  ctx.as_of = engine.coordinator.read_ts();
  auto planned = planner::plan_index(create, index_id, reader, ctx);
  if (planned.ok()) TANDEM_RETURN_IF_ERROR(reader.refuse_builtin_catalog_relations("an index"));
  if (planned.ok()) TANDEM_RETURN_IF_ERROR(reader.refuse_introspection_relations("index"));
  return planned;
}

// The catalog spec of an index. `desc` is its planned dataflow (for the key).
Result<catalog::ItemSpec> index_spec(const catalog::CatalogSnapshot& snapshot, const catalog::SearchPath& path,
                                     const std::string& cluster_name, const sql::CreateIndex& create,
                                     const compute::DataflowDescription& desc) {
  TANDEM_ASSIGN_OR_RETURN(const catalog::Item* on, resolve(snapshot, path, create.on));
  if (on->kind == catalog::ItemKind::kIndex) {
    return Status::error(sqlstate::kWrongObjectType, "cannot create an index on index \"" + on->name.item + "\"");
  }
  std::string cluster_of = create.in_cluster.empty() ? cluster_name : create.in_cluster;
  TANDEM_ASSIGN_OR_RETURN(const catalog::Cluster* cluster, snapshot.resolve_cluster(cluster_of));
  catalog::ItemSpec spec;
  spec.kind = catalog::ItemKind::kIndex;
  spec.cluster = cluster->id;
  spec.dependencies = {on->id};
  spec.desc = on->desc;
  catalog::IndexDetails details;
  details.on = on->id;
  const auto& key = desc.index_exports.front().key;
  std::string generated = on->name.item;
  for (size_t i = 0; i < key.size(); ++i) {
    catalog::IndexKey k;
    k.type = key[i].type();
    if (auto* col = std::get_if<ColumnRef>(&key[i].node)) {
      k.column = col->index;
      k.sql = sql::quote_ident(on->desc.columns[col->index].name);
      generated += "_" + on->desc.columns[col->index].name;
    } else {
      k.sql = i < create.key_parts.size() ? sql::print(create.key_parts[i]) : print(key[i]);
      generated += "_expr";
    }
    details.keys.push_back(std::move(k));
  }
  details.unique = create.unique;
  spec.details = std::move(details);
  spec.name = on->name;
  spec.name.item = !create.name.empty() ? create.name : create.default_index ? on->name.item + "_primary_idx"
                                                                            : generated + "_idx";
  sql::CreateIndex canonical = create;
  canonical.name = spec.name.item;
  canonical.in_cluster = cluster->name;
  canonical.on.parts = {on->name.database, on->name.schema, on->name.item};
  if (on->name.database.empty()) canonical.on.parts.erase(canonical.on.parts.begin());
  canonical.if_not_exists = false;
  spec.create_sql = print_create(std::move(canonical));
  return spec;
}

// The item an index is on.
compute::GlobalId table_of_index(const catalog::ItemSpec& index) {
  return catalog::to_compute_id(std::get<catalog::IndexDetails>(index.details).on);
}

// An index's qualified name as written in SQL.
sql::ObjectName create_name(const catalog::ItemSpec& index) {
  sql::ObjectName name;
  name.parts = {index.name.database, index.name.schema, index.name.item};
  if (index.name.database.empty()) name.parts.erase(name.parts.begin());
  return name;
}

// The unique key a unique index enforces: its columns, which must be plain
// columns of a table.
Result<UniqueKey> unique_index_key(const catalog::CatalogSnapshot& snapshot, const catalog::ItemSpec& index) {
  const auto& details = std::get<catalog::IndexDetails>(index.details);
  const catalog::Item* on = snapshot.item(details.on);
  if (on == nullptr || on->kind != catalog::ItemKind::kTable) {
    return Status::error(sqlstate::kFeatureNotSupported, "CREATE UNIQUE INDEX is supported on tables only")
        .with_hint("A unique index is enforced on writes, and only tables are written.");
  }
  UniqueKey key;
  key.name = index.name.item;
  for (const auto& k : details.keys) {
    if (!k.column) {
      return Status::error(sqlstate::kFeatureNotSupported, "CREATE UNIQUE INDEX on expressions is not supported");
    }
    key.columns.push_back(*k.column);
    key.column_names.push_back(on->desc.columns[*k.column].name);
    key.column_types.push_back(on->desc.columns[*k.column].type);
  }
  return key;
}

}  // namespace

Result<ExecResult> alter_rename(Engine& engine, const catalog::SearchPath& path, const sql::AlterRename& rename) {
  static const std::map<sql::ObjectType, std::pair<catalog::ItemKind, const char*>> kinds = {
      {sql::ObjectType::kTable, {catalog::ItemKind::kTable, "ALTER TABLE"}},
      {sql::ObjectType::kView, {catalog::ItemKind::kView, "ALTER VIEW"}},
      {sql::ObjectType::kMaterializedView, {catalog::ItemKind::kMaterializedView, "ALTER MATERIALIZED VIEW"}},
      {sql::ObjectType::kIndex, {catalog::ItemKind::kIndex, "ALTER INDEX"}},
  };
  auto kind = kinds.find(rename.type);
  if (kind == kinds.end()) return Status::error(sqlstate::kFeatureNotSupported, "this ALTER ... RENAME is not supported yet");
  ExecResult r;
  r.tag = kind->second.second;
  auto snapshot = engine.catalog.snapshot();
  auto found = resolve(*snapshot, path, rename.name);
  if (!found.ok()) {
    if (!rename.if_exists) return found.status();
    r.notices.push_back(ResultNotice{ResultNotice::Severity::kNotice,
                                     Status::error(sqlstate::kUndefinedTable, std::string(catalog::item_kind_noun(kind->second.first)) +
                                                                                  " \"" + rename.name.parts.back() +
                                                                                  "\" does not exist, skipping")});
    return r;
  }
  const catalog::Item* item = *found;
  if (item->id.is_system()) return catalog::errors::system_object("item", item->name.to_string());
  if (item->kind != kind->second.first) {
    return Status::error(sqlstate::kWrongObjectType, "\"" + item->name.item + "\" is not a " +
                                                         std::string(catalog::item_kind_noun(kind->second.first)));
  }
  // Rewrites a stored statement's object names: the renamed item itself, or
  // the ON clause of an index on it.
  auto rewrite = [&](const catalog::Item& target) -> Result<std::string> {
    TANDEM_ASSIGN_OR_RETURN(sql::Statement stmt, sql::parse_one(target.create_sql));
    if (auto* t = stmt.as<sql::CreateTable>()) {
      t->name.parts.back() = rename.new_name;
    } else if (auto* v = stmt.as<sql::CreateView>()) {
      v->name.parts.back() = rename.new_name;
    } else if (auto* m = stmt.as<sql::CreateMaterializedView>()) {
      m->name.parts.back() = rename.new_name;
    } else if (auto* i = stmt.as<sql::CreateIndex>()) {
      if (target.id == item->id) {
        i->name = rename.new_name;
      } else {
        i->on.parts.back() = rename.new_name;
      }
    }
    return sql::print(stmt);
  };
  // Rewrites a view's query: every reference that resolves to the renamed
  // item now names it by its new, fully qualified name. References resolve
  // as at boot (the default search path); views created since they were
  // stored fully qualified are unambiguous anyway.
  std::vector<std::string> new_parts = qualified_parts(item->name);
  new_parts.back() = rename.new_name;
  auto rewrite_query = [&](sql::Query& query) {
    return sql::rewrite_object_names(
        query, [&](const std::vector<std::string>& parts) -> std::optional<std::vector<std::string>> {
          auto found = snapshot->resolve_item(partial_name(sql::ObjectName{parts, {}}), catalog::SearchPath{});
          if (!found.ok() || (*found)->id != item->id) return std::nullopt;
          return new_parts;
        });
  };
  catalog::SqlRewrites rewrites;
  TANDEM_ASSIGN_OR_RETURN(rewrites[item->id], rewrite(*item));
  // Only direct dependents name the item (a view over a view over it names
  // the middle view); the recorded dependencies may also list items a view
  // reached through the views it reads, whose text then does not change.
  for (catalog::ItemId dependent : snapshot->dependents(item->id)) {
    const catalog::Item* d = snapshot->item(dependent);
    if (d->kind == catalog::ItemKind::kIndex) {
      TANDEM_ASSIGN_OR_RETURN(rewrites[dependent], rewrite(*d));
      continue;
    }
    TANDEM_ASSIGN_OR_RETURN(sql::Statement stmt, sql::parse_one(d->create_sql));
    // A view's or materialized view's query names the item; the dataflows
    // of either do not change (they read collections by id).
    sql::Query* query = nullptr;
    if (auto* view = stmt.as<sql::CreateView>()) query = &view->query;
    if (auto* mv = stmt.as<sql::CreateMaterializedView>()) query = &mv->query;
    if (query == nullptr) {
      return Status::error(sqlstate::kInternalError, "cannot rename \"" + item->name.item + "\": " +
                                                         std::string(catalog::item_kind_noun(d->kind)) + " \"" +
                                                         d->name.item + "\" uses it");
    }
    if (rewrite_query(*query) > 0) rewrites[dependent] = sql::print(stmt);
  }
  TANDEM_RETURN_IF_ERROR(engine.catalog.rename_item(item->id, rename.new_name, rewrites));
  return r;
}

uint64_t cluster_key(catalog::ClusterId id) { return catalog::cluster_to_compute(id); }

ClusterCompute cluster_compute(const std::string& size, const catalog::SystemVars& vars) {
  ClusterCompute compute;
  auto workers = workers_for_size(size);
  compute.workers = workers.ok() ? *workers : 1;
  compute.interactive_runtime = vars.get_bool(catalog::kEnableComputeInteractiveRuntime);
  compute.interactive_dataflows = vars.get_bool(catalog::kEnableComputeInteractiveDataflows);
  compute.background_maintenance = vars.get_bool(catalog::kEnableComputeMaintenanceBackground);
  return compute;
}

Result<size_t> workers_for_size(const std::string& size) {
  auto number = [](std::string_view s) -> std::optional<size_t> {
    size_t n = 0;
    if (s.empty() || s.size() > 3) return std::nullopt;
    for (char c : s) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + static_cast<size_t>(c - '0');
    }
    return n;
  };
  if (auto n = number(size)) {
    if (*n == 0 || *n > 64) return Status::error(sqlstate::kInvalidParameterValue, "invalid SIZE: '" + size + "'");
    return *n;
  }
  if (size.rfind("scale=", 0) == 0) {
    auto comma = size.find(",workers=");
    if (comma == std::string::npos) return Status::error(sqlstate::kInvalidParameterValue, "invalid SIZE: '" + size + "'");
    auto scale = number(std::string_view(size).substr(6, comma - 6));
    auto workers = number(std::string_view(size).substr(comma + 9));
    if (!scale || !workers || *workers == 0 || *workers > 64) {
      return Status::error(sqlstate::kInvalidParameterValue, "invalid SIZE: '" + size + "'");
    }
    if (*scale != 1) {
      return Status::error(sqlstate::kFeatureNotSupported, "clusters of more than one process are not supported");
    }
    return *workers;
  }
  return size_t{1};  // credit sizes: one worker on this machine
}

Result<ExecResult> create_cluster(Engine& engine, const sql::CreateCluster& create) {
  catalog::ClusterSpec spec;
  spec.name = create.name;
  std::vector<sql::Option> options = create.options;
  if (create.has_replicas) {
    if (create.replicas.size() != 1) {
      return Status::error(sqlstate::kFeatureNotSupported, "clusters with other than one replica are not supported yet");
    }
    options.insert(options.end(), create.replicas[0].options.begin(), create.replicas[0].options.end());
  }
  for (const auto& o : options) {
    if (o.name == "size") {
      spec.size = o.value.text;
    } else if (o.name == "replication factor") {
      if (o.value.text != "1") {
        return Status::error(sqlstate::kFeatureNotSupported, "REPLICATION FACTOR other than 1 is not supported yet");
      }
    } else if (o.name != "introspection interval" && o.name != "introspection debugging") {
      return Status::error(sqlstate::kFeatureNotSupported, "cluster option \"" + o.name + "\" is not supported");
    }
  }
  if (auto workers = workers_for_size(spec.size); !workers.ok()) return workers.status();
  spec.create_sql = "CREATE CLUSTER " + sql::quote_ident(spec.name) + " (SIZE = " + sql::quote_string(spec.size) + ")";
  spec.owner = engine.owner;
  TANDEM_ASSIGN_OR_RETURN(catalog::DdlResult ddl, engine.catalog.create_cluster(spec, false));
  if (ddl.created_cluster) {
    const auto snapshot = engine.catalog.snapshot();
    Status started =
        engine.coordinator.add_cluster(cluster_key(*ddl.created_cluster), cluster_compute(spec.size, snapshot->system_vars()));
    if (!started.is_ok()) {
      (void)engine.catalog.drop_cluster(spec.name, true, catalog::DropBehavior::kRestrict);
      return started;
    }
  }
  ExecResult r;
  r.tag = "CREATE CLUSTER";
  add_notices(r, ddl.notices);
  return r;
}

Result<ExecResult> drop_cluster(Engine& engine, const sql::DropObjects& drop) {
  ExecResult r;
  r.tag = "DROP CLUSTER";
  auto behavior = drop.cascade ? catalog::DropBehavior::kCascade : catalog::DropBehavior::kRestrict;
  for (const auto& name : drop.names) {
    const std::string& cluster_name = name.parts.back();
    const catalog::Cluster* cluster = engine.catalog.state().find_cluster(cluster_name);
    std::optional<uint64_t> key = cluster ? std::optional<uint64_t>(cluster_key(cluster->id)) : std::nullopt;
    TANDEM_ASSIGN_OR_RETURN(catalog::DdlResult ddl, engine.catalog.drop_cluster(cluster_name, drop.if_exists, behavior));
    retire_dropped(engine, ddl.dropped);
    if (key) engine.coordinator.drop_cluster(*key);
    add_notices(r, ddl.notices);
  }
  return r;
}

Result<ExecResult> show_clusters(const catalog::CatalogSnapshot& snapshot) {
  std::vector<Row> rows;
  for (const catalog::Cluster* c : snapshot.clusters()) {
    std::string replicas = "r1 (" + c->size + ")";
    Datum d[] = {Datum::from_string(c->name), Datum::from_string(replicas)};
    rows.push_back(Row::pack(d));
  }
  return rows_result({{"name", text_type()}, {"replicas", text_type()}}, std::move(rows));
}

catalog::SearchPath search_path_of(const std::string& database, const std::string& search_path_var) {
  catalog::SearchPath path;
  path.database = database;
  path.schemas.clear();
  size_t start = 0;
  while (start <= search_path_var.size()) {
    size_t comma = search_path_var.find(',', start);
    std::string part = search_path_var.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    auto b = part.find_first_not_of(" \t");
    auto e = part.find_last_not_of(" \t");
    if (b != std::string::npos) {
      part = part.substr(b, e - b + 1);
      if (part.size() >= 2 && part.front() == '"' && part.back() == '"') {
        part = part.substr(1, part.size() - 2);
      } else {
        for (char& c : part) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      path.schemas.push_back(part);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return path;
}

catalog::PartialName partial_name(const sql::ObjectName& name) {
  catalog::PartialName p;
  const auto& parts = name.parts;
  p.item = parts.empty() ? "" : parts.back();
  if (parts.size() >= 2) p.schema = parts[parts.size() - 2];
  if (parts.size() >= 3) p.database = parts[parts.size() - 3];
  return p;
}

Result<ColumnType> column_type_of(const sql::TypeName& type) {
  std::string name;
  for (size_t i = 0; i < type.name.size(); ++i) {
    if (type.name.size() == 2 && i == 0 && (type.name[0] == "pg_catalog" || type.name[0] == "mz_catalog")) continue;
    if (!name.empty()) name += ".";
    name += type.name[i];
  }
  if (type.array_dims > 0) name += "[]";  // int[][] is int[], as in PostgreSQL
  return type_from_name(name, type.modifiers);
}

Result<ExecResult> create_table(Engine& engine, const catalog::SearchPath& path, const sql::CreateTable& create) {
  TANDEM_ASSIGN_OR_RETURN(catalog::ItemSpec spec, table_spec(*engine.catalog.snapshot(), path, create));
  TANDEM_ASSIGN_OR_RETURN(storage::ShardId shard, engine.coordinator.allocate_shard_id());
  std::get<catalog::TableDetails>(spec.details).shard = shard;
  auto mode = create.if_not_exists ? catalog::CreateMode::kIfNotExists : catalog::CreateMode::kCreate;
  spec.owner = engine.owner;
  TANDEM_ASSIGN_OR_RETURN(catalog::DdlResult ddl, engine.catalog.create_item(std::move(spec), mode));
  ExecResult r;
  r.tag = "CREATE TABLE";
  add_notices(r, ddl.notices);
  if (ddl.created_item) {
    const catalog::Item* item = engine.catalog.state().item(*ddl.created_item);
    Status opened = engine.coordinator.open_table(catalog::to_compute_id(item->id), shard, unique_keys_of(*item));
    if (!opened.is_ok()) {
      std::vector<catalog::ItemId> ids{*ddl.created_item};
      (void)engine.catalog.drop_items(ids, catalog::DropBehavior::kRestrict);
      return opened;
    }
  }
  return r;
}

namespace {

Result<catalog::ItemSpec> view_spec(const catalog::CatalogSnapshot& snapshot, std::shared_ptr<const catalog::CatalogSnapshot> shared,
                                    const catalog::SearchPath& path, const sql::CreateView& create) {
  if (create.temporary) return Status::error(sqlstate::kFeatureNotSupported, "CREATE TEMPORARY VIEW is not supported");
  catalog::ItemSpec spec;
  spec.kind = catalog::ItemKind::kView;
  TANDEM_ASSIGN_OR_RETURN(spec.name, qualify_new(snapshot, path, create.name));
  SessionCatalog reader(std::move(shared), path);
  TANDEM_ASSIGN_OR_RETURN(spec.desc, planner::plan_view(create.query, create.columns, reader));
  TANDEM_RETURN_IF_ERROR(reader.refuse_introspection_relations("view"));
  spec.dependencies = reader.resolved_ids();
  sql::CreateView canonical = create;
  canonical.name.parts = qualified_parts(spec.name);
  // Store every reference fully qualified, as this session resolved it, so
  // the text means the same objects under any search_path, at boot, and
  // after a rename rewrites it (planner/parser/name_rewrite.hpp).
  qualify_references(snapshot, path, canonical.query);
  canonical.or_replace = false;
  canonical.if_not_exists = false;
  spec.create_sql = print_create(std::move(canonical));
  return spec;
}

}  // namespace

Result<ExecResult> create_view(Engine& engine, const catalog::SearchPath& path, const sql::CreateView& create) {
  auto snapshot = engine.catalog.snapshot();
  TANDEM_ASSIGN_OR_RETURN(catalog::ItemSpec spec, view_spec(*snapshot, snapshot, path, create));
  auto mode = create.or_replace      ? catalog::CreateMode::kOrReplace
              : create.if_not_exists ? catalog::CreateMode::kIfNotExists
                                     : catalog::CreateMode::kCreate;
  spec.owner = engine.owner;
  TANDEM_ASSIGN_OR_RETURN(catalog::DdlResult ddl, engine.catalog.create_item(std::move(spec), mode));
  retire_dropped(engine, ddl.dropped);  // OR REPLACE drops the old view and its dependents
  ExecResult r;
  r.tag = "CREATE VIEW";
  add_notices(r, ddl.notices);
  return r;
}

Result<ExecResult> create_index(Engine& engine, const catalog::SearchPath& path, const std::string& cluster,
                                const sql::CreateIndex& create) {
  // Plan under a provisional id to learn the key, then create the item and
  // install the dataflow under the item's id.
  compute::GlobalId provisional = engine.coordinator.allocate_transient_id();
  TANDEM_ASSIGN_OR_RETURN(compute::DataflowDescription probe, index_dataflow(engine, path, create, provisional));
  TANDEM_ASSIGN_OR_RETURN(catalog::ItemSpec spec, index_spec(*engine.catalog.snapshot(), path, cluster, create, probe));
  // A unique index is enforced before it exists: the rows present must not
  // repeat its key. (IF NOT EXISTS over an existing name adds nothing.)
  const compute::GlobalId table = table_of_index(spec);
  std::optional<UniqueKey> unique;
  if (create.unique && !engine.catalog.snapshot()->resolve_item(partial_name(create_name(spec)), path).ok()) {
    TANDEM_ASSIGN_OR_RETURN(UniqueKey key, unique_index_key(*engine.catalog.snapshot(), spec));
    TANDEM_RETURN_IF_ERROR(engine.coordinator.add_unique_key(table, key));
    unique = std::move(key);
  }
  auto mode = create.if_not_exists ? catalog::CreateMode::kIfNotExists : catalog::CreateMode::kCreate;
  spec.owner = engine.owner;
  auto created = engine.catalog.create_item(std::move(spec), mode);
  if (unique && (!created.ok() || !created->created_item)) engine.coordinator.drop_unique_key(table, unique->name);
  TANDEM_ASSIGN_OR_RETURN(catalog::DdlResult ddl, std::move(created));
  ExecResult r;
  r.tag = "CREATE INDEX";
  add_notices(r, ddl.notices);
  if (ddl.created_item) {
    compute::GlobalId id = catalog::to_compute_id(*ddl.created_item);
    compute::DataflowDescription desc = std::move(probe);
    desc.index_exports.front().index_id = id;
    const catalog::Item* item = engine.catalog.state().item(*ddl.created_item);
    desc.debug_name = "Dataflow: " + item->name.to_string();
    TANDEM_RETURN_IF_ERROR(engine.coordinator.send(cluster_key(*item->cluster), compute::CreateDataflow{std::move(desc)}));
    engine.dataflow_clusters.push_back(cluster_key(*item->cluster));
  }
  return r;
}

namespace {

// The catalog spec of a materialized view (also used to re-plan it at boot).
// `cluster_name` is the session's cluster; IN CLUSTER overrides it.
Result<catalog::ItemSpec> materialized_view_spec(std::shared_ptr<const catalog::CatalogSnapshot> snapshot,
                                                 const catalog::SearchPath& path, const std::string& cluster_name,
                                                 const sql::CreateMaterializedView& create) {
  catalog::ItemSpec spec;
  spec.kind = catalog::ItemKind::kMaterializedView;
  TANDEM_ASSIGN_OR_RETURN(spec.name, qualify_new(*snapshot, path, create.name));
  TANDEM_ASSIGN_OR_RETURN(const catalog::Cluster* cluster,
                          snapshot->resolve_cluster(create.in_cluster.empty() ? cluster_name : create.in_cluster));
  spec.cluster = cluster->id;
  SessionCatalog reader(snapshot, path);
  TANDEM_ASSIGN_OR_RETURN(spec.desc, planner::plan_view(create.query, create.columns, reader));
  TANDEM_RETURN_IF_ERROR(reader.refuse_builtin_catalog_relations("a materialized view"));
  TANDEM_RETURN_IF_ERROR(reader.refuse_introspection_relations("materialized view"));
  spec.dependencies = reader.resolved_ids();
  spec.details = catalog::MaterializedViewDetails{};
  sql::CreateMaterializedView canonical = create;
  canonical.name.parts = qualified_parts(spec.name);
  qualify_references(*snapshot, path, canonical.query);
  canonical.in_cluster = cluster->name;
  canonical.or_replace = false;
  canonical.if_not_exists = false;
  spec.create_sql = print_create(std::move(canonical));
  return spec;
}

// The dataflow of a materialized view on `cluster`, as of now: it imports
// only that cluster's indexes and sinks its output (into the view, once
// install_materialized_view knows its id).
Result<compute::DataflowDescription> materialized_view_dataflow(Engine& engine, const catalog::SearchPath& path,
                                                                catalog::ClusterId cluster,
                                                                const sql::CreateMaterializedView& create) {
  SessionCatalog reader(engine.catalog.snapshot(), path, cluster);
  planner::PlanContext ctx;
  Coordinator* coord = &engine.coordinator;
  ctx.allocate_id = [coord] { return coord->allocate_transient_id(); };
  ctx.as_of = engine.coordinator.read_ts();
  compute::GlobalId export_id = engine.coordinator.allocate_transient_id();
  TANDEM_ASSIGN_OR_RETURN(compute::DataflowDescription desc,
                          planner::plan_materialized_view(create.query, export_id, reader, ctx));
  desc.sink_exports.push_back(compute::SinkExport{0, export_id});  // the view's id once it exists
  return desc;
}

// Installs a created (or replayed) materialized view in storage and compute:
// `desc` was planned before the item existed; it now sinks into the item.
Status install_materialized_view(Engine& engine, const catalog::Item& item, compute::DataflowDescription desc) {
  compute::GlobalId id = catalog::to_compute_id(item.id);
  desc.sink_exports.front().sink_id = id;
  desc.debug_name = "Dataflow: " + item.name.to_string();
  engine.dataflow_clusters.push_back(cluster_key(*item.cluster));
  return engine.coordinator.create_materialized_view(id, item.materialized_view()->shard, cluster_key(*item.cluster),
                                                     std::move(desc));
}

}  // namespace

void retire_dropped(Engine& engine, const std::vector<std::shared_ptr<const catalog::Item>>& dropped) {
  for (const auto& item : dropped) {
    compute::GlobalId id = catalog::to_compute_id(item->id);
    if (item->kind == catalog::ItemKind::kIndex && item->cluster) {
      (void)engine.coordinator.send(cluster_key(*item->cluster), compute::DropDataflow{id});
      if (item->index()->unique) {
        engine.coordinator.drop_unique_key(catalog::to_compute_id(item->index()->on), item->name.item);
      }
    } else if (item->kind == catalog::ItemKind::kTable) {
      Status s = engine.coordinator.drop_table(id);
      if (!s.is_ok()) spdlog::error("dropping table {}: {}", item->name.to_string(), s.to_string());
    } else if (item->kind == catalog::ItemKind::kMaterializedView) {
      Status s = engine.coordinator.drop_materialized_view(id);
      if (!s.is_ok()) spdlog::error("dropping materialized view {}: {}", item->name.to_string(), s.to_string());
    }
  }
}

Result<ExecResult> create_materialized_view(Engine& engine, const catalog::SearchPath& path, const std::string& cluster,
                                            const sql::CreateMaterializedView& create) {
  auto snapshot = engine.catalog.snapshot();
  TANDEM_ASSIGN_OR_RETURN(catalog::ItemSpec spec, materialized_view_spec(snapshot, path, cluster, create));
  // The dataflow must plan before anything is created.
  TANDEM_ASSIGN_OR_RETURN(compute::DataflowDescription desc,
                          materialized_view_dataflow(engine, path, *spec.cluster, create));
  TANDEM_ASSIGN_OR_RETURN(storage::ShardId shard, engine.coordinator.allocate_shard_id());
  std::get<catalog::MaterializedViewDetails>(spec.details).shard = shard;
  auto mode = create.or_replace      ? catalog::CreateMode::kOrReplace
              : create.if_not_exists ? catalog::CreateMode::kIfNotExists
                                     : catalog::CreateMode::kCreate;
  spec.owner = engine.owner;
  TANDEM_ASSIGN_OR_RETURN(catalog::DdlResult ddl, engine.catalog.create_item(std::move(spec), mode));
  retire_dropped(engine, ddl.dropped);  // OR REPLACE: the old view and its dependents
  ExecResult r;
  r.tag = "CREATE MATERIALIZED VIEW";
  add_notices(r, ddl.notices);
  if (ddl.created_item) {
    const catalog::Item* item = engine.catalog.state().item(*ddl.created_item);
    Status installed = install_materialized_view(engine, *item, std::move(desc));
    if (!installed.is_ok()) {
      std::vector<catalog::ItemId> ids{*ddl.created_item};
      (void)engine.catalog.drop_items(ids, catalog::DropBehavior::kRestrict);
      (void)engine.coordinator.drop_materialized_view(catalog::to_compute_id(*ddl.created_item));
      return installed;
    }
  }
  return r;
}

Result<ExecResult> drop_objects(Engine& engine, const catalog::SearchPath& path, const sql::DropObjects& drop) {
  static const std::map<sql::ObjectType, std::pair<catalog::ItemKind, const char*>> kinds = {
      {sql::ObjectType::kTable, {catalog::ItemKind::kTable, "DROP TABLE"}},
      {sql::ObjectType::kView, {catalog::ItemKind::kView, "DROP VIEW"}},
      {sql::ObjectType::kMaterializedView, {catalog::ItemKind::kMaterializedView, "DROP MATERIALIZED VIEW"}},
      {sql::ObjectType::kIndex, {catalog::ItemKind::kIndex, "DROP INDEX"}},
  };
  if (drop.type == sql::ObjectType::kCluster) return drop_cluster(engine, drop);
  auto kind = kinds.find(drop.type);
  if (kind == kinds.end()) return Status::error(sqlstate::kFeatureNotSupported, "this DROP is not supported yet");
  std::vector<catalog::PartialName> names;
  for (const auto& n : drop.names) names.push_back(partial_name(n));
  auto behavior = drop.cascade ? catalog::DropBehavior::kCascade : catalog::DropBehavior::kRestrict;
  TANDEM_ASSIGN_OR_RETURN(catalog::DdlResult ddl,
                          engine.catalog.drop_objects(kind->second.first, names, drop.if_exists, behavior, path));
  retire_dropped(engine, ddl.dropped);
  ExecResult r;
  r.tag = kind->second.second;
  add_notices(r, ddl.notices);
  return r;
}

Status replay_catalog(Engine& engine) {
  std::vector<catalog::PersistedItem> items = engine.catalog.items_to_replay();
  for (const auto& persisted : items) {
    auto parsed = sql::parse_one(persisted.create_sql);
    if (!parsed.ok()) return parsed.status();
    catalog::SearchPath path;
    if (auto* create = parsed->as<sql::CreateTable>()) {
      TANDEM_ASSIGN_OR_RETURN(catalog::ItemSpec spec, table_spec(*engine.catalog.snapshot(), path, *create));
      std::get<catalog::TableDetails>(spec.details).shard = persisted.shard.value_or(0);
      spec.create_sql = persisted.create_sql;
      TANDEM_ASSIGN_OR_RETURN(catalog::ItemId id, engine.catalog.replay_item(persisted.id, std::move(spec)));
      const catalog::Item* item = engine.catalog.state().item(id);
      TANDEM_RETURN_IF_ERROR(
          engine.coordinator.open_table(catalog::to_compute_id(id), *persisted.shard, unique_keys_of(*item)));
    } else if (auto* view = parsed->as<sql::CreateView>()) {
      auto snapshot = engine.catalog.snapshot();
      TANDEM_ASSIGN_OR_RETURN(catalog::ItemSpec spec, view_spec(*snapshot, snapshot, path, *view));
      spec.create_sql = persisted.create_sql;
      auto replayed = engine.catalog.replay_item(persisted.id, std::move(spec));
      if (!replayed.ok()) return replayed.status();
    } else if (auto* index = parsed->as<sql::CreateIndex>()) {
      compute::GlobalId id = catalog::to_compute_id(persisted.id);
      TANDEM_ASSIGN_OR_RETURN(compute::DataflowDescription desc, index_dataflow(engine, path, *index, id));
      TANDEM_ASSIGN_OR_RETURN(catalog::ItemSpec spec,
                              index_spec(*engine.catalog.snapshot(), path, index->in_cluster, *index, desc));
      spec.create_sql = persisted.create_sql;
      std::optional<catalog::ClusterId> cluster = spec.cluster;
      if (index->unique) {
        TANDEM_ASSIGN_OR_RETURN(UniqueKey key, unique_index_key(*engine.catalog.snapshot(), spec));
        TANDEM_RETURN_IF_ERROR(engine.coordinator.add_unique_key(table_of_index(spec), std::move(key)));
      }
      auto replayed = engine.catalog.replay_item(persisted.id, std::move(spec));
      if (!replayed.ok()) return replayed.status();
      if (const catalog::Item* item = engine.catalog.state().item(persisted.id)) {
        desc.debug_name = "Dataflow: " + item->name.to_string();
      }
      TANDEM_RETURN_IF_ERROR(engine.coordinator.send(cluster_key(*cluster), compute::CreateDataflow{std::move(desc)}));
    } else if (auto* mv = parsed->as<sql::CreateMaterializedView>()) {
      TANDEM_ASSIGN_OR_RETURN(catalog::ItemSpec spec, materialized_view_spec(engine.catalog.snapshot(), path, mv->in_cluster, *mv));
      std::get<catalog::MaterializedViewDetails>(spec.details).shard = persisted.shard.value_or(0);
      spec.create_sql = persisted.create_sql;
      TANDEM_ASSIGN_OR_RETURN(catalog::ItemId id, engine.catalog.replay_item(persisted.id, std::move(spec)));
      const catalog::Item* item = engine.catalog.state().item(id);
      TANDEM_ASSIGN_OR_RETURN(compute::DataflowDescription desc,
                              materialized_view_dataflow(engine, path, *item->cluster, *mv));
      TANDEM_RETURN_IF_ERROR(install_materialized_view(engine, *item, std::move(desc)));
    } else {
      return Status::error(sqlstate::kInternalError, "cannot replay catalog item " + persisted.id.to_string() + ": " +
                                                         persisted.create_sql);
    }
  }
  return Status::ok();
}

Result<ExecResult> show_objects(const catalog::CatalogSnapshot& snapshot, const catalog::SearchPath& path,
                                const sql::ShowObjects& show) {
  using Kind = sql::ShowObjects::Kind;
  std::optional<catalog::ItemKind> kind;
  switch (show.kind) {
    case Kind::kObjects: break;
    case Kind::kTables: kind = catalog::ItemKind::kTable; break;
    case Kind::kViews: kind = catalog::ItemKind::kView; break;
    case Kind::kMaterializedViews: kind = catalog::ItemKind::kMaterializedView; break;
    case Kind::kIndexes: kind = catalog::ItemKind::kIndex; break;
    case Kind::kSources: kind = catalog::ItemKind::kSource; break;
    default:
      return Status::error(sqlstate::kFeatureNotSupported, "this SHOW is not supported yet");
  }
  if (show.where) return Status::error(sqlstate::kFeatureNotSupported, "SHOW ... WHERE is not supported yet");
  std::optional<std::string> db;
  std::string schema_name = path.schemas.empty() ? catalog::kPublicSchema : path.schemas.front();
  if (show.from) {
    const auto& parts = show.from->parts;
    schema_name = parts.back();
    if (parts.size() == 2) db = parts[0];
  }
  TANDEM_ASSIGN_OR_RETURN(const catalog::Schema* schema, snapshot.resolve_schema(db, schema_name, path));
  std::vector<Row> rows;
  for (const catalog::Item* item : snapshot.items_in_schema(schema->database, schema->name)) {
    if (kind && catalog::visible_kind(*item) != *kind) continue;
    if (show.like) {
      // LIKE with % and _ (no escapes): enough for SHOW filters.
      std::function<bool(size_t, size_t)> match = [&](size_t i, size_t j) -> bool {
        const std::string& p = *show.like;
        const std::string& s = item->name.item;
        if (i == p.size()) return j == s.size();
        if (p[i] == '%') return match(i + 1, j) || (j < s.size() && match(i, j + 1));
        return j < s.size() && (p[i] == '_' || p[i] == s[j]) && match(i + 1, j + 1);
      };
      if (!match(0, 0)) continue;
    }
    if (show.kind == Kind::kObjects) {
      Datum d[] = {Datum::from_string(item->name.item),
                   Datum::from_string(catalog::item_kind_type_name(catalog::visible_kind(*item)))};
      rows.push_back(Row::pack(d));
    } else if (show.kind == Kind::kIndexes) {
      // Materialize's columns: name | on | cluster | key.
      const catalog::IndexDetails* details = item->index();
      const catalog::Item* on = details ? snapshot.item(details->on) : nullptr;
      if (on == nullptr) continue;
      if (show.on && on->name.item != show.on->parts.back()) continue;
      const catalog::Cluster* cluster = item->cluster ? snapshot.cluster(*item->cluster) : nullptr;
      if (!show.in_cluster.empty() && (cluster == nullptr || cluster->name != show.in_cluster)) continue;
      std::string key = "{";
      for (size_t i = 0; i < details->keys.size(); ++i) key += (i ? "," : "") + details->keys[i].sql;
      key += "}";
      std::string cluster_name = cluster ? cluster->name : "";
      Datum d[] = {Datum::from_string(item->name.item), Datum::from_string(on->name.item),
                   Datum::from_string(cluster_name), Datum::from_string(key)};
      rows.push_back(Row::pack(d));
    } else if (show.kind == Kind::kMaterializedViews) {
      // Materialize's columns: name | cluster.
      const catalog::Cluster* cluster = item->cluster ? snapshot.cluster(*item->cluster) : nullptr;
      std::string cluster_name = cluster ? cluster->name : "";
      if (!show.in_cluster.empty() && cluster_name != show.in_cluster) continue;
      Datum d[] = {Datum::from_string(item->name.item), Datum::from_string(cluster_name)};
      rows.push_back(Row::pack(d));
    } else {
      rows.push_back(Row::pack_one(Datum::from_string(item->name.item)));
    }
  }
  std::vector<ResultColumn> columns{{"name", text_type()}};
  if (show.kind == Kind::kMaterializedViews) columns.push_back({"cluster", text_type()});
  if (show.kind == Kind::kObjects) columns.push_back({"type", text_type()});
  if (show.kind == Kind::kIndexes) {
    columns.push_back({"on", text_type()});
    columns.push_back({"cluster", text_type()});
    columns.push_back({"key", text_type()});
  }
  return rows_result(std::move(columns), std::move(rows));
}

Result<ExecResult> show_create(const catalog::CatalogSnapshot& snapshot, const catalog::SearchPath& path,
                               const sql::ShowCreate& show) {
  TANDEM_ASSIGN_OR_RETURN(const catalog::Item* item, resolve(snapshot, path, show.name));
  std::string name = item->name.to_string();
  Datum d[] = {Datum::from_string(name), Datum::from_string(item->create_sql)};
  return rows_result({{"name", text_type()}, {"create_sql", text_type()}}, {Row::pack(d)});
}

Result<ExecResult> show_columns(const catalog::CatalogSnapshot& snapshot, const catalog::SearchPath& path,
                                const sql::ShowColumns& show) {
  TANDEM_ASSIGN_OR_RETURN(const catalog::Item* item, resolve(snapshot, path, show.table));
  std::vector<Row> rows;
  for (const auto& c : item->desc.columns) {
    Datum d[] = {Datum::from_string(c.name), Datum::from_bool(c.type.nullable),
                 Datum::from_string(type_name(c.type.id))};
    rows.push_back(Row::pack(d));
  }
  return rows_result({{"name", text_type()}, {"nullable", ColumnType{TypeId::kBool, -1, false}},
                      {"type", text_type()}},
                     std::move(rows));
}

}  // namespace tandem::frontend
