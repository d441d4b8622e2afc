// Catalog: schema and cluster DDL.
#include <algorithm>

#include "catalog/catalog.hpp"
#include "catalog/catalog_errors.hpp"

namespace tandem::catalog {
namespace {

// allowed_cluster_replica_sizes: a comma-separated list; empty allows any.
bool size_allowed(const SystemVars& vars, std::string_view size) {
  std::string allowed = vars.get_string(kAllowedClusterReplicaSizes);
  if (allowed.empty()) return true;
  std::string_view rest = allowed;
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view entry = rest.substr(0, comma);
    while (!entry.empty() && (entry.front() == ' ' || entry.front() == '\'')) entry.remove_prefix(1);
    while (!entry.empty() && (entry.back() == ' ' || entry.back() == '\'')) entry.remove_suffix(1);
    if (entry == size) return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

Result<DdlResult> Catalog::create_schema(const std::optional<std::string>& database, std::string name,
                                         bool if_not_exists, std::optional<RoleId> owner) {
  DdlResult result;
  std::string db = database ? *database : std::string(kDefaultDatabase);
  if (!current_->has_database(db)) return errors::unknown_database(db);
  if (current_->find_schema(db, name) != nullptr) {
    if (!if_not_exists) return errors::schema_exists(name);
    result.notices.push_back(Status::error(sqlstate::kDuplicateSchema,
                                           "schema '" + name + "' already exists, skipping"));
    return result;
  }
  auto next = working_copy();
  Schema schema{SchemaId::user(next_user_schema_), db, std::move(name)};
  CatalogStore::Batch batch;
  batch.put_schema(schema);
  batch.put_next_id(IdSpace::kSchema, next_user_schema_ + 1);
  if (owner) {
    ObjectAcl acl = owner_acl(*owner, ObjectType::kSchema);
    batch.put_acl(schema_object(schema.id), acl);
    next->access_.acls_[schema_object(schema.id)] = acl;
  }
  next->schemas_.emplace(CatalogSnapshot::SchemaKey{schema.database, schema.name}, schema);
  TANDEM_RETURN_IF_ERROR(commit(std::move(next), batch));
  ++next_user_schema_;
  return result;
}

Result<DdlResult> Catalog::drop_schema(const std::optional<std::string>& database, std::string_view name,
                                       bool if_exists, DropBehavior behavior) {
  DdlResult result;
  std::string db = database ? *database : std::string(kDefaultDatabase);
  if (!current_->has_database(db)) {
    if (!if_exists) return errors::unknown_database(db);
    result.notices.push_back(Status::error(sqlstate::kInvalidCatalogName,
                                           "database \"" + db + "\" does not exist, skipping"));
    return result;
  }
  const Schema* schema = current_->find_schema(db, name);
  if (schema == nullptr) {
    if (!if_exists) return errors::unknown_schema(name);
    result.notices.push_back(Status::error(sqlstate::kInvalidSchemaName,
                                           "schema \"" + std::string(name) + "\" does not exist, skipping"));
    return result;
  }
  if (schema->is_system()) return errors::system_object("schema", schema->name);

  std::vector<ItemId> contents;
  for (const Item* item : current_->items_in_schema(schema->database, schema->name)) {
    contents.push_back(item->id);
  }
  if (!contents.empty() && behavior == DropBehavior::kRestrict) {
    return errors::schema_not_empty(schema->to_string());
  }
  TANDEM_ASSIGN_OR_RETURN(std::vector<ItemId> closure,
                          drop_closure(*current_, contents, DropBehavior::kCascade));
  auto next = working_copy();
  CatalogStore::Batch batch;
  apply_drops(*next, closure, batch, result);
  batch.delete_schema(schema->id);
  batch.delete_acl(schema_object(schema->id));
  next->access_.acls_.erase(schema_object(schema->id));
  next->schemas_.erase(CatalogSnapshot::SchemaKey{schema->database, schema->name});
  TANDEM_RETURN_IF_ERROR(commit(std::move(next), batch));
  return result;
}

Result<DdlResult> Catalog::create_cluster(ClusterSpec spec, bool if_not_exists) {
  DdlResult result;
  if (current_->find_cluster(spec.name) != nullptr) {
    if (!if_not_exists) return errors::cluster_exists(spec.name);
    result.notices.push_back(Status::error(sqlstate::kDuplicateObject,
                                           "cluster '" + spec.name + "' already exists, skipping"));
    return result;
  }
  if (spec.name.starts_with("mz_")) {
    return Status::error(sqlstate::kInsufficientPrivilege,
                         "cluster name '" + spec.name + "' is reserved for system clusters");
  }
  if (!size_allowed(current_->system_vars(), spec.size)) {
    return Status::error(sqlstate::kInvalidParameterValue, "invalid SIZE: '" + spec.size + "'")
        .with_hint("Sizes allowed by allowed_cluster_replica_sizes: " +
                   current_->system_vars().get_string(kAllowedClusterReplicaSizes));
  }
  Cluster cluster{ClusterId::user(next_user_cluster_), std::move(spec.name), std::move(spec.size),
                  spec.replication_factor, std::move(spec.create_sql)};
  auto next = working_copy();
  CatalogStore::Batch batch;
  batch.put_cluster(cluster);
  batch.put_next_id(IdSpace::kCluster, next_user_cluster_ + 1);
  if (spec.owner) {
    ObjectAcl acl = owner_acl(*spec.owner, ObjectType::kCluster);
    batch.put_acl(cluster_object(cluster.id), acl);
    next->access_.acls_[cluster_object(cluster.id)] = acl;
  }
  next->cluster_names_.emplace(cluster.name, cluster.id);
  next->clusters_.emplace(cluster.id, cluster);
  TANDEM_RETURN_IF_ERROR(commit(std::move(next), batch));
  ++next_user_cluster_;
  result.created_cluster = cluster.id;
  return result;
}

Result<DdlResult> Catalog::drop_cluster(std::string_view name, bool if_exists, DropBehavior behavior) {
  DdlResult result;
  const Cluster* cluster = current_->find_cluster(name);
  if (cluster == nullptr) {
    if (!if_exists) return errors::unknown_cluster(name);
    result.notices.push_back(Status::error(sqlstate::kUndefinedObject,
                                           "cluster \"" + std::string(name) + "\" does not exist, skipping"));
    return result;
  }
  if (cluster->is_system()) return errors::system_object("cluster", cluster->name);
  std::vector<ItemId> installed;
  for (const Item* item : current_->items_in_cluster(cluster->id)) installed.push_back(item->id);
  if (!installed.empty() && behavior == DropBehavior::kRestrict) return errors::cluster_in_use();
  TANDEM_ASSIGN_OR_RETURN(std::vector<ItemId> closure,
                          drop_closure(*current_, installed, DropBehavior::kCascade));
  auto next = working_copy();
  CatalogStore::Batch batch;
  apply_drops(*next, closure, batch, result);
  batch.delete_cluster(cluster->id);
  batch.delete_acl(cluster_object(cluster->id));
  next->access_.acls_.erase(cluster_object(cluster->id));
  next->cluster_names_.erase(cluster->name);
  next->clusters_.erase(cluster->id);
  TANDEM_RETURN_IF_ERROR(commit(std::move(next), batch));
  return result;
}

Status Catalog::rename_cluster(std::string_view name, std::string new_name, std::string new_create_sql,
                               const SqlRewrites& rewrites) {
  TANDEM_ASSIGN_OR_RETURN(const Cluster* cluster, current_->resolve_cluster(name));
  if (cluster->is_system()) return errors::system_object("cluster", cluster->name);
  if (new_name == cluster->name) return Status::ok();
  if (current_->find_cluster(new_name) != nullptr) return errors::cluster_exists(new_name);
  Cluster renamed = *cluster;
  renamed.name = std::move(new_name);
  renamed.create_sql = std::move(new_create_sql);
  auto next = working_copy();
  CatalogStore::Batch batch;
  batch.put_cluster(renamed);
  TANDEM_RETURN_IF_ERROR(apply_rewrites(*next, rewrites, batch));
  next->cluster_names_.erase(cluster->name);
  next->cluster_names_.emplace(renamed.name, renamed.id);
  next->clusters_[renamed.id] = renamed;
  return commit(std::move(next), batch);
}

}  // namespace tandem::catalog
