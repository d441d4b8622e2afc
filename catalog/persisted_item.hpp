#pragma once
// PersistedItem: what the catalog column family holds for one user item and
// what Catalog::items_to_replay hands the coordinator at boot — the id, the
// create_sql to re-plan, and the storage shard a table or materialized view
// writes to (not derivable from the SQL, so persisted beside it).
// Threading: plain value.

#include <optional>
#include <string>

#include "catalog/global_id.hpp"
#include "storage/shard_types.hpp"

namespace tandem::catalog {

struct PersistedItem {
  ItemId id;
  std::string create_sql;
  std::optional<storage::ShardId> shard;

  bool operator==(const PersistedItem&) const = default;
};

}  // namespace tandem::catalog
