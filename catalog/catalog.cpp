// Catalog: boot, publication, system items and system parameters. Item DDL
// is in catalog_items.cpp, schemas and clusters in catalog_namespaces.cpp.
#include "catalog/catalog.hpp"

#include <algorithm>

#include "catalog/catalog_errors.hpp"

namespace tandem::catalog {
namespace {

// System clusters: fixed ids, present at every boot, never persisted.
const Cluster kSystemClusters[] = {
    {ClusterId::system(1), kSystemClusterName, kDefaultClusterSize, 1,
     "CREATE CLUSTER \"mz_system\" (SIZE = '25cc', REPLICATION FACTOR = 1)"},
    {ClusterId::system(2), kCatalogServerClusterName, kDefaultClusterSize, 1,
     "CREATE CLUSTER \"mz_catalog_server\" (SIZE = '25cc', REPLICATION FACTOR = 1)"},
};

std::string default_cluster_sql(const std::string& size) {
  return std::string("CREATE CLUSTER \"") + kDefaultClusterName + "\" (SIZE = '" + size + "', REPLICATION FACTOR = 1)";
}

}  // namespace

Result<std::unique_ptr<Catalog>> Catalog::open(storage::DurableStore& store, std::string default_cluster_size) {
  if (default_cluster_size.empty()) default_cluster_size = kDefaultClusterSize;
  std::unique_ptr<Catalog> catalog(new Catalog(store));
  TANDEM_ASSIGN_OR_RETURN(CatalogStore::Loaded loaded, catalog->store_.load());

  auto state = std::make_shared<CatalogSnapshot>();
  state->databases_.insert(kDefaultDatabase);
  for (size_t i = 0; i < kSystemSchemas.size(); ++i) {
    Schema s{SchemaId::system(i + 1), "", kSystemSchemas[i]};
    state->schemas_.emplace(CatalogSnapshot::SchemaKey{"", s.name}, s);
  }
  for (const Cluster& c : kSystemClusters) {
    state->clusters_.emplace(c.id, c);
    state->cluster_names_.emplace(c.name, c.id);
  }

  catalog->next_user_item_ = loaded.next_id[static_cast<int>(IdSpace::kItem)];
  catalog->next_user_cluster_ = loaded.next_id[static_cast<int>(IdSpace::kCluster)];
  catalog->next_user_schema_ = loaded.next_id[static_cast<int>(IdSpace::kSchema)];
  catalog->next_user_role_ = loaded.next_id[static_cast<int>(IdSpace::kRole)];

  if (!loaded.initialized) {
    // First boot: the default schema and cluster, persisted so that they can
    // be dropped or renamed like any user object.
    Schema public_schema{SchemaId::user(catalog->next_user_schema_), kDefaultDatabase, kPublicSchema};
    Cluster quickstart{ClusterId::user(catalog->next_user_cluster_), kDefaultClusterName, default_cluster_size, 1,
                       default_cluster_sql(default_cluster_size)};
    CatalogStore::Batch batch;
    batch.put_schema(public_schema);
    batch.put_cluster(quickstart);
    batch.put_next_id(IdSpace::kSchema, catalog->next_user_schema_ + 1);
    batch.put_next_id(IdSpace::kCluster, catalog->next_user_cluster_ + 1);
    batch.mark_initialized();
    TANDEM_RETURN_IF_ERROR(catalog->store_.commit(batch));
    ++catalog->next_user_schema_;
    ++catalog->next_user_cluster_;
    loaded.schemas.push_back(public_schema);
    loaded.clusters.push_back(quickstart);
  }

  for (const Schema& s : loaded.schemas) {
    if (!state->has_database(s.database) || is_system_schema(s.name)) {
      return errors::internal("persisted schema " + s.id.to_string() + " is invalid");
    }
    state->schemas_.emplace(CatalogSnapshot::SchemaKey{s.database, s.name}, s);
  }
  for (const Cluster& c : loaded.clusters) {
    if (!c.id.is_user() || state->cluster_names_.count(c.name) > 0) {
      return errors::internal("persisted cluster " + c.id.to_string() + " is invalid");
    }
    state->clusters_.emplace(c.id, c);
    state->cluster_names_.emplace(c.name, c.id);
  }
  TANDEM_RETURN_IF_ERROR(catalog->load_access_control(loaded, *state));
  for (const auto& [name, value] : loaded.vars) {
    // A parameter retired by a newer version is ignored; a bad value is not.
    if (find_system_var(name) == nullptr) continue;
    Status st = state->vars_.set(name, value);
    if (!st.is_ok()) return errors::internal("persisted system parameter: " + st.message());
  }

  catalog->replay_ = std::move(loaded.items);
  for (size_t i = 0; i < catalog->replay_.size(); ++i) {
    const PersistedItem& p = catalog->replay_[i];
    if (!p.id.is_user() || p.id.value >= catalog->next_user_item_) {
      return errors::internal("persisted item " + p.id.to_string() + " is beyond the id counter");
    }
    catalog->replay_index_.emplace(p.id, i);
  }
  catalog->publish(std::move(state));
  return catalog;
}

void Catalog::publish(std::shared_ptr<CatalogSnapshot> next) {
  next->version_ = current_ ? current_->version_ + 1 : 1;
  current_ = next;
  std::lock_guard<std::mutex> lock(published_mu_);
  published_ = std::move(next);
}

Status Catalog::commit(std::shared_ptr<CatalogSnapshot> next, const CatalogStore::Batch& batch) {
  if (!batch.empty()) TANDEM_RETURN_IF_ERROR(store_.commit(batch));
  publish(std::move(next));
  return Status::ok();
}

Result<std::shared_ptr<const Item>> Catalog::build_item(const CatalogSnapshot& state, ItemId id,
                                                        ItemSpec spec, bool system) const {
  QualifiedName& name = spec.name;
  if (is_system_schema(name.schema)) {
    if (!system) return errors::system_object("schema", name.schema);
    name.database.clear();
  } else if (system) {
    return errors::internal("builtin item " + name.to_string() + " must live in a system schema");
  } else {
    if (!state.has_database(name.database)) return errors::unknown_database(name.database);
    if (state.find_schema(name.database, name.schema) == nullptr) return errors::unknown_schema(name.schema);
  }
  if (state.find_item(name) != nullptr) return errors::item_exists(name.item);

  // Kind-specific invariants: the coordinator builds specs, so a mismatch is
  // a bug upstream, reported as an internal error rather than asserted.
  bool details_ok = false;
  switch (spec.kind) {
    case ItemKind::kTable: {
      const auto* t = std::get_if<TableDetails>(&spec.details);
      details_ok = t != nullptr && t->columns.size() == spec.desc.arity();
      break;
    }
    case ItemKind::kIndex:
      details_ok = std::holds_alternative<IndexDetails>(spec.details) && spec.cluster.has_value();
      break;
    case ItemKind::kMaterializedView:
      details_ok = std::holds_alternative<MaterializedViewDetails>(spec.details) && spec.cluster.has_value();
      break;
    case ItemKind::kView:
    case ItemKind::kSource:
      details_ok = std::holds_alternative<std::monostate>(spec.details);
      break;
  }
  if (!details_ok) {
    return errors::internal("item " + name.to_string() + " has details that do not match its kind");
  }
  if (const auto* index = std::get_if<IndexDetails>(&spec.details)) {
    const Item* on = state.item(index->on);
    if (on == nullptr || !on->is_relation()) {
      return errors::internal("index " + name.to_string() + " is on unknown relation " + index->on.to_string());
    }
    if (std::find(spec.dependencies.begin(), spec.dependencies.end(), index->on) == spec.dependencies.end()) {
      spec.dependencies.push_back(index->on);
    }
  }
  std::sort(spec.dependencies.begin(), spec.dependencies.end());
  spec.dependencies.erase(std::unique(spec.dependencies.begin(), spec.dependencies.end()),
                          spec.dependencies.end());
  for (ItemId dep : spec.dependencies) {
    if (state.item(dep) == nullptr) {
      return errors::internal("item " + name.to_string() + " depends on unknown item " + dep.to_string());
    }
  }
  if (spec.cluster && state.cluster(*spec.cluster) == nullptr) {
    return errors::unknown_cluster(spec.cluster->to_string());
  }

  auto item = std::make_shared<Item>();
  item->id = id;
  item->name = std::move(spec.name);
  item->kind = spec.kind;
  item->create_sql = std::move(spec.create_sql);
  item->desc = std::move(spec.desc);
  item->dependencies = std::move(spec.dependencies);
  item->cluster = spec.cluster;
  item->details = std::move(spec.details);
  return std::shared_ptr<const Item>(std::move(item));
}

Result<ItemId> Catalog::replay_item(ItemId id, ItemSpec spec) {
  auto pos = replay_index_.find(id);
  if (pos == replay_index_.end()) return errors::internal("item " + id.to_string() + " is not awaiting replay");
  if (current_->item(id) != nullptr) return errors::internal("item " + id.to_string() + " was already replayed");
  const PersistedItem& persisted = replay_[pos->second];
  auto next = working_copy();
  TANDEM_ASSIGN_OR_RETURN(std::shared_ptr<const Item> item, build_item(*next, id, std::move(spec), false));
  if (item->shard() != persisted.shard) {
    return errors::internal("replayed item " + id.to_string() + " names a different storage shard");
  }
  next->insert_item(std::move(item));
  publish(std::move(next));
  return id;
}

Result<ItemId> Catalog::register_system_item(ItemSpec spec) {
  ItemId id = ItemId::system(next_system_item_);
  auto next = working_copy();
  TANDEM_ASSIGN_OR_RETURN(std::shared_ptr<const Item> item, build_item(*next, id, std::move(spec), true));
  next->insert_item(std::move(item));
  publish(std::move(next));
  ++next_system_item_;
  return id;
}

Status Catalog::set_system_var(std::string_view name, std::string_view value) {
  auto next = working_copy();
  TANDEM_RETURN_IF_ERROR(next->vars_.set(name, value));
  const VarDefinition* def = find_system_var(name);
  std::string key(def->name);
  CatalogStore::Batch batch;
  batch.put_var(key, next->vars_.overrides().at(key).text);
  return commit(std::move(next), batch);
}

Status Catalog::reset_system_var(std::string_view name) {
  auto next = working_copy();
  TANDEM_RETURN_IF_ERROR(next->vars_.reset(name));
  CatalogStore::Batch batch;
  batch.delete_var(std::string(find_system_var(name)->name));
  return commit(std::move(next), batch);
}

Status Catalog::reset_all_system_vars() {
  auto next = working_copy();
  CatalogStore::Batch batch;
  for (const auto& [name, value] : next->vars_.overrides()) batch.delete_var(name);
  next->vars_.reset_all();
  return commit(std::move(next), batch);
}

}  // namespace tandem::catalog
