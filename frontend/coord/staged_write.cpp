#include "frontend/coord/staged_write.hpp"

#include "common/value_io.hpp"
#include "storage/shard_codec.hpp"

namespace tandem::frontend {

std::optional<std::string> unique_key_of(RowRef row, const std::vector<size_t>& columns) {
  RowArena arena;
  std::vector<Datum> datums = unpack(row, &arena);
  std::string key;
  RowPacker packer(&key);
  packer.set_normalize_numeric(true);  // 1.0 and 1.00 are the same key
  for (size_t c : columns) {
    if (c >= datums.size() || datums[c].is_null()) return std::nullopt;
    packer.push(datums[c]);
  }
  return key;
}

std::optional<std::string> describe_key(const UniqueKey& key, std::string_view key_row) {
  if (key.column_names.size() != key.columns.size() || key.column_types.size() != key.columns.size()) {
    return std::nullopt;
  }
  RowArena arena;
  std::vector<Datum> datums = unpack(RowRef(key_row), &arena);
  if (datums.size() != key.columns.size()) return std::nullopt;
  std::string names, values;
  for (size_t i = 0; i < datums.size(); ++i) {
    if (i) {
      names += ", ";
      values += ", ";
    }
    names += key.column_names[i];
    values += datums[i].is_null() ? "null" : datum_to_text(datums[i], key.column_types[i]);
  }
  return "Key (" + names + ")=(" + values + ")";
}

Status unique_violation(const UniqueKey& key, std::string_view key_row) {
  Status s = Status::error(sqlstate::kUniqueViolation,
                           "duplicate key value violates unique constraint \"" + key.name + "\"");
  auto described = describe_key(key, key_row);
  if (!described) return s;
  return std::move(s).with_detail(*described + " already exists.");
}

StagedWrite::StagedWrite(storage::ShardStore& shards, compute::GlobalId table, storage::ShardId shard, uint64_t stage,
                         std::vector<UniqueKey> unique_keys)
    : shards_(shards),
      table_(table),
      shard_(shard),
      stage_(stage),
      unique_keys_(std::move(unique_keys)),
      keys_(unique_keys_.size()) {}

StagedWrite::~StagedWrite() {
  // A no-op once committed; else nothing of the write may remain (an
  // error here leaves the marker, which the next open clears).
  if (!committed_) (void)shards_.abort_staged(shard_, stage_);
}

Status StagedWrite::add(RowRef row, Diff diff) {
  for (size_t k = 0; k < unique_keys_.size(); ++k) {
    auto key = unique_key_of(row, unique_keys_[k].columns);
    if (key && !keys_[k].insert(*key).second) return unique_violation(unique_keys_[k], *key);
  }
  storage::append_batch_entry(&piece_, row.bytes(), diff);
  ++rows_;
  if (piece_.size() >= kPieceBytes) return flush();
  return Status::ok();
}

Status StagedWrite::flush() {
  if (piece_.empty()) return Status::ok();
  Status s = shards_.stage(shard_, stage_, piece_, buffer_);
  piece_.clear();  // keeps its capacity for the next piece
  return s;
}

}  // namespace tandem::frontend
