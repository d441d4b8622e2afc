#include "compute/arrangement/batch_storage.hpp"

#include <utility>

#include "compute/arrangement/memory_budget.hpp"
#include "compute/arrangement/spilled_batch_storage.hpp"

namespace tandem::compute {

BatchStorage::BatchStorage(std::shared_ptr<const BlockSource> resident,
                           std::shared_ptr<MemoryBudget> budget)
    : budget_(std::move(budget)) {
  if (resident->fully_spilled()) {
    spilled_.store(true, std::memory_order_relaxed);
  } else if (budget_ != nullptr) {
    admitted_bytes_ = resident->resident_bytes();
    last_use_.store(budget_->tick(), std::memory_order_relaxed);
  }
  source_ = std::move(resident);
}

BatchStorage::~BatchStorage() {
  if (budget_ != nullptr && !spilled()) budget_->on_released(admitted_bytes_);
}

std::shared_ptr<const BlockSource> BatchStorage::source() const {
  if (budget_ != nullptr) last_use_.store(budget_->tick(), std::memory_order_relaxed);
  std::lock_guard lock(source_mutex_);
  return source_;
}

std::uint64_t BatchStorage::resident_bytes() const {
  std::shared_ptr<const BlockSource> source;
  {
    std::lock_guard lock(source_mutex_);
    source = source_;
  }
  return source->resident_bytes();
}

std::uint64_t BatchStorage::spilled_bytes() const {
  std::shared_ptr<const BlockSource> source;
  {
    std::lock_guard lock(source_mutex_);
    source = source_;
  }
  return source->spilled_bytes();
}

std::uint64_t BatchStorage::spill() const {
  if (budget_ == nullptr || spilled()) return 0;
  std::shared_ptr<const BlockSource> resident;
  {
    std::lock_guard lock(source_mutex_);
    resident = source_;
  }
  if (resident->pin_block(0).columns.key_count == 0) return 0;
  std::shared_ptr<const BlockSource> spilled = SpilledBatchStorage::write(*resident, budget_);
  if (spilled == nullptr) return 0;
  budget_->on_spilled(admitted_bytes_);
  {
    // The resident form is released after the lock (readers keep theirs).
    std::lock_guard lock(source_mutex_);
    source_.swap(spilled);
  }
  spilled_.store(true, std::memory_order_release);
  return admitted_bytes_;
}

}  // namespace tandem::compute
