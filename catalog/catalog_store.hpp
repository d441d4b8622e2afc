#pragma once
// CatalogStore: the catalog's durable encoding in the `catalog` column family
// of the DurableStore. Internal to catalog/ — other layers go through Catalog.
//
// Keys (ids zero-padded to 20 digits so byte order is id order):
//   item/<id>          -> [create_sql, shard or ""]           user items
//   cluster/<id>       -> [name, size, replication factor, create_sql]
//   schema/<id>        -> [database, name]                     user schemas
//   var/<name>         -> normalized value                     ALTER SYSTEM SET
//   counter/<space>    -> next value to allocate (item, cluster, schema, role)
//   meta/initialized   -> "1" once the defaults (public, quickstart) exist
//   role/<role id>     -> [name, inherit, superuser, login] ("0"/"1")
//   member/<role>/<member> -> grantor role id                  GRANT role TO member
//   acl/<object>       -> [owner, then grantee, grantor, privilege bits per entry]
//                         (object keys of access_control.hpp: i:u1, s:u1, c:u1,
//                         d:materialize, system)
//   meta/roles_initialized -> "1" once the bootstrap roles and default ACLs exist
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

#include "catalog/access_control.hpp"
#include "catalog/cluster.hpp"
#include "catalog/persisted_item.hpp"
#include "catalog/schema.hpp"
#include "common/status.hpp"
#include "storage/durable_store.hpp"

namespace tandem::catalog {

enum class IdSpace : uint8_t { kItem, kCluster, kSchema, kRole };

class CatalogStore {
 public:
  struct Loaded {
    bool initialized = false;
    std::vector<PersistedItem> items;  // id order
    std::vector<Cluster> clusters;     // id order
    std::vector<Schema> schemas;       // id order
    std::map<std::string, std::string> vars;
    // Next value per IdSpace (1 when never written).
    uint64_t next_id[4] = {1, 1, 1, 1};
    bool roles_initialized = false;
    std::vector<Role> roles;
    std::vector<AccessControl::Membership> members;
    std::map<std::string, ObjectAcl> acls;
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
    void put_role(const Role& role);
    void delete_role(RoleId id);
    void put_member(RoleId role, RoleId member, RoleId grantor);
    void delete_member(RoleId role, RoleId member);
    void put_acl(const std::string& object, const ObjectAcl& acl);
    void delete_acl(const std::string& object);
    void mark_roles_initialized();
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
