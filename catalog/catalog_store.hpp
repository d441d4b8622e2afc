#pragma once
// CatalogStore: the catalog's durable encoding in the `catalog` column family
// of the DurableStore. Internal to catalog/ — other layers go through Catalog.
//
// Keys (ids zero-padded to 20 digits so byte order is id order):
//   item/<id>          -> [create_sql, shard or ""]           user items
//   cluster/<id>       -> [name, size, replication factor, create_sql]
//   schema/<id>        -> [database, name]                     user schemas
//   var/<name>         -> normalized value                     ALTER SYSTEM SET
//   counter/<space>    -> next value to allocate (item, cluster, schema)
//   meta/initialized   -> "1" once the defaults (public, quickstart) exist
// Values with several fields are length-prefixed: "<len>:<bytes>" per field.
//
// A Batch collects puts and deletes; commit() applies it as one RocksDB
// WriteBatch (synced when the store syncs), so each catalog change is atomic.
// Threading: coordinator thread only.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/cluster.hpp"
#include "catalog/persisted_item.hpp"
#include "catalog/schema.hpp"
#include "common/status.hpp"
#include "storage/durable_store.hpp"

namespace tandem::catalog {

enum class IdSpace : uint8_t { kItem, kCluster, kSchema };

class CatalogStore {
 public:
  struct Loaded {
    bool initialized = false;
    std::vector<PersistedItem> items;  // id order
    std::vector<Cluster> clusters;     // id order
    std::vector<Schema> schemas;       // id order
    std::map<std::string, std::string> vars;
    // Next value per IdSpace (1 when never written).
    uint64_t next_id[3] = {1, 1, 1};
  };

  class Batch {
   public:
    void put_item(const PersistedItem& item);
    void delete_item(ItemId id);
    void put_cluster(const Cluster& cluster);
    void delete_cluster(ClusterId id);
    void put_schema(const Schema& schema);
    void delete_schema(SchemaId id);
    void put_var(const std::string& name, const std::string& value);
    void delete_var(const std::string& name);
    void put_next_id(IdSpace space, uint64_t next);
    void mark_initialized();
    bool empty() const { return ops_.empty(); }

   private:
    friend class CatalogStore;
    struct Op {
      std::string key;
      std::optional<std::string> value;  // nullopt: delete
    };
    std::vector<Op> ops_;
  };

  explicit CatalogStore(storage::DurableStore& store) : store_(store) {}

  // Reads everything back; XX001 when an entry cannot be decoded.
  Result<Loaded> load() const;
  Status commit(const Batch& batch);

 private:
  storage::DurableStore& store_;
};

}  // namespace tandem::catalog
