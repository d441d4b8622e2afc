// Catalog: item DDL — create (plain, IF NOT EXISTS, OR REPLACE), drop with
// RESTRICT/CASCADE, rename, create_sql rewrites.
#include <algorithm>
#include <set>

#include "catalog/catalog.hpp"
#include "catalog/catalog_errors.hpp"

namespace tandem::catalog {

Result<std::vector<ItemId>> Catalog::drop_closure(const CatalogSnapshot& state, std::span<const ItemId> ids,
                                                  DropBehavior behavior) const {
  std::set<ItemId> drop(ids.begin(), ids.end());
  std::vector<ItemId> work(drop.begin(), drop.end());
  for (ItemId id : work) {
    if (state.item(id) == nullptr) return errors::internal("drop of unknown item " + id.to_string());
  }
  // Breadth-first over dependents. The requested ids are all in `drop` before
  // the walk starts, so dropping a view together with its dependent view in
  // one statement is not a RESTRICT violation.
  for (size_t i = 0; i < work.size(); ++i) {
    const Item& item = *state.item(work[i]);
    for (ItemId dep_id : state.dependents(item.id)) {
      if (drop.count(dep_id) > 0) continue;
      const Item& dependent = *state.item(dep_id);
      if (behavior == DropBehavior::kRestrict && dependent.kind != ItemKind::kIndex) {
        return errors::still_depended_upon(item, dependent);
      }
      drop.insert(dep_id);
      work.push_back(dep_id);
    }
  }
  for (ItemId id : drop) {
    const Item& item = *state.item(id);
    if (item.id.is_system()) return errors::system_object("item", item.name.to_string());
  }
  return std::vector<ItemId>(drop.rbegin(), drop.rend());
}

void Catalog::apply_drops(CatalogSnapshot& next, const std::vector<ItemId>& ids, CatalogStore::Batch& batch,
                          DdlResult& result) {
  for (ItemId id : ids) {
    result.dropped.push_back(next.item_ptr(id));
    if (id.is_user()) batch.delete_item(id);
    if (next.access_.acls_.erase(item_object(id)) > 0) batch.delete_acl(item_object(id));
    next.erase_item(id);
  }
}

Status Catalog::apply_rewrites(CatalogSnapshot& next, const SqlRewrites& rewrites, CatalogStore::Batch& batch) {
  for (const auto& [id, sql] : rewrites) {
    const Item* old = next.item(id);
    if (old == nullptr) return errors::internal("create_sql rewrite for unknown item " + id.to_string());
    if (!id.is_user()) return errors::system_object("item", old->name.to_string());
    auto updated = std::make_shared<Item>(*old);
    updated->create_sql = sql;
    batch.put_item(PersistedItem{id, updated->create_sql, updated->shard()});
    next.replace_item(std::move(updated));
  }
  return Status::ok();
}

Result<DdlResult> Catalog::create_item(ItemSpec spec, CreateMode mode) {
  DdlResult result;
  auto next = working_copy();
  CatalogStore::Batch batch;
  if (is_system_schema(spec.name.schema)) return errors::system_object("schema", spec.name.schema);

  if (const Item* existing = next->find_item(spec.name)) {
    switch (mode) {
      case CreateMode::kCreate:
        return errors::item_exists(spec.name.item);
      case CreateMode::kIfNotExists:
        result.notices.push_back(errors::notice_item_exists(spec.name.item));
        return result;
      case CreateMode::kOrReplace: {
        if (existing->kind != spec.kind) return errors::wrong_kind(*existing, spec.kind);
        ItemId old_id = existing->id;
        TANDEM_ASSIGN_OR_RETURN(std::vector<ItemId> replaced,
                                drop_closure(*next, std::span<const ItemId>(&old_id, 1), DropBehavior::kCascade));
        for (ItemId dep : spec.dependencies) {
          if (std::find(replaced.begin(), replaced.end(), dep) != replaced.end()) {
            std::string noun(item_kind_noun(spec.kind));
            return Status::error(sqlstate::kDependentObjectsStillExist,
                                 "cannot replace " + noun + " \"" + spec.name.item + "\": depended upon by new \"" +
                                     spec.name.item + "\" definition");
          }
        }
        apply_drops(*next, replaced, batch, result);
        break;
      }
    }
  }

  ItemId id = ItemId::user(next_user_item_);
  std::optional<RoleId> owner = spec.owner;
  TANDEM_ASSIGN_OR_RETURN(std::shared_ptr<const Item> item, build_item(*next, id, std::move(spec), false));
  batch.put_item(PersistedItem{id, item->create_sql, item->shard()});
  if (owner) {
    ObjectAcl acl = owner_acl(*owner, object_type_of(*item));
    batch.put_acl(item_object(id), acl);
    next->access_.acls_[item_object(id)] = acl;
  }
  batch.put_next_id(IdSpace::kItem, next_user_item_ + 1);
  next->insert_item(std::move(item));
  TANDEM_RETURN_IF_ERROR(commit(std::move(next), batch));
  ++next_user_item_;
  result.created_item = id;
  return result;
}

Result<DdlResult> Catalog::drop_items(std::span<const ItemId> ids, DropBehavior behavior) {
  DdlResult result;
  TANDEM_ASSIGN_OR_RETURN(std::vector<ItemId> closure, drop_closure(*current_, ids, behavior));
  if (closure.empty()) return result;
  auto next = working_copy();
  CatalogStore::Batch batch;
  apply_drops(*next, closure, batch, result);
  TANDEM_RETURN_IF_ERROR(commit(std::move(next), batch));
  return result;
}

Result<DdlResult> Catalog::drop_objects(ItemKind kind, std::span<const PartialName> names, bool if_exists,
                                        DropBehavior behavior, const SearchPath& path) {
  std::vector<Status> notices;
  std::vector<ItemId> ids;
  for (const PartialName& name : names) {
    Result<const Item*> found = current_->resolve_item(name, path);
    if (!found.ok()) {
      const std::string& code = found.status().sqlstate();
      bool missing = code == sqlstate::kUndefinedTable || code == sqlstate::kInvalidSchemaName ||
                     code == sqlstate::kInvalidCatalogName;
      if (if_exists && missing) {
        notices.push_back(errors::notice_does_not_exist(item_kind_noun(kind), name.to_string()));
        continue;
      }
      return std::move(found).take_status();
    }
    if ((*found)->id.is_system()) return errors::system_object("item", (*found)->name.to_string());
    if ((*found)->kind != kind) return errors::wrong_kind(**found, kind);
    ids.push_back((*found)->id);
  }
  TANDEM_ASSIGN_OR_RETURN(DdlResult result, drop_items(ids, behavior));
  result.notices.insert(result.notices.begin(), notices.begin(), notices.end());
  return result;
}

Status Catalog::rename_item(ItemId id, std::string new_name, const SqlRewrites& rewrites) {
  const Item* old = current_->item(id);
  if (old == nullptr) return errors::internal("rename of unknown item " + id.to_string());
  if (!id.is_user()) return errors::system_object("item", old->name.to_string());
  QualifiedName target = old->name;
  target.item = std::move(new_name);
  if (target == old->name) return Status::ok();
  if (current_->find_item(target) != nullptr) return errors::item_exists(target.item);

  auto next = working_copy();
  CatalogStore::Batch batch;
  auto renamed = std::make_shared<Item>(*old);
  renamed->name = target;
  next->replace_item(renamed);
  batch.put_item(PersistedItem{id, renamed->create_sql, renamed->shard()});
  TANDEM_RETURN_IF_ERROR(apply_rewrites(*next, rewrites, batch));
  return commit(std::move(next), batch);
}

Status Catalog::alter_table(ItemId id, std::string create_sql, RelationDesc desc, TableDetails details) {
  const Item* old = current_->item(id);
  if (old == nullptr) return errors::internal("ALTER TABLE of unknown item " + id.to_string());
  if (!id.is_user()) return errors::system_object("item", old->name.to_string());
  if (old->table() == nullptr) {
    return Status::error(sqlstate::kWrongObjectType, "\"" + old->name.item + "\" is not a table");
  }
  if (old->table()->shard != details.shard) return errors::internal("ALTER TABLE may not change a table's shard");
  auto next = working_copy();
  CatalogStore::Batch batch;
  auto altered = std::make_shared<Item>(*old);
  altered->create_sql = std::move(create_sql);
  altered->desc = std::move(desc);
  altered->details = std::move(details);
  next->replace_item(altered);
  batch.put_item(PersistedItem{id, altered->create_sql, altered->shard()});
  return commit(std::move(next), batch);
}

Status Catalog::update_create_sql(const SqlRewrites& rewrites) {
  auto next = working_copy();
  CatalogStore::Batch batch;
  TANDEM_RETURN_IF_ERROR(apply_rewrites(*next, rewrites, batch));
  return commit(std::move(next), batch);
}

}  // namespace tandem::catalog
