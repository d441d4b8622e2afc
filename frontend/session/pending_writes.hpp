#pragma once
// PendingWrites: the writes of an open transaction (a BEGIN ... COMMIT block,
// or the implicit transaction of a multi-statement Query), held by its
// session until COMMIT applies them all at one timestamp, or ROLLBACK, an
// error or a disconnect drops them. No other session sees them before.
//
// Reads inside the transaction see them: a read plans each written table as
// its committed contents at the transaction's timestamp plus the table's
// consolidated updates here (planner::PlanContext::pending_writes).
//
// Conflicts: UPDATE, DELETE and TRUNCATE read their target at the
// transaction's timestamp and record it in `read_tables`; COMMIT fails with
// 40001 (and writes nothing) if another commit wrote one of those tables
// after that timestamp. Unique keys are checked as each statement adds its
// updates (against the committed rows and the transaction's own, so the
// statement gets the 23505) and again at COMMIT, against the rows committed
// by then (23505, nothing written).
//
// Threading: owned by one session.

#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/row.hpp"
#include "common/timestamp.hpp"
#include "compute/plan/global_id.hpp"

namespace tandem::frontend {

class PendingWrites {
 public:
  using Updates = std::vector<std::pair<Row, Diff>>;

  bool empty() const { return tables_.empty(); }
  // Appends a statement's updates to `table`'s.
  void add(compute::GlobalId table, Updates updates);
  // Records that the transaction's writes depend on `table`'s contents at
  // the transaction's timestamp.
  void add_read_table(compute::GlobalId table);
  const std::vector<compute::GlobalId>& read_tables() const { return read_tables_; }
  // Per written table with unique keys: the net count of each key its
  // updates add or remove, one map per constraint
  // (Coordinator::check_pending_keys).
  using KeyCounts = std::vector<std::unordered_map<std::string, Diff>>;
  KeyCounts& key_counts(compute::GlobalId table) { return key_counts_[table]; }

  // Per written table, its updates consolidated: each row once, with its net
  // diff, in row order; rows whose diffs cancel are gone (a table whose
  // updates all cancel keeps an empty list).
  const std::map<compute::GlobalId, Updates>& consolidated();
  // consolidated(), handed over (to the commit), leaving no writes.
  std::map<compute::GlobalId, Updates> take_consolidated() {
    consolidated();
    return std::move(tables_);
  }

 private:
  std::map<compute::GlobalId, Updates> tables_;
  std::vector<compute::GlobalId> read_tables_;
  std::map<compute::GlobalId, KeyCounts> key_counts_;
  bool consolidated_ = true;
};

}  // namespace tandem::frontend
