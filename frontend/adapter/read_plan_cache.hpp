#pragma once
// ReadPlanCache: a prepared SELECT's planned lookup, reused across
// executions (issue 5 item 10a: re-planning was 60% of a prepared point
// lookup's cost).
//
// An entry holds the statement's planner::PreparedLookup (or the finding
// that the statement is not one, so it is planned per execution without
// trying again) together with everything the plan depends on: the catalog
// version it was planned against, and the session's database, search_path
// and cluster. The parameter types are the statement's own, fixed at Parse.
// Every catalog change (CREATE/DROP INDEX, DROP TABLE, renames, ALTER
// SYSTEM, ...) publishes a new catalog version, so the next execution plans
// again: a dropped relation is then an error, a new index may be chosen,
// a dropped-and-recreated index is found under its new id.
//
// Threading: get() and set() may be called from any thread (a prepared
// statement is normally used by one session, but a Portal keeps it alive
// beyond a re-Parse); entries are immutable once published.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "catalog/global_id.hpp"
#include "planner/prepared_lookup.hpp"

namespace tandem::frontend {

struct CachedRead {
  uint64_t catalog_version = 0;
  std::string database;
  std::string search_path;
  std::string cluster;
  catalog::ClusterId cluster_id;
  // System parameters of that catalog version.
  int64_t inline_budget = 0;    // compute_index_peek_inline_budget
  bool offload = true;          // enable_compute_index_peek_offload
  int64_t max_result_size = 0;  // max_result_size, in bytes
  // nullopt: not a prepared lookup; planned per execution.
  std::optional<planner::PreparedLookup> lookup;

  bool planned_under(uint64_t version, const std::string& db, const std::string& path,
                     const std::string& cluster_name) const {
    return catalog_version == version && database == db && search_path == path && cluster == cluster_name;
  }
};

class ReadPlanCache {
 public:
  // True the first time only. A statement executed once (every query of
  // the simple protocol) is planned for its values alone; a generic plan
  // pays off from the second execution on, as in PostgreSQL's plan cache.
  bool first_use() { return !used_.exchange(true, std::memory_order_relaxed); }
  std::shared_ptr<const CachedRead> get() const {
    std::lock_guard<std::mutex> lock(mu_);
    return entry_;
  }
  void set(std::shared_ptr<const CachedRead> entry) {
    std::lock_guard<std::mutex> lock(mu_);
    entry_ = std::move(entry);
  }

 private:
  std::atomic<bool> used_{false};
  mutable std::mutex mu_;
  std::shared_ptr<const CachedRead> entry_;  // guarded by mu_
};

}  // namespace tandem::frontend
