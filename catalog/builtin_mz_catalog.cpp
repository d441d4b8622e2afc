// Rows of the mz_catalog relations (and mz_internal.mz_search_path_schemas and mz_object_dependencies),
// with Materialize's column names. Left out: the `privileges` columns
// (mz_aclitem[]; pg_class.relacl and pg_database.datacl show the ACLs) and
// `redacted_create_sql` (no redactor yet); mz_clusters omits
// availability_zones and introspection settings. Materialize's uint8/uint4
// columns are bigint/integer here. Each cluster has exactly one replica
// `r1`, whose id is its cluster's id.
#include "catalog/builtin_relations.hpp"

namespace tandem::catalog::builtin_detail {
namespace {

using T = TypeId;

Datum str(const std::string& s) { return Datum::from_string(s); }
Datum oid(uint32_t v) { return Datum::from_oid(v); }

std::optional<std::string> cluster_id_of(const Item& item) {
  return item.cluster ? std::optional<std::string>(item.cluster->to_string()) : std::nullopt;
}

std::string schema_id_of(const CatalogSnapshot& s, const Item& item) {
  const Schema* schema = schema_of(s, item);
  return schema ? schema->id.to_string() : "";
}

std::vector<Row> databases(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const std::string& name : s.databases()) {
    rows.push_back(make_row({str(kMaterializeDatabaseId), oid(kMaterializeDatabaseOid), str(name),
                             str(owner_of(s, database_object(name), ObjectType::kDatabase).to_string())}));
  }
  return rows;
}

std::vector<Row> schemas(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Schema* schema : s.schemas(kDefaultDatabase)) {
    bool system = schema->is_system();
    rows.push_back(make_row({str(schema->id.to_string()), oid(schema_oid(schema->id)),
                             system ? Datum::null() : str(kMaterializeDatabaseId), str(schema->name),
                             str(system ? kMzSystemRoleId
                                        : owner_of(s, schema_object(schema->id), ObjectType::kSchema).to_string())}));
  }
  return rows;
}

// Every item of `kind` (builtin catalog relations count as tables).
std::vector<const Item*> items_of(const CatalogSnapshot& s, ItemKind kind) {
  std::vector<const Item*> out;
  for (const Item* item : s.items()) {
    if (visible_kind(*item) == kind) out.push_back(item);
  }
  return out;
}

Datum create_sql(const Item& item) {
  return item.id.is_system() ? Datum::null() : Datum::from_string(item.create_sql);
}

std::vector<Row> tables(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Item* t : items_of(s, ItemKind::kTable)) {
    rows.push_back(make_row({str(t->id.to_string()), oid(item_oid(t->id)), str(schema_id_of(s, *t)), str(t->name.item),
                             str(owner_id(s, *t)), create_sql(*t), Datum::null()}));
  }
  return rows;
}

std::vector<Row> views(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Item* v : items_of(s, ItemKind::kView)) {
    rows.push_back(make_row({str(v->id.to_string()), oid(item_oid(v->id)), str(schema_id_of(s, *v)), str(v->name.item),
                             str(definition_of(*v)), str(owner_id(s, *v)), create_sql(*v)}));
  }
  return rows;
}

std::vector<Row> materialized_views(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Item* v : items_of(s, ItemKind::kMaterializedView)) {
    rows.push_back(make_row({str(v->id.to_string()), oid(item_oid(v->id)), str(schema_id_of(s, *v)), str(v->name.item),
                             text_or_null(cluster_id_of(*v)), str(definition_of(*v)), str(owner_id(s, *v)),
                             create_sql(*v)}));
  }
  return rows;
}

std::vector<Row> indexes(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Item* i : items_of(s, ItemKind::kIndex)) {
    const IndexDetails* d = i->index();
    rows.push_back(make_row({str(i->id.to_string()), oid(item_oid(i->id)), str(i->name.item),
                             d ? str(d->on.to_string()) : Datum::null(), text_or_null(cluster_id_of(*i)),
                             str(owner_id(s, *i)), create_sql(*i)}));
  }
  return rows;
}

