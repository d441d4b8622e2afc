#pragma once
// SessionCatalog: the planner's CatalogReader (planner/catalog_reader.hpp)
// over one immutable catalog snapshot and a session's search path. Indexes
// are reported only when their arrangements exist in compute. An
// mz_introspection relation has one index, its logging dataflow's, on the
// reader's cluster (frontend/adapter/introspection.hpp); without a cluster
// it has none.
// Threading: one per planning call; the snapshot it reads is immutable.

#include <map>
#include <memory>
#include <optional>

#include "catalog/catalog_snapshot.hpp"
#include "catalog/controller_status.hpp"
#include "frontend/session/pending_writes.hpp"
#include "planner/catalog_reader.hpp"

namespace tandem::frontend {

// Whether item `id` is a table with pending updates in `pending`, or is
// computed (through its dependencies) from one.
bool reads_pending_writes(const catalog::CatalogSnapshot& snapshot, catalog::ItemId id,
                          const std::map<compute::GlobalId, PendingWrites::Updates>& pending);

class SessionCatalog final : public planner::CatalogReader {
 public:
  // With `cluster`, only indexes on that cluster are offered (a read can
  // import only arrangements of the runtime it runs on).
  SessionCatalog(std::shared_ptr<const catalog::CatalogSnapshot> snapshot, catalog::SearchPath path,
                 std::optional<catalog::ClusterId> cluster = std::nullopt)
      : snapshot_(std::move(snapshot)), path_(std::move(path)), cluster_(cluster) {}

  // Reads of the controller-level relations (mz_internal.mz_frontiers, ...)
  // take the controller's status from `source`, once per SessionCatalog so
  // that every relation a statement reads agrees. Without it they are
  // empty: set it wherever a plan's rows are read, not only described.
  void set_controller(catalog::ControllerStatusSource source) { controller_ = std::move(source); }
  // A read in a transaction with uncommitted writes (per table): a
  // materialized view computed from a written table is offered as a view
  // over its defining query, so that the read recomputes it from the
  // tables and their pending writes (its stored contents lack them).
  void set_pending_writes(const std::map<compute::GlobalId, PendingWrites::Updates>* pending) { pending_ = pending; }

  const planner::CatalogItem* resolve(const std::vector<std::string>& name) const override;
  std::vector<planner::IndexInfo> indexes_on(compute::GlobalId id) const override;

  // The items resolved so far (what a view or index being created depends on).
  std::vector<catalog::ItemId> resolved_ids() const;
  // 0A000 if a builtin catalog relation was resolved: those are constants
  // computed per read (catalog/builtin_relations.hpp), so `what` (an index,
  // a materialized view) cannot maintain a result over them.
  Status refuse_builtin_catalog_relations(std::string_view what) const;
  // 0A000 if an mz_introspection relation was resolved: its contents are
  // per cluster, so `object_type` ("view", "materialized view", "index")
  // may not depend on it (Materialize's InvalidLogDependency).
  Status refuse_introspection_relations(std::string_view object_type) const;

 private:
  std::shared_ptr<const catalog::CatalogSnapshot> snapshot_;
  catalog::SearchPath path_;
  std::optional<catalog::ClusterId> cluster_;
  mutable std::map<compute::GlobalId, std::unique_ptr<planner::CatalogItem>> resolved_;
  catalog::ControllerStatusSource controller_;
  const std::map<compute::GlobalId, PendingWrites::Updates>* pending_ = nullptr;
  mutable std::shared_ptr<const catalog::ControllerStatus> controller_status_;
};

}  // namespace tandem::frontend
