#include "catalog/catalog_snapshot.hpp"

#include <algorithm>
#include <cassert>

#include "catalog/catalog_errors.hpp"

namespace tandem::catalog {

const Item* CatalogSnapshot::item(ItemId id) const {
  auto it = items_.find(id);
  return it == items_.end() ? nullptr : it->second.get();
}

std::shared_ptr<const Item> CatalogSnapshot::item_ptr(ItemId id) const {
  auto it = items_.find(id);
  return it == items_.end() ? nullptr : it->second;
}

const Item* CatalogSnapshot::find_item(const QualifiedName& name) const {
  auto it = names_.find(name);
  return it == names_.end() ? nullptr : item(it->second);
}

const Item* CatalogSnapshot::lookup_in_schema(const Schema& schema, std::string_view name) const {
  return find_item(QualifiedName{schema.database, schema.name, std::string(name)});
}

const Schema* CatalogSnapshot::find_schema(std::string_view database, std::string_view name) const {
  std::string db = is_system_schema(name) ? std::string() : std::string(database);
  auto it = schemas_.find(SchemaKey{db, std::string(name)});
  return it == schemas_.end() ? nullptr : &it->second;
}

Result<const Schema*> CatalogSnapshot::resolve_schema(const std::optional<std::string>& database,
                                                      std::string_view name,
                                                      const SearchPath& path) const {
  const std::string& db = database ? *database : path.database;
  if (database && !has_database(db)) return errors::unknown_database(db);
  const Schema* schema = find_schema(db, name);
  // The session's current database may itself have been dropped; ambient
  // schemas still resolve then.
  if (schema == nullptr) {
    if (!database && !has_database(db) && !is_system_schema(name)) return errors::unknown_database(db);
    return errors::unknown_schema(name);
  }
  return schema;
}

Result<const Item*> CatalogSnapshot::resolve_item(const PartialName& name, const SearchPath& path) const {
  if (name.schema) {
    TANDEM_ASSIGN_OR_RETURN(const Schema* schema, resolve_schema(name.database, *name.schema, path));
    const Item* found = lookup_in_schema(*schema, name.item);
    if (found == nullptr) return errors::unknown_item(name.to_string());
    return found;
  }
  auto listed = [&](const char* s) {
    return std::find(path.schemas.begin(), path.schemas.end(), s) != path.schemas.end();
  };
  std::vector<std::string_view> order;
  if (!listed(kMzCatalogSchema)) order.push_back(kMzCatalogSchema);
  if (!listed(kPgCatalogSchema)) order.push_back(kPgCatalogSchema);
  for (const std::string& s : path.schemas) order.push_back(s);
  for (std::string_view schema_name : order) {
    const Schema* schema = find_schema(path.database, schema_name);
    if (schema == nullptr) continue;
    if (const Item* found = lookup_in_schema(*schema, name.item)) return found;
  }
  return errors::unknown_item(name.to_string());
}

std::vector<const Item*> CatalogSnapshot::items() const {
  std::vector<const Item*> out;
  out.reserve(items_.size());
  for (const auto& [id, item] : items_) out.push_back(item.get());
  return out;
}

std::vector<const Item*> CatalogSnapshot::items_in_schema(std::string_view database,
                                                          std::string_view schema,
                                                          std::optional<ItemKind> kind) const {
  std::string db = is_system_schema(schema) ? std::string() : std::string(database);
  std::vector<const Item*> out;
  // names_ is ordered by (database, schema, item): scan the schema's range.
  auto it = names_.lower_bound(QualifiedName{db, std::string(schema), std::string()});
  for (; it != names_.end() && it->first.database == db && it->first.schema == schema; ++it) {
    const Item* found = item(it->second);
    if (!kind || found->kind == *kind) out.push_back(found);
  }
  return out;
}

std::vector<ItemId> CatalogSnapshot::dependents(ItemId id) const {
  auto it = used_by_.find(id);
  if (it == used_by_.end()) return {};
  return {it->second.begin(), it->second.end()};
}

std::vector<const Item*> CatalogSnapshot::indexes_on(ItemId id) const {
  std::vector<const Item*> out;
  for (ItemId dep : dependents(id)) {
    const Item* found = item(dep);
    if (found->kind == ItemKind::kIndex && found->index()->on == id) out.push_back(found);
  }
  return out;
}

std::vector<const Item*> CatalogSnapshot::items_in_cluster(ClusterId cluster) const {
  std::vector<const Item*> out;
  for (const auto& [id, found] : items_) {
    if (found->cluster == cluster) out.push_back(found.get());
  }
  return out;
}

std::vector<const Schema*> CatalogSnapshot::schemas(std::string_view database) const {
  std::vector<const Schema*> out;
  for (const auto& [key, schema] : schemas_) {
    if (!database.empty() && key.first == database) out.push_back(&schema);
  }
  for (const auto& [key, schema] : schemas_) {
    if (key.first.empty()) out.push_back(&schema);
  }
  return out;
}

const Cluster* CatalogSnapshot::cluster(ClusterId id) const {
  auto it = clusters_.find(id);
  return it == clusters_.end() ? nullptr : &it->second;
}

const Cluster* CatalogSnapshot::find_cluster(std::string_view name) const {
  auto it = cluster_names_.find(name);
  return it == cluster_names_.end() ? nullptr : cluster(it->second);
}

Result<const Cluster*> CatalogSnapshot::resolve_cluster(std::string_view name) const {
  const Cluster* found = find_cluster(name);
  if (found == nullptr) return errors::unknown_cluster(name);
  return found;
}

std::vector<const Cluster*> CatalogSnapshot::clusters() const {
  std::vector<const Cluster*> out;
  for (const auto& [name, id] : cluster_names_) out.push_back(cluster(id));
  return out;
}

void CatalogSnapshot::insert_item(std::shared_ptr<const Item> item) {
  names_[item->name] = item->id;
  for (ItemId dep : item->dependencies) used_by_[dep].insert(item->id);
  items_[item->id] = std::move(item);
}

void CatalogSnapshot::replace_item(std::shared_ptr<const Item> item) {
  auto it = items_.find(item->id);
  assert(it != items_.end() && it->second->dependencies == item->dependencies);
  names_.erase(it->second->name);
  names_[item->name] = item->id;
  it->second = std::move(item);
}

void CatalogSnapshot::erase_item(ItemId id) {
  auto it = items_.find(id);
  if (it == items_.end()) return;
  const Item& found = *it->second;
  names_.erase(found.name);
  for (ItemId dep : found.dependencies) {
    auto u = used_by_.find(dep);
    if (u == used_by_.end()) continue;
    u->second.erase(id);
    if (u->second.empty()) used_by_.erase(u);
  }
  used_by_.erase(id);
  items_.erase(it);
}

}  // namespace tandem::catalog
