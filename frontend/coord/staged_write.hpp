#pragma once
// StagedWrite: the rows of one large write (a COPY FROM STDIN of any size)
// staged in storage as they arrive, so the write path holds one piece of
// them at a time (storage's "Staged appends", storage/shard_store.hpp).
// Rows are encoded into a piece of about kPieceBytes, which is written as
// the stage's next chunks when full. Keys of the table's unique
// constraints are collected as rows arrive (a key twice within the write
// is 23505 at once); Coordinator::commit_staged checks them against the
// table's keys and commits the stage at one new timestamp, after which
// compute reads the write back from storage in bounded pieces. Dropping a
// StagedWrite that was not committed deletes what it staged.
// Threading: one owner thread at a time (the session's); created and
// committed through the Coordinator.

#include <memory>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/row.hpp"
#include "common/status.hpp"
#include "common/types.hpp"
#include "compute/plan/global_id.hpp"
#include "storage/shard_store.hpp"

namespace tandem::frontend {

// A unique constraint the coordinator enforces on writes: the key columns
// and the constraint's name for the 23505 error ("t_pkey", "t_a_key").
struct UniqueKey {
  std::string name;
  std::vector<size_t> columns;
  // The key columns' names and types, for the error's DETAIL; a key
  // without them reports no DETAIL.
  std::vector<std::string> column_names = {};
  std::vector<ColumnType> column_types = {};
};

// The key row of `row` for `columns`, or nullopt when a key column is NULL
// (SQL unique constraints admit any number of NULL keys).
std::optional<std::string> unique_key_of(RowRef row, const std::vector<size_t>& columns);

// "Key (a, b)=(1, x)" for `key_row` (a unique_key_of result) of `key`, or
// nullopt when the key does not know its columns.
std::optional<std::string> describe_key(const UniqueKey& key, std::string_view key_row);

// 23505 "duplicate key value violates unique constraint" for `key_row` (a
// unique_key_of result) of constraint `key`, with PostgreSQL's DETAIL
// "Key (a, b)=(1, x) already exists." when the key knows its columns.
Status unique_violation(const UniqueKey& key, std::string_view key_row);

class StagedWrite {
 public:
  // The encoded rows written to storage at once.
  static constexpr size_t kPieceBytes = size_t{4} << 20;

  StagedWrite(storage::ShardStore& shards, compute::GlobalId table, storage::ShardId shard, uint64_t stage,
              std::vector<UniqueKey> unique_keys);
  ~StagedWrite();
  StagedWrite(const StagedWrite&) = delete;
  StagedWrite& operator=(const StagedWrite&) = delete;

  // Adds a row (diff > 0: a COPY inserts). 23505 if a key repeats within
  // the write; a storage error as it arises. After an error the write is
  // dead: only dropping it is left.
  Status add(RowRef row, Diff diff);
  // Writes the last partial piece.
  Status flush();
  size_t rows() const { return rows_; }
  compute::GlobalId table() const { return table_; }
  storage::ShardId shard() const { return shard_; }
  uint64_t stage() const { return stage_; }
  // Per unique constraint, the keys the write adds.
  const std::vector<std::unordered_set<std::string>>& keys() const { return keys_; }
  const std::vector<UniqueKey>& unique_keys() const { return unique_keys_; }
  // The stage is committed: the destructor leaves it.
  void set_committed() { committed_ = true; }

 private:
  storage::ShardStore& shards_;
  const compute::GlobalId table_;
  const storage::ShardId shard_;
  const uint64_t stage_;
  const std::vector<UniqueKey> unique_keys_;
  std::vector<std::unordered_set<std::string>> keys_;
  std::string piece_;
  storage::StageBuffer buffer_;
  size_t rows_ = 0;
  bool committed_ = false;
};

}  // namespace tandem::frontend
