#include "compute/arrangement/builder.hpp"

#include <algorithm>
#include <cassert>
#include <utility>

#include "compute/arrangement/memory_budget.hpp"
#include "compute/arrangement/partly_spilled_storage.hpp"

namespace tandem::compute {

// Key and val bytes are appended tentatively when opened and committed (their
// end offset recorded) only if something was pushed under them; otherwise
// they are truncated away on close.

BatchBuilder::~BatchBuilder() { release_building(); }

void BatchBuilder::reserve(std::uint64_t keys, std::uint64_t key_bytes, std::uint64_t vals,
                           std::uint64_t val_bytes, std::uint64_t updates) {
  const std::shared_ptr<MemoryBudget> budget = MemoryBudget::current();
  const std::uint64_t limit = budget != nullptr ? budget->limit() : 0;
  const std::uint64_t wanted = 16 * keys + key_bytes + 16 * vals + val_bytes + 16 * updates;
  if (limit != 0 && wanted > limit / 16) {
    const double scale = static_cast<double>(limit / 16) / static_cast<double>(wanted);
    auto cap = [scale](std::uint64_t n) { return static_cast<std::uint64_t>(static_cast<double>(n) * scale); };
    keys = cap(keys), key_bytes = cap(key_bytes), vals = cap(vals), val_bytes = cap(val_bytes);
    updates = cap(updates);
  }
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

std::uint64_t BatchBuilder::column_bytes() const {
  const MemoryColumns& c = columns_;
  return 8 * (c.key_offsets.size() + c.key_vals.size() + c.val_offsets.size() + c.val_updates.size()) +
         c.key_bytes.size() + c.val_bytes.size() + 16 * c.times.size();
}

std::uint64_t BatchBuilder::held_bytes() const {
  const MemoryColumns& c = columns_;
  return 8 * (c.key_offsets.capacity() + c.key_vals.capacity() + c.val_offsets.capacity() +
              c.val_updates.capacity() + c.times.capacity() + c.diffs.capacity()) +
         c.key_bytes.capacity() + c.val_bytes.capacity();
}

void BatchBuilder::release_building() {
  if (building_ != 0) budget_->release_building(building_);
  building_ = 0;
}

void BatchBuilder::check_budget() {
  next_check_ = column_bytes() + SpilledBatchStorage::kBlockBytes;
  // What the columns hold, not what they use: a vector that doubled holds
  // up to twice its entries.
  const std::uint64_t bytes = held_bytes();
  if (budget_ == nullptr) {
    budget_ = MemoryBudget::current();
    if (budget_ == nullptr) {
      next_check_ = UINT64_MAX;  // no budget: never stream
      return;
    }
  }
  if (bytes > building_) {
    budget_->add_building(bytes - building_);
  } else {
    budget_->release_building(building_ - bytes);
  }
  building_ = bytes;
  // Also when building bytes alone pass half the limit (as batchers cut
  // their runs): else every builder of a hydration's last merges grows until
  // building bytes alone reach the limit, on top of what is resident
  // (counted 380 MiB under 256, bench/HISTORY.md).
  if (!stream_failed_ && (budget_->binds() || budget_->building_crowded())) stream_out();
}

void BatchBuilder::stream_out() {
  if (columns_.key_offsets.size() <= 1) return;
  if (writer_ == nullptr) writer_ = std::make_unique<SpilledBatchStorage::Writer>(budget_);
  if (!writer_->append(columns_view(columns_))) {
    stream_failed_ = true;  // the rest stays in memory (see done)
    return;
  }
  release_building();
  keys_ += columns_.key_offsets.size() - 1;
  vals_ += columns_.val_offsets.size() - 1;
  updates_ += columns_.times.size();
  // The budget binds: free the columns rather than keep their capacity, so
  // the builder goes on holding about one spill block (regrowing to it
  // costs a few doublings per block).
  columns_ = MemoryColumns{};
  next_check_ = SpilledBatchStorage::kBlockBytes;
}

void BatchBuilder::push_key(std::string_view key) {
  close_key();
  if (column_bytes() >= next_check_) check_budget();
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
  release_building();
  keys_ += columns_.key_offsets.size() - 1;
  vals_ += columns_.val_offsets.size() - 1;
  updates_ += columns_.times.size();
  const std::uint64_t keys = std::exchange(keys_, 0);
  const std::uint64_t vals = std::exchange(vals_, 0);
  const std::uint64_t updates = std::exchange(updates_, 0);
  std::shared_ptr<const BlockSource> source;
  if (writer_ != nullptr && !stream_failed_) stream_out();
  const bool tail = columns_.key_offsets.size() > 1;
  if (writer_ != nullptr && !writer_->empty()) {
    std::shared_ptr<const BlockSource> spilled = writer_->finish();
    source = tail ? std::make_shared<const PartlySpilledStorage>(
                        std::move(spilled), std::make_shared<const MemoryBatchStorage>(std::move(columns_)))
                  : std::move(spilled);
  } else {
    source = std::make_shared<const MemoryBatchStorage>(std::move(columns_));
  }
  columns_ = MemoryColumns{};
  writer_.reset();
  stream_failed_ = false;
  next_check_ = SpilledBatchStorage::kBlockBytes;
  std::shared_ptr<MemoryBudget> budget = updates > 0 ? MemoryBudget::current() : nullptr;
  auto storage = std::make_shared<const BatchStorage>(std::move(source), budget);
  auto batch = std::make_shared<const Batch>(description, storage, keys, vals, updates);
  if (budget != nullptr && !storage->spilled()) budget->admit(storage, storage->resident_bytes());
  return batch;
}

}  // namespace tandem::compute
