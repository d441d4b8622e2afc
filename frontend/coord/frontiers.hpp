#pragma once
// CollectionFrontiers: the coordinator's view of every readable collection's
// `since` (the least time reads are exact at) and `upper` (the least time
// that may still change), for timestamp selection (DESIGN §7,
// materialize.md §4).
//
//  * tables: since is the time the table's compute input starts at (its
//    creation, or the boot time after a restart, when history arrives
//    consolidated); upper is the one upper all tables share, recorded once
//    compute has been told about it.
//  * indexes: since is the index dataflow's as_of; upper is what compute
//    reports in FrontierUpper responses (the least over workers).
//
// Threading: written on the coordinator thread, read from any thread
// (sessions select timestamps off the coordinator's path): one mutex, held
// only to update or copy an entry.
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "catalog/controller_status.hpp"

#include "common/timestamp.hpp"
#include "compute/plan/global_id.hpp"

namespace tandem::frontend {

struct Frontier {
  Timestamp since = kMinTimestamp;
  Timestamp upper = kMinTimestamp;
  bool is_table = false;
};

class CollectionFrontiers {
 public:
  void add_table(compute::GlobalId id, Timestamp since) {
    std::lock_guard lock(mutex_);
    tables_[id] = since;
  }
  void add_index(compute::GlobalId id, Timestamp since) {
    std::lock_guard lock(mutex_);
    indexes_[id] = Frontier{since, since, false};
  }
  void remove(compute::GlobalId id) {
    std::lock_guard lock(mutex_);
    tables_.erase(id);
    indexes_.erase(id);
  }
  void set_table_upper(Timestamp upper) {
    std::lock_guard lock(mutex_);
    if (upper > table_upper_) table_upper_ = upper;
  }
  // Unknown ids (transient dataflows) are ignored.
  void advance_index(compute::GlobalId id, Timestamp upper) {
    std::lock_guard lock(mutex_);
    auto it = indexes_.find(id);
    if (it != indexes_.end() && upper > it->second.upper) it->second.upper = upper;
  }
  // Every collection's since and upper (mz_internal.mz_frontiers).
  std::vector<catalog::CollectionFrontierStatus> all() const {
    std::lock_guard lock(mutex_);
    std::vector<catalog::CollectionFrontierStatus> out;
    for (const auto& [id, since] : tables_) out.push_back({id, since, table_upper_});
    for (const auto& [id, f] : indexes_) out.push_back({id, f.since, f.upper});
    return out;
  }
  std::optional<Frontier> get(compute::GlobalId id) const {
    std::lock_guard lock(mutex_);
    if (auto t = tables_.find(id); t != tables_.end()) return Frontier{t->second, table_upper_, true};
    if (auto i = indexes_.find(id); i != indexes_.end()) return i->second;
    return std::nullopt;
  }

 private:
  mutable std::mutex mutex_;
  std::map<compute::GlobalId, Timestamp> tables_;
  std::map<compute::GlobalId, Frontier> indexes_;
  Timestamp table_upper_ = kMinTimestamp;
};

}  // namespace tandem::frontend
