#pragma once
// Catalog: the writer side of the catalog. It owns the current
// CatalogSnapshot, applies DDL to it, persists every change in the DurableStore's
// `catalog` column family and publishes the result as a new immutable
// snapshot.
//
// Every mutation follows one order: validate against a private copy of the
// current snapshot, write one atomic batch to RocksDB, then publish the copy.
// An error at any step leaves memory and disk as they were.
//
// Boot: open() loads clusters, schemas, system parameters and
// the id counters, and lists the persisted user items in id order without
// planning them (the catalog cannot: it sits below the planner). The
// coordinator registers builtin items (register_system_item), then re-plans
// each of items_to_replay() and calls replay_item(id, spec), which re-creates
// the item under its old id without writing. Id order is a valid replay order
// because an item can only depend on items that existed when it was created,
// and CREATE OR REPLACE allocates a new id (see create_item).
//
// Ids: user item, cluster and schema counters are persisted in the same
// batch as the object that consumes them, so ids are never reused, even after
// DROP and restart.
//
// Threading: all member functions except snapshot() and
// allocate_transient_id() must be called from the coordinator thread.
// snapshot() may be called from any thread: it copies the latest published
// pointer under a mutex held only for that copy (never across I/O or a
// build), and the caller then reads the immutable snapshot without locks.
// (A mutex rather than std::atomic<std::shared_ptr>: libstdc++ 12's version
// is a spinlock too, and ThreadSanitizer cannot see its synchronization.)

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "catalog/catalog_snapshot.hpp"
#include "catalog/catalog_store.hpp"
#include "catalog/cluster.hpp"
#include "catalog/global_id.hpp"
#include "catalog/item.hpp"
#include "catalog/persisted_item.hpp"
#include "catalog/qualified_name.hpp"
#include "common/status.hpp"
#include "storage/durable_store.hpp"

namespace tandem::catalog {

enum class CreateMode : uint8_t {
  kCreate,       // name taken: 42P07
  kIfNotExists,  // name taken: a notice, nothing created
  // Name taken by an item of the same kind: that item and everything that
  // depends on it (transitively) are dropped and the new item gets a NEW id,
  // as Materialize does. Errors when the new definition depends on what it
  // replaces. A different kind: 42809.
  kOrReplace,
};

enum class DropBehavior : uint8_t {
  // Fails with 2BP01 when a non-index item outside the drop set depends on a
  // dropped item. Indexes never block: they go with the object they index.
  kRestrict,
  kCascade,  // drops dependents transitively
};

// What a DDL operation did, for the coordinator to act on.
struct DdlResult {
  std::optional<ItemId> created_item;
  std::optional<ClusterId> created_cluster;
  // Dropped items, dependents before what they depend on (descending id), so
  // the coordinator can tear down dataflows and shards in this order.
  std::vector<std::shared_ptr<const Item>> dropped;
  // NOTICE-severity messages (IF [NOT] EXISTS), as Status values.
  std::vector<Status> notices;
};

// Rewritten create_sql per item, for renames that change SQL text.
using SqlRewrites = std::map<ItemId, std::string>;

class Catalog {
 public:
  // Loads the catalog from `store`, creating the defaults (schema
  // materialize.public, cluster quickstart) on first open. `store` must
  // outlive the Catalog.
  // `default_cluster_size` (empty: the built-in default) sizes the
  // default cluster when the catalog is first created.
  static Result<std::unique_ptr<Catalog>> open(storage::DurableStore& store, std::string default_cluster_size = "");

  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;

  // ---- reads
  // Any thread. The latest published snapshot.
  std::shared_ptr<const CatalogSnapshot> snapshot() const {
    std::lock_guard<std::mutex> lock(published_mu_);
    return published_;
  }
  // Coordinator thread: the current state (same object as snapshot()).
  const CatalogSnapshot& state() const { return *current_; }

  // ---- boot
  // The persisted user items in id order, as loaded by open().
  const std::vector<PersistedItem>& items_to_replay() const { return replay_; }
  // Re-creates persisted item `id` from its re-planned spec, without writing.
  // REQUIRES: `id` is one of items_to_replay(); errors otherwise, or when the
  // spec's shard differs from the persisted one.
  Result<ItemId> replay_item(ItemId id, ItemSpec spec);
  // Registers a builtin item in a system schema under the next system id.
  // Not persisted: call it at every boot, in the same order.
  Result<ItemId> register_system_item(ItemSpec spec);

  // ---- items
  Result<DdlResult> create_item(ItemSpec spec, CreateMode mode = CreateMode::kCreate);
  Result<DdlResult> drop_items(std::span<const ItemId> ids, DropBehavior behavior);
  // DROP <kind> [IF EXISTS] names [CASCADE]: resolves each name against
  // `path`; a missing name is an error, or a notice with `if_exists`; an item
  // of another kind is 42809.
  Result<DdlResult> drop_objects(ItemKind kind, std::span<const PartialName> names, bool if_exists,
                                 DropBehavior behavior, const SearchPath& path);
  // Renames an item within its schema (42P07 if the name is taken). Renaming
  // changes the SQL text of the item and of dependents that name it; the
  // planner rewrites them and passes the new texts in `rewrites` (the item's
  // own entry included), and all are written in one batch.
  Status rename_item(ItemId id, std::string new_name, const SqlRewrites& rewrites = {});
  // Replaces user table `id`'s definition (ALTER TABLE ... ADD PRIMARY
  // KEY / UNIQUE): its create_sql, columns and details, in one write. The
  // name, id and shard stay; 42809 if `id` is not a table, an internal
  // error if `details` names another shard.
  Status alter_table(ItemId id, std::string create_sql, RelationDesc desc, TableDetails details);
  // Replaces the stored create_sql of existing user items, atomically.
  Status update_create_sql(const SqlRewrites& rewrites);

