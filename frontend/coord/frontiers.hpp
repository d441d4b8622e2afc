#pragma once
// CollectionFrontiers: the coordinator's view of every readable collection's
// `since` (the least time reads are exact at) and `upper` (the least time
// that may still change), and the read holds that bound each since
// (DESIGN §5-7, materialize.md §4).
//
//  * tables: since is the later of the time the table was opened (its
//    creation, or the boot time after a restart, when history arrives
//    consolidated) and the *table read frontier* every table shard is
//    compacted to (the coordinator advances it about once a second, a lag
//    behind "now"); upper is the one upper all tables share, recorded once
//    compute has been told about it.
//  * indexes and materialized views: since starts at the dataflow's as_of
//    (a view's: its shard's upper) and follows the *read policy*: the
//    upper less the compaction lag (advance_index_sinces), held back by
//    every read hold on the collection; upper is what compute reports in
//    FrontierUpper responses (a view's: its shard's upper). The coordinator
//    sends an index's new since to compute as AllowCompaction, so its
//    arrangement consolidates every time below it.
//  * shards: the durable shard of each table and materialized view, for
//    introspection (their frontiers there are storage's).
//
// Read holds. A read takes its holds *before* it reads the frontiers to
// choose its timestamp, and keeps them until it has read:
//  * a ReadHold (hold()) holds named indexes and views, each at the later of
//    its since then and a lower bound of the time the read will choose;
//  * a TableHold (hold_tables(), hold_tables_at()) holds the table read
//    frontier *and every index's and view's since* at one time (a peek
//    dataflow or subscribe reading tables' history, an explicit
//    transaction's later reads at its timestamp).
// No since passes a live hold, and a hold lands at or after the since it
// bounds, so a timestamp chosen at or after the sinces read after taking it
// stays readable. Since and upper never move backwards; a report that would
// move one back is logged as an internal error and ignored.
//
// Threading: written on the coordinator thread, read from any thread
// (sessions select timestamps off the coordinator's path): one mutex, held
// only to update or copy an entry. Holds may be taken and dropped on any
// thread, and may outlive the CollectionFrontiers. Dropping a hold that
// kept a since back calls the release waker (set_release_waker), under
// the mutex: it must only post work.
#include <functional>
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
  struct State;

 public:
  CollectionFrontiers();

  // A hold on the table read frontier and every index's since (see above).
  // Empty when default-constructed; copies share one hold, released with
  // the last.
  class TableHold {
   public:
    TableHold() = default;
    explicit operator bool() const { return entry_ != nullptr; }
    Timestamp time() const;

   private:
    friend class CollectionFrontiers;
    struct Entry;
    std::shared_ptr<Entry> entry_;
  };

  // Holds on named indexes and materialized views (see above). Empty when
  // default-constructed; copies share the holds, released with the last.
  class ReadHold {
   public:
    ReadHold() = default;
    explicit operator bool() const { return entry_ != nullptr; }
    // Where the hold on `id` is (nullopt: not held).
    std::optional<Timestamp> time(compute::GlobalId id) const;

   private:
    friend class CollectionFrontiers;
    struct Entry;
    std::shared_ptr<Entry> entry_;
  };

  // Holds the table read frontier where it is now.
  TableHold hold_tables() const { return hold_tables_at(kMinTimestamp); }
  // Holds it at `time`, or where it is now if that is later (a hold never
  // pulls the frontier back); indexes and views are held at `time`.
  TableHold hold_tables_at(Timestamp time) const;
  // Holds each known index and view of `ids` at max(its since, at_least);
  // tables and unknown ids are skipped.
  ReadHold hold(const std::vector<compute::GlobalId>& ids, Timestamp at_least = kMinTimestamp) const;
  // Moves the table read frontier to `candidate`, or as far towards it as
  // the holds allow (never backwards); returns where it is. Coordinator.
  Timestamp advance_table_since(Timestamp candidate);
  Timestamp table_since() const;

  // The compaction lag of the read policy (>= 1 ms).
  void set_compaction_lag(Timestamp lag);
  // Called (under the mutex) when a dropped hold kept a since back.
  void set_release_waker(std::function<void()> waker);

  // An index's new since for compute: the AllowCompaction to send.
  struct Allowed {
    compute::GlobalId id = 0;
    uint64_t cluster = 0;
    Timestamp since = kMinTimestamp;
  };
  // Moves every index's and view's since to its upper less the compaction
  // lag, as far as the holds allow (never backwards); returns the moved
  // sinces of compute exports. Coordinator thread.
  std::vector<Allowed> advance_index_sinces();

  void add_table(compute::GlobalId id, Timestamp since);
  // An index (or view) readable from `since`. With `exported`, its since is
  // compute's to compact (advance_index_sinces reports it for `cluster`).
  void add_index(compute::GlobalId id, Timestamp since, uint64_t cluster = 0, bool exported = false);
  // The durable shard of a table or materialized view
  // (mz_internal.mz_storage_shards); forgotten with remove().
  void set_shard(compute::GlobalId id, uint64_t shard);
  std::vector<std::pair<compute::GlobalId, uint64_t>> shards() const;
  void remove(compute::GlobalId id);
  void set_table_upper(Timestamp upper);
  // Unknown ids (transient dataflows) are ignored.
  void advance_index(compute::GlobalId id, Timestamp upper);
  // Every collection's since and upper (mz_internal.mz_frontiers).
  std::vector<catalog::CollectionFrontierStatus> all() const;
  std::optional<Frontier> get(compute::GlobalId id) const;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace tandem::frontend
