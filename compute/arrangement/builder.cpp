#include "compute/arrangement/builder.hpp"

#include "compute/arrangement/memory_budget.hpp"

#include <cassert>
#include <utility>

namespace tandem::compute {

// Key and val bytes are appended tentatively when opened and committed (their
// end offset recorded) only if something was pushed under them; otherwise
// they are truncated away on close.

void BatchBuilder::reserve(std::uint64_t keys, std::uint64_t key_bytes, std::uint64_t vals,
                           std::uint64_t val_bytes, std::uint64_t updates) {
  columns_.key_offsets.reserve(keys + 1);
  columns_.key_vals.reserve(keys + 1);
  columns_.key_bytes.reserve(key_bytes);
  columns_.val_offsets.reserve(vals + 1);
  columns_.val_updates.reserve(vals + 1);
  columns_.val_bytes.reserve(val_bytes);
  columns_.times.reserve(updates);
  columns_.diffs.reserve(updates);
}

std::string_view BatchBuilder::open_key() const {
  const std::uint64_t start = columns_.key_offsets.back();
  return std::string_view(columns_.key_bytes).substr(start);
}

std::string_view BatchBuilder::open_val() const {
  const std::uint64_t start = columns_.val_offsets.back();
  return std::string_view(columns_.val_bytes).substr(start);
}

void BatchBuilder::close_val() {
  if (!val_open_) return;
  val_open_ = false;
  if (columns_.times.size() > columns_.val_updates.back()) {
    columns_.val_offsets.push_back(columns_.val_bytes.size());
    columns_.val_updates.push_back(columns_.times.size());
  } else {
    columns_.val_bytes.resize(columns_.val_offsets.back());
  }
}

void BatchBuilder::close_key() {
  close_val();
  if (!key_open_) return;
  key_open_ = false;
  const std::uint64_t vals = columns_.val_offsets.size() - 1;
  if (vals > columns_.key_vals.back()) {
    columns_.key_offsets.push_back(columns_.key_bytes.size());
    columns_.key_vals.push_back(vals);
  } else {
    columns_.key_bytes.resize(columns_.key_offsets.back());
  }
}

void BatchBuilder::push_key(std::string_view key) {
  close_key();
#ifndef NDEBUG
  if (columns_.key_offsets.size() > 1) {
    const auto n = columns_.key_offsets.size() - 1;
    const std::string_view prev(columns_.key_bytes.data() + columns_.key_offsets[n - 1],
                                columns_.key_offsets[n] - columns_.key_offsets[n - 1]);
    assert(prev < key);
  }
#endif
  columns_.key_bytes.append(key);
  key_open_ = true;
}

void BatchBuilder::push_val(std::string_view val) {
  assert(key_open_);
  close_val();
#ifndef NDEBUG
  const std::uint64_t n = columns_.val_offsets.size() - 1;
  if (n > columns_.key_vals.back()) {
    const std::string_view prev(columns_.val_bytes.data() + columns_.val_offsets[n - 1],
                                columns_.val_offsets[n] - columns_.val_offsets[n - 1]);
    assert(prev < val);
  }
#endif
  columns_.val_bytes.append(val);
  val_open_ = true;
}

void BatchBuilder::push(std::string_view key, std::string_view val, Timestamp time, Diff diff) {
  if (!key_open_ || open_key() != key) {
    push_key(key);
    push_val(val);
  } else if (!val_open_ || open_val() != val) {
    push_val(val);
  }
  push_update(time, diff);
}

BatchPtr BatchBuilder::done(Description description) {
  close_key();
  const std::uint64_t keys = columns_.key_offsets.size() - 1;
  const std::uint64_t vals = columns_.val_offsets.size() - 1;
  const std::uint64_t updates = columns_.times.size();
  auto resident = std::make_shared<const MemoryBatchStorage>(std::move(columns_));
  columns_ = MemoryColumns{};
  std::shared_ptr<MemoryBudget> budget = updates > 0 ? MemoryBudget::current() : nullptr;
  auto storage = std::make_shared<const BatchStorage>(std::move(resident), budget);
  auto batch = std::make_shared<const Batch>(description, storage, keys, vals, updates);
  if (budget != nullptr) budget->admit(storage, storage->resident_bytes());
  return batch;
}

}  // namespace tandem::compute
