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

}  // namespace tandem::catalog
