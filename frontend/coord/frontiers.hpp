#pragma once
// CollectionFrontiers: the coordinator's view of every readable collection's
// `since` (the least time reads are exact at) and `upper` (the least time
// that may still change), for timestamp selection (DESIGN §7,
// materialize.md §4).
//
//  * tables: since is the later of the time the table was opened (its
//    creation, or the boot time after a restart, when history arrives
//    consolidated) and the *table read frontier* every table shard is
//    compacted to (the coordinator advances it about once a second, a lag
//    behind "now"); upper is the one upper all tables share, recorded once
//    compute has been told about it.
//  * indexes: since is the index dataflow's as_of; upper is what compute
//    reports in FrontierUpper responses (the least over workers).
//  * shards: the durable shard of each table and materialized view, for
//    introspection (their frontiers there are storage's).
//
// Table read holds: a read that may need a table's history from storage (a
// peek dataflow or subscribe whose cluster has no input for the table yet,
// an explicit transaction's later reads) takes a TableHold *before* it reads
// the frontiers to choose its timestamp, and keeps it until its dataflow's
// inputs exist. While a hold lives the table read frontier stays at or
// below the hold's time, so the chosen timestamp (>= the since read after
// taking it) stays readable from the shards.
//
// Threading: written on the coordinator thread, read from any thread
// (sessions select timestamps off the coordinator's path): one mutex, held
// only to update or copy an entry. Holds may be taken and dropped on any
// thread, and may outlive the CollectionFrontiers.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <utility>
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
  struct Holds {
    std::mutex mutex;  // also guards every field of CollectionFrontiers
    std::multiset<Timestamp> times;
    Timestamp table_since = kMinTimestamp;
  };

 public:
  // A hold on the table read frontier (see above). Empty when
  // default-constructed; copies share one hold, released with the last.
  class TableHold {
   public:
    TableHold() = default;
    explicit operator bool() const { return entry_ != nullptr; }
    Timestamp time() const { return entry_ ? *entry_->it : kMinTimestamp; }

   private:
    friend class CollectionFrontiers;
    struct Entry {
      Entry(std::shared_ptr<Holds> h, std::multiset<Timestamp>::iterator i) : holds(std::move(h)), it(i) {}
      Entry(const Entry&) = delete;
      Entry& operator=(const Entry&) = delete;
      std::shared_ptr<Holds> holds;
      std::multiset<Timestamp>::iterator it;
      ~Entry() {
        std::lock_guard lock(holds->mutex);
        holds->times.erase(it);
      }
    };
    std::shared_ptr<Entry> entry_;
  };

  // Holds the table read frontier where it is now.
  TableHold hold_tables() const { return hold_tables_at(kMinTimestamp); }
  // Holds it at `time`, or where it is now if that is later (a hold never
  // pulls the frontier back).
  TableHold hold_tables_at(Timestamp time) const {
    std::lock_guard lock(mutex_);
    TableHold hold;
    hold.entry_ =
        std::make_shared<TableHold::Entry>(holds_, holds_->times.insert(std::max(time, holds_->table_since)));
    return hold;
  }
  // Moves the table read frontier to `candidate`, or as far towards it as
  // the holds allow (never backwards); returns where it is. Coordinator.
  Timestamp advance_table_since(Timestamp candidate) {
    std::lock_guard lock(mutex_);
    if (!holds_->times.empty()) candidate = std::min(candidate, *holds_->times.begin());
    holds_->table_since = std::max(holds_->table_since, candidate);
    return holds_->table_since;
  }
  Timestamp table_since() const {
    std::lock_guard lock(mutex_);
    return holds_->table_since;
  }

  void add_table(compute::GlobalId id, Timestamp since) {
    std::lock_guard lock(mutex_);
    tables_[id] = since;
  }
  void add_index(compute::GlobalId id, Timestamp since) {
    std::lock_guard lock(mutex_);
    indexes_[id] = Frontier{since, since, false};
  }
  // The durable shard of a table or materialized view
  // (mz_internal.mz_storage_shards); forgotten with remove().
  void set_shard(compute::GlobalId id, uint64_t shard) {
    std::lock_guard lock(mutex_);
    shards_[id] = shard;
  }
  std::vector<std::pair<compute::GlobalId, uint64_t>> shards() const {
    std::lock_guard lock(mutex_);
    return {shards_.begin(), shards_.end()};
  }
  void remove(compute::GlobalId id) {
    std::lock_guard lock(mutex_);
    tables_.erase(id);
    indexes_.erase(id);
    shards_.erase(id);
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
    for (const auto& [id, since] : tables_) out.push_back({id, std::max(since, holds_->table_since), table_upper_});
    for (const auto& [id, f] : indexes_) out.push_back({id, f.since, f.upper});
    return out;
  }
  std::optional<Frontier> get(compute::GlobalId id) const {
    std::lock_guard lock(mutex_);
    if (auto t = tables_.find(id); t != tables_.end()) {
      return Frontier{std::max(t->second, holds_->table_since), table_upper_, true};
    }
    if (auto i = indexes_.find(id); i != indexes_.end()) return i->second;
    return std::nullopt;
  }

 private:
  std::shared_ptr<Holds> holds_ = std::make_shared<Holds>();
  std::mutex& mutex_ = holds_->mutex;
  std::map<compute::GlobalId, Timestamp> tables_;
  std::map<compute::GlobalId, Frontier> indexes_;
  std::map<compute::GlobalId, uint64_t> shards_;
  Timestamp table_upper_ = kMinTimestamp;
};

}  // namespace tandem::frontend
