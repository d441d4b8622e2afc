#include "catalog/item.hpp"

namespace tandem::catalog {

std::string_view item_kind_type_name(ItemKind kind) {
  switch (kind) {
    case ItemKind::kTable: return "table";
    case ItemKind::kSource: return "source";
    case ItemKind::kView: return "view";
    case ItemKind::kMaterializedView: return "materialized-view";
    case ItemKind::kIndex: return "index";
  }
  return "unknown";
}

std::string_view item_kind_noun(ItemKind kind) {
  switch (kind) {
    case ItemKind::kTable: return "table";
    case ItemKind::kSource: return "source";
    case ItemKind::kView: return "view";
    case ItemKind::kMaterializedView: return "materialized view";
    case ItemKind::kIndex: return "index";
  }
  return "item";
}

std::optional<storage::ShardId> Item::shard() const {
  if (const auto* t = table()) return t->shard;
  if (const auto* m = materialized_view()) return m->shard;
  return std::nullopt;
}

std::vector<TableKey> table_keys(const Item& item) {
  std::vector<TableKey> keys;
  const TableDetails* t = item.table();
  if (t == nullptr) return keys;
  if (t->primary_key) keys.push_back({item.name.item + "_pkey", *t->primary_key, true});
  for (const auto& k : t->unique_keys) {
    std::string name = item.name.item;
    for (size_t c : k) name += "_" + item.desc.columns[c].name;
    keys.push_back({name + "_key", k, false});
  }
  return keys;
}

ObjectType object_type_of(const Item& item) {
  switch (item.kind) {
    case ItemKind::kTable: return ObjectType::kTable;
    case ItemKind::kView: return ObjectType::kView;
    case ItemKind::kMaterializedView: return ObjectType::kMaterializedView;
    case ItemKind::kIndex: return ObjectType::kIndex;
    case ItemKind::kSource: return ObjectType::kSource;
  }
  return ObjectType::kTable;
}

}  // namespace tandem::catalog
