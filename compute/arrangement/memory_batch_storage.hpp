// MemoryBatchStorage: batch columns held in ordinary heap vectors, as one
// block (see batch_storage.hpp).
//
// Built once by BatchBuilder, then immutable. On construction an offsets
// vector that is an arithmetic progression is freed and kept as its stride
// (batch_columns.hpp), and vectors with much unused capacity (a merge
// reserves for the sum of its inputs and consolidation may shrink the
// result) are trimmed, so resident_bytes() is close to the data's size.
// Threading: any thread may pin and read concurrently once the storage has
// been published (e.g. through a shared_ptr handed over under a mutex).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compute/arrangement/batch_storage.hpp"

namespace tandem::compute {

struct MemoryColumns {
  std::vector<std::uint64_t> key_offsets{0};
  std::string key_bytes;
  std::vector<std::uint64_t> key_vals{0};
  std::vector<std::uint64_t> val_offsets{0};
  std::string val_bytes;
  std::vector<std::uint64_t> val_updates{0};
  std::vector<Timestamp> times;
  std::vector<Diff> diffs;
};

// A view of columns being built (explicit offsets; valid until they change).
inline BatchColumns columns_view(const MemoryColumns& c) {
  BatchColumns v;
  v.key_count = c.key_offsets.size() - 1;
  v.val_count = c.val_offsets.size() - 1;
  v.update_count = c.times.size();
  v.key_offsets = Offsets{c.key_offsets.data(), 0};
  v.key_bytes = c.key_bytes.data();
  v.key_vals = Offsets{c.key_vals.data(), 0};
  v.val_offsets = Offsets{c.val_offsets.data(), 0};
  v.val_bytes = c.val_bytes.data();
  v.val_updates = Offsets{c.val_updates.data(), 0};
  v.times = c.times.data();
  v.diffs = c.diffs.data();
  return v;
}

class MemoryBatchStorage final : public BlockSource {
 public:
  explicit MemoryBatchStorage(MemoryColumns columns);

  std::size_t block_count() const override { return 1; }
  std::string_view last_key(std::size_t) const override { return view_.key(view_.key_count - 1); }
  PinnedColumns pin_block(std::size_t) const override { return {view_, nullptr}; }
  std::uint64_t resident_bytes() const override { return bytes_; }

  const BatchColumns& columns() const { return view_; }

 private:
  MemoryColumns columns_;
  BatchColumns view_;
  std::uint64_t bytes_ = 0;
};

}  // namespace tandem::compute
