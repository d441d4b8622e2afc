#pragma once
// Statements that read or change the catalog: CREATE TABLE, DROP, SHOW
// TABLES/OBJECTS/..., SHOW CREATE, and the boot-time replay of persisted
// items. They run on the coordinator thread (the catalog's writer) and touch
// storage and compute through the Coordinator.

#include "catalog/catalog.hpp"
#include "common/status.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "frontend/coord/coordinator.hpp"
#include "planner/parser/ast.hpp"

namespace tandem::frontend {

struct Engine {
  catalog::Catalog& catalog;
  Coordinator& coordinator;
  // Clusters a statement created a dataflow on: the statement answers once
  // the dataflow has reached compute (Coordinator::when_dispatched).
  std::vector<uint64_t> dataflow_clusters = {};
  // The role that runs the statement: it owns what it creates.
  std::optional<catalog::RoleId> owner = std::nullopt;
};

// The session's name-resolution context from its variables.
catalog::SearchPath search_path_of(const std::string& database, const std::string& search_path_var);
catalog::PartialName partial_name(const sql::ObjectName& name);

// A table's item spec from its CREATE TABLE (validated: columns, types,
// defaults, keys), without its shard.
Result<catalog::ItemSpec> table_spec(const catalog::CatalogSnapshot& snapshot, const catalog::SearchPath& path,
                                     const sql::CreateTable& create);
// The keys the coordinator enforces for table `item` (catalog::table_keys).
std::vector<UniqueKey> unique_keys_of(const catalog::Item& item);

// ---- on the coordinator thread
Result<ExecResult> create_table(Engine& engine, const catalog::SearchPath& path, const sql::CreateTable& create);
Result<ExecResult> drop_objects(Engine& engine, const catalog::SearchPath& path, const sql::DropObjects& drop);
// CREATE [OR REPLACE] VIEW: validated by planning its query; not maintained
// unless indexed (reads inline its definition).
Result<ExecResult> create_view(Engine& engine, const catalog::SearchPath& path, const sql::CreateView& create);
// CREATE [DEFAULT] INDEX: the catalog item and its dataflow, built at the
// oracle's read timestamp on the cluster's runtime. `cluster` is the
// session's cluster (IN CLUSTER overrides it).
Result<ExecResult> create_index(Engine& engine, const catalog::SearchPath& path, const std::string& cluster,
                                const sql::CreateIndex& create);
// CREATE [OR REPLACE] MATERIALIZED VIEW: the catalog item, its shard and
// its dataflow on the cluster (IN CLUSTER, else the session's `cluster`),
// computing as of the oracle's read timestamp and sinking into the shard.
Result<ExecResult> create_materialized_view(Engine& engine, const catalog::SearchPath& path, const std::string& cluster,
                                            const sql::CreateMaterializedView& create);
// Tears down what dropped items had in storage and compute (dataflows,
// shards), dependents first.
void retire_dropped(Engine& engine, const std::vector<std::shared_ptr<const catalog::Item>>& dropped);
// Re-creates every persisted item at boot, in id order.
Status replay_catalog(Engine& engine);

// ---- on any thread (they read a catalog snapshot)
Result<ExecResult> show_objects(const catalog::CatalogSnapshot& catalog, const catalog::SearchPath& path,
                                const sql::ShowObjects& show);
Result<ExecResult> show_create(const catalog::CatalogSnapshot& catalog, const catalog::SearchPath& path,
                               const sql::ShowCreate& show);
Result<ExecResult> show_columns(const catalog::CatalogSnapshot& catalog, const catalog::SearchPath& path,
                                const sql::ShowColumns& show);

// The coordinator's key for a catalog cluster id.
uint64_t cluster_key(catalog::ClusterId id);
// Worker threads for a cluster size: 'scale=1,workers=N', 'N', or 1 for
// Materialize's credit sizes ('25cc', ...).
Result<size_t> workers_for_size(const std::string& size);
// How a cluster of `size` is built under the current system parameters
// (read once, when the cluster's runtimes are created).
ClusterCompute cluster_compute(const std::string& size, const catalog::SystemVars& vars);

// ALTER TABLE/VIEW/INDEX ... RENAME TO (on the coordinator thread). The
// item's create_sql and its indexes' are rewritten; renaming an object that
// views use is refused (their SQL would need rewriting too).
Result<ExecResult> alter_rename(Engine& engine, const catalog::SearchPath& path, const sql::AlterRename& rename);

// ALTER TABLE ... ADD [CONSTRAINT c] PRIMARY KEY (cols) | UNIQUE (cols)
// (on the coordinator thread; alter_table.cpp): the rows present are
// checked first (a NULL in a primary key column is 23502, a repeated key
// 23505), then the key is enforced on every write and the table's
// create_sql carries it, so it survives a restart. The constraint is named
// as CREATE TABLE names it (t_pkey, t_a_key).
Result<ExecResult> alter_table_add_constraint(Engine& engine, const catalog::SearchPath& path,
                                              const sql::AlterTableAddConstraint& alter);

// CREATE CLUSTER / DROP CLUSTER (on the coordinator thread).
Result<ExecResult> create_cluster(Engine& engine, const sql::CreateCluster& create);
Result<ExecResult> drop_cluster(Engine& engine, const sql::DropObjects& drop);
Result<ExecResult> show_clusters(const catalog::CatalogSnapshot& catalog);

// Resolves a SQL type name (all PostgreSQL spellings).
Result<ColumnType> column_type_of(const sql::TypeName& type);

}  // namespace tandem::frontend
