#include "compute/arrangement/memory_budget.hpp"

#include <algorithm>
#include <utility>

#include "compute/arrangement/batch_storage.hpp"

namespace tandem::compute {

namespace {

std::atomic<std::shared_ptr<MemoryBudget>>& installed() {
  static std::atomic<std::shared_ptr<MemoryBudget>> budget;
  return budget;
}

}  // namespace

MemoryBudget::MemoryBudget(std::shared_ptr<SpillStore> store, std::uint64_t limit_bytes,
                           std::uint64_t cache_bytes)
    : store_(std::move(store)),
      cache_(std::make_shared<BlockCache>(cache_bytes)),
      configured_limit_(limit_bytes),
      limit_(limit_bytes) {}

std::shared_ptr<MemoryBudget> MemoryBudget::current() {
  return installed().load(std::memory_order_acquire);
}

void MemoryBudget::install(std::shared_ptr<MemoryBudget> budget) {
  installed().store(std::move(budget), std::memory_order_release);
}

void MemoryBudget::set_limit(std::uint64_t limit_bytes) {
  limit_.store(limit_bytes, std::memory_order_relaxed);
  enforce();
}

void MemoryBudget::admit(const std::shared_ptr<const BatchStorage>& storage, std::uint64_t bytes) {
  tick_.fetch_add(1, std::memory_order_relaxed);
  resident_.fetch_add(bytes, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mu_);
    registry_.push_back(storage);
  }
  enforce();
  note_counted();
}

void MemoryBudget::enforce() {
  const std::uint64_t limit = limit_.load(std::memory_order_relaxed);
  // Resident batches alone are held to the limit. Spilling them to make
  // room for building bytes too was tried: builders then grew to the size
  // of the room before streaming, and batches spilled while a merge or a
  // source cursor still held their columns stopped being counted without
  // being freed (a hydration at 11.6M rows under 256 MB peaked at 640 MB
  // instead of 538 MB: bench/HISTORY.md). Building bytes are bounded
  // instead: builders stream while resident + building exceed the limit,
  // and batchers cut small runs when building crowds it (batcher.hpp).
  if (limit == 0 || resident_.load(std::memory_order_relaxed) <= limit) return;
  struct Candidate {
    std::shared_ptr<const BatchStorage> storage;
    std::uint64_t bytes;
    double score;
  };
  std::vector<Candidate> victims;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const std::uint64_t now = tick();
    std::vector<Candidate> candidates;
    candidates.reserve(registry_.size());
    for (const auto& weak : registry_) {
      std::shared_ptr<const BatchStorage> storage = weak.lock();
      if (storage == nullptr || storage->spilled()) continue;
      const std::uint64_t bytes = storage->resident_bytes();
      const std::uint64_t age = now > storage->last_use() ? now - storage->last_use() : 0;
      candidates.push_back({std::move(storage), bytes, static_cast<double>(bytes) * (age + 1)});
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    std::uint64_t resident = resident_.load(std::memory_order_relaxed);
    std::size_t chosen = 0;
    while (chosen < candidates.size() && resident > limit) resident -= std::min(resident, candidates[chosen++].bytes);
    victims.assign(std::make_move_iterator(candidates.begin()),
                   std::make_move_iterator(candidates.begin() + chosen));
    registry_.clear();
    for (std::size_t i = chosen; i < candidates.size(); ++i) registry_.push_back(candidates[i].storage);
  }
  std::vector<std::shared_ptr<const BatchStorage>> kept;
  for (Candidate& victim : victims) {
    if (victim.storage->spill() == 0 && !victim.storage->spilled()) kept.push_back(victim.storage);
  }
  if (!kept.empty()) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& storage : kept) registry_.push_back(storage);
  }
}

void MemoryBudget::on_released(std::uint64_t resident_bytes) {
  resident_.fetch_sub(resident_bytes, std::memory_order_relaxed);
}

void MemoryBudget::on_spilled(std::uint64_t resident_bytes) {
  resident_.fetch_sub(resident_bytes, std::memory_order_relaxed);
  spill_count_.fetch_add(1, std::memory_order_relaxed);
}

void MemoryBudget::on_spill_deleted(std::uint64_t spilled_bytes) {
  spilled_.fetch_sub(spilled_bytes, std::memory_order_relaxed);
}

MemoryBudgetStats MemoryBudget::stats() const {
  MemoryBudgetStats s;
  s.limit_bytes = limit();
  s.resident_bytes = resident_.load(std::memory_order_relaxed);
  s.building_bytes = building_.load(std::memory_order_relaxed);
  s.counted_peak_bytes = counted_peak_.load(std::memory_order_relaxed);
  for (int i = 0; i < kBuildingKinds; ++i) s.building_by_kind[i] = building_by_kind_[i].load(std::memory_order_relaxed);
  s.spilled_bytes = spilled_.load(std::memory_order_relaxed);
  s.spilled_batches = spill_count_.load(std::memory_order_relaxed);
  s.cache = cache_->stats();
  return s;
}

void BuildingCount::set(std::uint64_t bytes) {
  if (budget_ == nullptr) {
    if (bytes == 0) return;
    budget_ = MemoryBudget::current();
    if (budget_ == nullptr) return;
  }
  if (bytes > bytes_) {
    budget_->add_building(bytes - bytes_, kind_);
  } else {
    budget_->release_building(bytes_ - bytes, kind_);
  }
  bytes_ = bytes;
}

}  // namespace tandem::compute