std::vector<Row> index_columns(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Item* i : items_of(s, ItemKind::kIndex)) {
    const IndexDetails* d = i->index();
    const Item* on = d ? s.item(d->on) : nullptr;
    if (on == nullptr) continue;
    for (size_t k = 0; k < d->keys.size(); ++k) {
      const IndexKey& key = d->keys[k];
      bool nullable = key.column ? on->desc.columns[*key.column].type.nullable : true;
      rows.push_back(make_row({str(i->id.to_string()), Datum::from_int64(static_cast<int64_t>(k + 1)),
                               key.column ? Datum::from_int64(static_cast<int64_t>(*key.column + 1)) : Datum::null(),
                               key.column ? Datum::null() : str(key.sql), Datum::from_bool(nullable)}));
    }
  }
  return rows;
}

std::vector<Row> columns(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for_each_column(s, [&](const Item& item, size_t c, const Column& col, const TableColumnInfo* info) {
    std::optional<std::string> def = info ? info->default_sql : std::nullopt;
    rows.push_back(make_row({str(item.id.to_string()), str(col.name), Datum::from_int64(static_cast<int64_t>(c + 1)),
                             Datum::from_bool(col.type.nullable), str(std::string(type_name(col.type.id))),
                             text_or_null(def), oid(type_oid(col.type.id)), Datum::from_int32(col.type.typmod)}));
  });
  return rows;
}

std::vector<Row> objects(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Item* item : s.items()) {
    std::string type(item_kind_type_name(visible_kind(*item)));
    rows.push_back(make_row({str(item->id.to_string()), oid(item_oid(item->id)), str(schema_id_of(s, *item)),
                             str(item->name.item), str(type), str(owner_id(s, *item)),
                             text_or_null(cluster_id_of(*item))}));
  }
  return rows;
}

// What each item reads, as its catalog entry records it (a view its
// relations, an index the relation it is on); ids of user and system items.
std::vector<Row> object_dependencies(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Item* item : s.items()) {
    for (ItemId used : item->dependencies) {
      rows.push_back(make_row({str(item->id.to_string()), str(used.to_string())}));
    }
  }
  return rows;
}

std::vector<Row> clusters(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Cluster* c : s.clusters()) {
    rows.push_back(make_row({str(c->id.to_string()), str(c->name), str(c->is_system() ? kMzSystemRoleId : owner_of(s, cluster_object(c->id), ObjectType::kCluster).to_string()),
                             Datum::from_bool(true), str(c->size),
                             Datum::from_int32(static_cast<int32_t>(c->replication_factor)), Datum::from_bool(false)}));
  }
  return rows;
}

std::vector<Row> cluster_replicas(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for (const Cluster* c : s.clusters()) {
    if (c->replication_factor == 0) continue;
    rows.push_back(make_row({str(c->id.to_string()), str("r1"), str(c->id.to_string()), str(c->size), Datum::null(),
                             str(c->is_system() ? kMzSystemRoleId : owner_of(s, cluster_object(c->id), ObjectType::kCluster).to_string()), Datum::from_bool(false)}));
  }
  return rows;
}

// The schemas an unqualified name is looked up in that PostgreSQL's
// current_schemas(true) would report: pg_catalog (implicit unless listed),
// then the session's search_path schemas that exist. mz_catalog is searched
// implicitly too but, like a PostgreSQL extension schema, not reported, so
// that psql's \dt lists user relations only.
std::vector<Row> search_path_schemas(const CatalogSnapshot& s, const BuiltinContext& context) {
  std::vector<Row> rows;
  std::vector<std::string> names;
  bool listed = false;
  for (const auto& n : context.path.schemas) listed |= n == kPgCatalogSchema;
  if (!listed) names.push_back(kPgCatalogSchema);
  for (const auto& n : context.path.schemas) names.push_back(n);
  int32_t position = 0;
  for (const auto& n : names) {
    const Schema* schema = s.find_schema(context.path.database, n);
    if (schema == nullptr) continue;
    bool implicit = !listed && n == kPgCatalogSchema && position == 0;
    rows.push_back(make_row({Datum::from_int32(++position), str(schema->id.to_string()), oid(schema_oid(schema->id)),
                             str(schema->name), Datum::from_bool(implicit)}));
  }
  return rows;
}

}  // namespace

