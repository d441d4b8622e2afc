#include "catalog/builtin_relations.hpp"

#include <map>

#include "catalog/catalog.hpp"

namespace tandem::catalog {
namespace {

using builtin_detail::BuiltinRelation;

const std::vector<BuiltinRelation>& relations() {
  static const std::vector<BuiltinRelation> all = [] {
    std::vector<BuiltinRelation> out;
    // The order fixes the system ids: append only.
    builtin_detail::add_mz_catalog_relations(out);
    builtin_detail::add_pg_catalog_relations(out);
    builtin_detail::add_information_schema_relations(out);
    builtin_detail::add_mz_internal_relations(out);
    builtin_detail::add_table_key_relations(out);
    builtin_detail::add_pg_feature_relations(out);
    builtin_detail::add_dependency_relations(out);
    builtin_detail::add_role_relations(out);
    return out;
  }();
  return all;
}

const BuiltinRelation* find_relation(const Item& item) {
  static const std::map<std::pair<std::string, std::string>, const BuiltinRelation*> by_name = [] {
    std::map<std::pair<std::string, std::string>, const BuiltinRelation*> m;
    for (const auto& r : relations()) m[{r.schema, r.name}] = &r;
    return m;
  }();
  if (!item.id.is_system() || !item.name.database.empty()) return nullptr;
  auto it = by_name.find({item.name.schema, item.name.item});
  return it == by_name.end() ? nullptr : it->second;
}

}  // namespace

uint32_t item_oid(ItemId id) {
  return static_cast<uint32_t>(id.is_system() ? 16400 + id.value : 20000 + id.value);
}

uint32_t schema_oid(SchemaId id) {
  return static_cast<uint32_t>(id.is_system() ? 16385 + id.value : 1000000000 + id.value);
}

uint32_t key_constraint_oid(ItemId table, size_t k) {
  return static_cast<uint32_t>(1500000000 + 32 * table.value + 2 * k);
}
uint32_t key_index_oid(ItemId table, size_t k) { return key_constraint_oid(table, k) + 1; }

Status register_builtin_relations(Catalog& catalog) {
  for (const auto& r : relations()) {
    ItemSpec spec;
    spec.name = QualifiedName{"", r.schema, r.name};
    spec.kind = ItemKind::kSource;
    for (const auto& c : r.columns) spec.desc.columns.push_back(Column{c.name, ColumnType{c.type, -1, c.nullable}});
    auto id = catalog.register_system_item(std::move(spec));
    if (!id.ok()) return id.status();
  }
  return Status::ok();
}

bool is_builtin_catalog_relation(const Item& item) { return find_relation(item) != nullptr; }

ItemKind visible_kind(const Item& item) { return is_builtin_catalog_relation(item) ? ItemKind::kTable : item.kind; }

std::vector<Row> builtin_rows(const CatalogSnapshot& snapshot, const Item& item, const BuiltinContext& context) {
  const BuiltinRelation* r = find_relation(item);
  return r == nullptr ? std::vector<Row>{} : r->rows(snapshot, context);
}

namespace builtin_detail {

RoleId owner_of(const CatalogSnapshot& snapshot, const std::string& object, ObjectType type) {
  return snapshot.access().acl(object, type).owner;
}
std::string owner_id(const CatalogSnapshot& snapshot, const Item& item) {
  return owner_of(snapshot, item_object(item.id), object_type_of(item)).to_string();
}
uint32_t owner_oid(const CatalogSnapshot& snapshot, const Item& item) {
  return role_oid(owner_of(snapshot, item_object(item.id), object_type_of(item)));
}

std::string acl_elements(const CatalogSnapshot& snapshot, const std::string& object, ObjectType type) {
  const AccessControl& access = snapshot.access();
  auto name = [&](RoleId id) -> std::string {
    if (id == kPublicRoleId) return "";
    const Role* r = access.role(id);
    return r ? r->name : id.to_string();
  };
  std::string bytes;
  RowPacker packer(&bytes);
  for (const AclItem& item : access.acl(object, type).items) {
    packer.push(Datum::from_string(acl_item_text(item, name(item.grantee), name(item.grantor))));
  }
  return bytes;
}

const Schema* schema_of(const CatalogSnapshot& snapshot, const Item& item) {
  return snapshot.find_schema(item.name.database, item.name.schema);
}

std::string definition_of(const Item& item) {
  if (item.kind != ItemKind::kView && item.kind != ItemKind::kMaterializedView) return "";
  // create_sql is printed by the planner: CREATE [MATERIALIZED] VIEW <name>
  // [(cols)] [IN CLUSTER <c>] AS <query>. The first AS outside a quoted
  // identifier starts the query.
  const std::string& sql = item.create_sql;
  bool quoted = false;
  for (size_t i = 0; i + 4 <= sql.size(); ++i) {
    if (sql[i] == '"') quoted = !quoted;
    if (!quoted && sql.compare(i, 4, " AS ") == 0) {
      std::string query = sql.substr(i + 4);
      if (query.empty() || query.back() != ';') query += ";";
      return query;
    }
  }
  return "";
}

Row make_row(std::initializer_list<Datum> datums) {
  Row row;
  RowPacker packer(&row);
  for (const Datum& d : datums) packer.push(d);
  return row;
}

void for_each_column(const CatalogSnapshot& snapshot,
                     const std::function<void(const Item&, size_t, const Column&, const TableColumnInfo*)>& f) {
  for (const Item* item : snapshot.items()) {
    if (!item->is_relation()) continue;
    const TableDetails* table = item->table();
    for (size_t c = 0; c < item->desc.columns.size(); ++c) {
      f(*item, c, item->desc.columns[c], table ? &table->columns[c] : nullptr);
    }
  }
}

Datum text_or_null(const std::optional<std::string>& s) { return s ? Datum::from_string(*s) : Datum::null(); }

}  // namespace builtin_detail
}  // namespace tandem::catalog