  // ---- schemas
  // `database` nullopt = the default database `materialize`.
  Result<DdlResult> create_schema(const std::optional<std::string>& database, std::string name,
                                  bool if_not_exists, std::optional<RoleId> owner = std::nullopt);
  // RESTRICT fails with 2BP01 when the schema contains items; CASCADE drops
  // them (and their dependents elsewhere).
  Result<DdlResult> drop_schema(const std::optional<std::string>& database, std::string_view name,
                                bool if_exists, DropBehavior behavior);

  // ---- clusters
  Result<DdlResult> create_cluster(ClusterSpec spec, bool if_not_exists);
  // RESTRICT fails with 2BP01 `cannot drop cluster with active indexes or
  // materialized views`; CASCADE drops them and their dependents.
  Result<DdlResult> drop_cluster(std::string_view name, bool if_exists, DropBehavior behavior);
  // `new_create_sql` is the cluster's own rewritten SQL; `rewrites` those of
  // items whose create_sql says IN CLUSTER <old name>.
  Status rename_cluster(std::string_view name, std::string new_name, std::string new_create_sql,
                        const SqlRewrites& rewrites = {});

  // ---- system parameters (the coordinator checks superuser first)
  Status set_system_var(std::string_view name, std::string_view value);
  Status reset_system_var(std::string_view name);
  Status reset_all_system_vars();

  // ---- roles and privileges (catalog_roles.cpp; the adapter checks who may)
  // CREATE ROLE: 42710 when the name is taken, 42939 for reserved names
  // (PUBLIC, mz_*, pg_*).
  Result<RoleId> create_role(const std::string& name, const RoleAttributes& attributes);
  // The role a session named `name` runs as, created (LOGIN) when absent,
  // as Materialize does for a user that authenticated.
  Result<RoleId> ensure_role(const std::string& name);
  Status alter_role(const std::string& name, const RoleAttributes& attributes);
  // DROP ROLE: 2BP01 while it owns objects; its grants and memberships go
  // with it. `if_exists`: a missing role is a notice.
  Result<DdlResult> drop_roles(const std::vector<std::string>& names, bool if_exists);
  // GRANT role TO member / REVOKE: 0LP01 for a membership that would make
  // a cycle.
  Status grant_role(RoleId role, RoleId member, RoleId grantor);
  Status revoke_role(RoleId role, RoleId member);
  // GRANT/REVOKE privileges on one object (a key of access_control.hpp).
  Status update_privileges(const std::string& object, ObjectType type, RoleId grantee, RoleId grantor,
                           uint32_t bits, bool grant);
  // ALTER ... OWNER TO: the new owner takes over the old owner's ACL entry.
  Status set_owner(const std::string& object, ObjectType type, RoleId owner);

  // ---- ids
  // Any thread. A fresh transient id (t1, t2, ...), process-local.
  ItemId allocate_transient_id() { return ItemId::transient(next_transient_.fetch_add(1)); }

 private:
  explicit Catalog(storage::DurableStore& store) : store_(store) {}

  std::shared_ptr<CatalogSnapshot> working_copy() const {
    return std::make_shared<CatalogSnapshot>(*current_);
  }
  // Writes `batch` (if not empty), then publishes `next` as the new version.
  Status commit(std::shared_ptr<CatalogSnapshot> next, const CatalogStore::Batch& batch);
  void publish(std::shared_ptr<CatalogSnapshot> next);

  // Checks `spec` against `state` and builds the item under `id`. `system`
  // selects the system schemas as the only allowed home.
  Result<std::shared_ptr<const Item>> build_item(const CatalogSnapshot& state, ItemId id, ItemSpec spec,
                                                 bool system) const;
  // The set of items `ids` pulls in under `behavior`, or the 2BP01 / 42501
  // error; descending id order.
  Result<std::vector<ItemId>> drop_closure(const CatalogSnapshot& state, std::span<const ItemId> ids,
                                           DropBehavior behavior) const;
  // Removes `ids` from `next`, recording deletes in `batch` and the dropped
  // items in `result`.
  static void apply_drops(CatalogSnapshot& next, const std::vector<ItemId>& ids,
                          CatalogStore::Batch& batch, DdlResult& result);
  static Status apply_rewrites(CatalogSnapshot& next, const SqlRewrites& rewrites,
                               CatalogStore::Batch& batch);

  // Boot: roles, memberships and ACLs from `loaded`; on the first boot with
  // roles, the bootstrap roles and the default ACLs (written here).
  Status load_access_control(CatalogStore::Loaded& loaded, CatalogSnapshot& state);
  // The ACL a new object of `type` gets: its owner holding everything.
  static ObjectAcl owner_acl(RoleId owner, ObjectType type);
  // Persists `role` under the next user role id.
  Result<RoleId> add_role(Role role);

  CatalogStore store_;
  std::shared_ptr<const CatalogSnapshot> current_;
  mutable std::mutex published_mu_;
  std::shared_ptr<const CatalogSnapshot> published_;  // guarded by published_mu_
  std::vector<PersistedItem> replay_;
  std::map<ItemId, size_t> replay_index_;  // id -> position in replay_
  uint64_t next_user_item_ = 1;
  uint64_t next_user_cluster_ = 1;
  uint64_t next_user_schema_ = 1;
  uint64_t next_user_role_ = 1;
  uint64_t next_system_item_ = 1;
  std::atomic<uint64_t> next_transient_{1};
};

}  // namespace tandem::catalog
