#include "compute/arrangement/memory_batch_storage.hpp"

#include <cassert>
#include <utility>

namespace tandem::compute {

namespace {

template <typename V>
std::uint64_t capacity_bytes(const V& v) {
  return v.capacity() * sizeof(typename V::value_type);
}

// Frees `v` if it is 0, s, 2s, ... and returns its view; otherwise the view
// of its entries.
Offsets compact_offsets(std::vector<std::uint64_t>& v) {
  const std::uint64_t stride = v.size() > 1 ? v[1] : 0;
  bool progression = true;
  for (std::size_t i = 0; i < v.size() && progression; ++i) progression = v[i] == i * stride;
  if (progression) {
    std::vector<std::uint64_t>().swap(v);
    return Offsets{nullptr, stride};
  }
  return Offsets{v.data(), 0};
}

// Trims capacity beyond a quarter more than the size.
template <typename V>
void trim(V& v) {
  if (v.capacity() > v.size() + v.size() / 4 + 16) v.shrink_to_fit();
}

}  // namespace

MemoryBatchStorage::MemoryBatchStorage(MemoryColumns columns) : columns_(std::move(columns)) {
  MemoryColumns& c = columns_;
  assert(c.key_offsets.size() == c.key_vals.size());
  assert(c.val_offsets.size() == c.val_updates.size());
  assert(c.times.size() == c.diffs.size());
  view_.key_count = c.key_offsets.size() - 1;
  view_.val_count = c.val_offsets.size() - 1;
  view_.update_count = c.times.size();
  trim(c.key_offsets);
  trim(c.key_bytes);
  trim(c.key_vals);
  trim(c.val_offsets);
  trim(c.val_bytes);
  trim(c.val_updates);
  trim(c.times);
  trim(c.diffs);
  view_.key_offsets = compact_offsets(c.key_offsets);
  view_.key_bytes = c.key_bytes.data();
  view_.key_vals = compact_offsets(c.key_vals);
  view_.val_offsets = compact_offsets(c.val_offsets);
  view_.val_bytes = c.val_bytes.data();
  view_.val_updates = compact_offsets(c.val_updates);
  view_.times = c.times.data();
  view_.diffs = c.diffs.data();
  bytes_ = sizeof(*this) + capacity_bytes(c.key_offsets) + capacity_bytes(c.key_bytes) +
           capacity_bytes(c.key_vals) + capacity_bytes(c.val_offsets) +
           capacity_bytes(c.val_bytes) + capacity_bytes(c.val_updates) + capacity_bytes(c.times) +
           capacity_bytes(c.diffs);
}

}  // namespace tandem::compute
