#include "compute/arrangement/memory_batch_storage.hpp"

#include <cassert>
#include <utility>

namespace tandem::compute {

namespace {

template <typename V>
std::uint64_t capacity_bytes(const V& v) {
  return v.capacity() * sizeof(typename V::value_type);
}

}  // namespace

MemoryBatchStorage::MemoryBatchStorage(MemoryColumns columns) : columns_(std::move(columns)) {
  const MemoryColumns& c = columns_;
  assert(c.key_offsets.size() == c.key_vals.size());
  assert(c.val_offsets.size() == c.val_updates.size());
  assert(c.times.size() == c.diffs.size());
  view_.key_count = c.key_offsets.size() - 1;
  view_.val_count = c.val_offsets.size() - 1;
  view_.update_count = c.times.size();
  view_.key_offsets = c.key_offsets.data();
  view_.key_bytes = c.key_bytes.data();
  view_.key_vals = c.key_vals.data();
  view_.val_offsets = c.val_offsets.data();
  view_.val_bytes = c.val_bytes.data();
  view_.val_updates = c.val_updates.data();
  view_.times = c.times.data();
  view_.diffs = c.diffs.data();
  bytes_ = sizeof(*this) + capacity_bytes(c.key_offsets) + capacity_bytes(c.key_bytes) +
           capacity_bytes(c.key_vals) + capacity_bytes(c.val_offsets) +
           capacity_bytes(c.val_bytes) + capacity_bytes(c.val_updates) + capacity_bytes(c.times) +
           capacity_bytes(c.diffs);
}

}  // namespace tandem::compute