void add_mz_catalog_relations(std::vector<BuiltinRelation>& out) {
  const char* mz = kMzCatalogSchema;
  out.push_back({mz, "mz_databases", {{"id", T::kText, false}, {"oid", T::kOid, false}, {"name", T::kText, false},
                                      {"owner_id", T::kText, false}}, databases});
  out.push_back({mz, "mz_schemas", {{"id", T::kText, false}, {"oid", T::kOid, false}, {"database_id", T::kText, true},
                                    {"name", T::kText, false}, {"owner_id", T::kText, false}}, schemas});
  out.push_back({mz, "mz_tables", {{"id", T::kText, false}, {"oid", T::kOid, false}, {"schema_id", T::kText, false},
                                   {"name", T::kText, false}, {"owner_id", T::kText, false},
                                   {"create_sql", T::kText, true}, {"source_id", T::kText, true}}, tables});
  out.push_back({mz, "mz_views", {{"id", T::kText, false}, {"oid", T::kOid, false}, {"schema_id", T::kText, false},
                                  {"name", T::kText, false}, {"definition", T::kText, false},
                                  {"owner_id", T::kText, false}, {"create_sql", T::kText, true}}, views});
  out.push_back({mz, "mz_materialized_views",
                 {{"id", T::kText, false}, {"oid", T::kOid, false}, {"schema_id", T::kText, false},
                  {"name", T::kText, false}, {"cluster_id", T::kText, true}, {"definition", T::kText, false},
                  {"owner_id", T::kText, false}, {"create_sql", T::kText, true}}, materialized_views});
  out.push_back({mz, "mz_indexes", {{"id", T::kText, false}, {"oid", T::kOid, false}, {"name", T::kText, false},
                                    {"on_id", T::kText, true}, {"cluster_id", T::kText, true},
                                    {"owner_id", T::kText, false}, {"create_sql", T::kText, true}}, indexes});
  out.push_back({mz, "mz_index_columns",
                 {{"index_id", T::kText, false}, {"index_position", T::kInt8, false}, {"on_position", T::kInt8, true},
                  {"on_expression", T::kText, true}, {"nullable", T::kBool, false}}, index_columns});
  out.push_back({mz, "mz_columns", {{"id", T::kText, false}, {"name", T::kText, false}, {"position", T::kInt8, false},
                                    {"nullable", T::kBool, false}, {"type", T::kText, false},
                                    {"default", T::kText, true}, {"type_oid", T::kOid, false},
                                    {"type_mod", T::kInt4, false}}, columns});
  out.push_back({mz, "mz_objects", {{"id", T::kText, false}, {"oid", T::kOid, false}, {"schema_id", T::kText, false},
                                    {"name", T::kText, false}, {"type", T::kText, false},
                                    {"owner_id", T::kText, false}, {"cluster_id", T::kText, true}}, objects});
  out.push_back({mz, "mz_clusters", {{"id", T::kText, false}, {"name", T::kText, false}, {"owner_id", T::kText, false},
                                     {"managed", T::kBool, false}, {"size", T::kText, true},
                                     {"replication_factor", T::kInt4, true}, {"disk", T::kBool, true}}, clusters});
  out.push_back({mz, "mz_cluster_replicas",
                 {{"id", T::kText, false}, {"name", T::kText, false}, {"cluster_id", T::kText, false},
                  {"size", T::kText, true}, {"availability_zone", T::kText, true}, {"owner_id", T::kText, false},
                  {"disk", T::kBool, true}}, cluster_replicas});
  out.push_back({kMzInternalSchema, "mz_search_path_schemas",
                 {{"position", T::kInt4, false}, {"schema_id", T::kText, false}, {"schema_oid", T::kOid, false},
                  {"name", T::kText, false}, {"implicit", T::kBool, false}}, search_path_schemas});
}

void add_dependency_relations(std::vector<BuiltinRelation>& out) {
  out.push_back({kMzInternalSchema, "mz_object_dependencies",
                 {{"object_id", T::kText, false}, {"referenced_object_id", T::kText, false}},
                 object_dependencies});
}

}  // namespace tandem::catalog::builtin_detail
