#include "compute/arrangement/batch_storage.hpp"

#include <utility>

#include "compute/arrangement/memory_budget.hpp"
#include "compute/arrangement/spilled_batch_storage.hpp"

namespace tandem::compute {

BatchStorage::BatchStorage(std::shared_ptr<const BlockSource> resident,
                           std::shared_ptr<MemoryBudget> budget)
    : budget_(std::move(budget)) {
  if (budget_ != nullptr) {
    admitted_bytes_ = resident->resident_bytes();
    last_use_.store(budget_->tick(), std::memory_order_relaxed);
  }
  source_.store(std::move(resident), std::memory_order_release);
}

BatchStorage::~BatchStorage() {
  if (budget_ != nullptr && !spilled()) budget_->on_released(admitted_bytes_);
}

std::shared_ptr<const BlockSource> BatchStorage::source() const {
  if (budget_ != nullptr) last_use_.store(budget_->tick(), std::memory_order_relaxed);
  return source_.load(std::memory_order_acquire);
}

std::uint64_t BatchStorage::resident_bytes() const {
  return source_.load(std::memory_order_acquire)->resident_bytes();
}

std::uint64_t BatchStorage::spilled_bytes() const {
  return source_.load(std::memory_order_acquire)->spilled_bytes();
}

std::uint64_t BatchStorage::spill() const {
  if (budget_ == nullptr || spilled()) return 0;
  const std::shared_ptr<const BlockSource> resident = source_.load(std::memory_order_acquire);
  if (resident->pin_block(0).columns.key_count == 0) return 0;
  std::shared_ptr<const BlockSource> spilled = SpilledBatchStorage::write(*resident, budget_);
  if (spilled == nullptr) return 0;
  budget_->on_spilled(admitted_bytes_, spilled->spilled_bytes());
  source_.store(std::move(spilled), std::memory_order_release);
  spilled_.store(true, std::memory_order_release);
  return admitted_bytes_;
}

}  // namespace tandem::compute
