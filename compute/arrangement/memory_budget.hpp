// MemoryBudget: the limit on resident arrangement batches, and the spilling
// that keeps them under it (`--memory-limit`, system parameter
// `memory_limit`).
//
// Every batch BatchBuilder seals while a budget is installed is *admitted*:
// its resident bytes are counted and it joins the registry of spill
// candidates. When the count exceeds the limit, the admitting thread picks
// victims, coldest and largest first (score = resident bytes x ticks since
// the batch was last read, a tick being one admission), removes them from the
// registry under the mutex, and spills them outside it (SpillStore writes,
// never under a lock another thread waits on). A batch that fails to spill
// stays resident and returns to the registry. set_limit() applies a new limit
// at once, spilling on the calling thread if needed.
//
// The budget counts batch columns, plus the columns BatchBuilders are still
// building and the buffers Batchers hold (add_building): when the two
// together exceed the limit, or building bytes alone pass half of it, a
// builder streams its finished keys to the spill instead of growing
// (builder.hpp), so a merge's or a seal's output never needs memory beyond
// the limit, and batchers cut smaller runs (batcher.hpp). Resident batches
// alone are held to the limit (enforce), so what is counted stays within
// about one and a half times it. The block cache (capacity stated at construction) and the
// blocks pinned by open cursors and merges come on top (see the issue-9
// section of bench/HISTORY.md).
//
// One budget is installed per process (tandemd's main, or a test); batches
// sealed while none is installed are never spilled.
//
// Threading: all methods may be called from any thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "compute/arrangement/block_cache.hpp"
#include "common/spill_store.hpp"

namespace tandem::compute {

class BatchStorage;

// Who holds building bytes, for the memory report (bench/HISTORY.md):
// builders' unfinished columns, batchers' unsorted buffers, and sort scratch.
enum class Building : int { kBuilder = 0, kBatcherBuffer = 1, kSortScratch = 2 };
inline constexpr int kBuildingKinds = 3;

struct MemoryBudgetStats {
  std::uint64_t limit_bytes = 0;
  std::uint64_t resident_bytes = 0;  // admitted batches not spilled
  std::uint64_t building_bytes = 0;  // unfinished builders' columns, batchers' buffers
  std::uint64_t building_by_kind[kBuildingKinds] = {};  // the same, by Building
  // The most resident + building bytes counted at once (after admitting a
  // batch, once the limit was enforced, or after a builder or batcher grew),
  // over the budget's life.
  std::uint64_t counted_peak_bytes = 0;
  std::uint64_t spilled_bytes = 0;   // written to the spill and not yet deleted
  std::uint64_t spilled_batches = 0; // spills performed since start
  BlockCacheStats cache;
};

class MemoryBudget : public std::enable_shared_from_this<MemoryBudget> {
 public:
  static constexpr std::uint64_t kDefaultCacheBytes = 32ull << 20;
  // The block cache for a limit: an eighth of it, between 1 MiB and
  // kDefaultCacheBytes (tandemd's choice), so a small budget is not
  // dwarfed by its cache.
  static std::uint64_t cache_bytes_for(std::uint64_t limit_bytes) {
    if (limit_bytes == 0) return kDefaultCacheBytes;
    return std::min(kDefaultCacheBytes, std::max<std::uint64_t>(limit_bytes / 8, 1ull << 20));
  }

  // limit_bytes 0 means unlimited (nothing is spilled).
  MemoryBudget(std::shared_ptr<SpillStore> store, std::uint64_t limit_bytes,
               std::uint64_t cache_bytes = kDefaultCacheBytes);

  // The process's budget, or null. install(nullptr) uninstalls.
  static std::shared_ptr<MemoryBudget> current();
  static void install(std::shared_ptr<MemoryBudget> budget);

  void set_limit(std::uint64_t limit_bytes);
  std::uint64_t limit() const { return limit_.load(std::memory_order_relaxed); }
  // The system parameter `memory_limit`: a non-zero value replaces the limit
  // given at construction (tandemd's --memory-limit), 0 restores it.
  void set_parameter(std::uint64_t limit_bytes) {
    set_limit(limit_bytes != 0 ? limit_bytes : configured_limit_);
  }

  // Registers a freshly sealed batch's storage and enforces the limit.
  void admit(const std::shared_ptr<const BatchStorage>& storage, std::uint64_t bytes);
  // Spills until resident bytes are within the limit.
  void enforce();

  // Unfinished output of BatchBuilders: counted while it is built, released
  // when the builder streams it out or seals it (then it is admitted).
  void add_building(std::uint64_t bytes, Building kind = Building::kBuilder) {
    building_.fetch_add(bytes, std::memory_order_relaxed);
    building_by_kind_[static_cast<int>(kind)].fetch_add(bytes, std::memory_order_relaxed);
    note_counted();
  }
  void release_building(std::uint64_t bytes, Building kind = Building::kBuilder) {
    building_.fetch_sub(bytes, std::memory_order_relaxed);
    building_by_kind_[static_cast<int>(kind)].fetch_sub(bytes, std::memory_order_relaxed);
  }
  // Whether resident plus building bytes exceed a (non-zero) limit: a
  // builder should stream rather than grow.
  bool binds() const { return over_limit(); }
  // Whether building bytes alone exceed half a (non-zero) limit: batchers
  // then cut smaller runs and free their buffers (batcher.hpp), so the
  // updates in flight into several arrangements at once (the workers'
  // hydrations, a reduce's parts) share the limit instead of each holding
  // a run's worth on top of it.
  bool building_crowded() const {
    const std::uint64_t limit = limit_.load(std::memory_order_relaxed);
    return limit != 0 && building_.load(std::memory_order_relaxed) > limit / 2;
  }

  MemoryBudgetStats stats() const;
  std::uint64_t building() const { return building_.load(std::memory_order_relaxed); }
  std::uint64_t tick() const { return tick_.load(std::memory_order_relaxed); }

  // For BatchStorage and SpilledBatchStorage.
  std::uint64_t next_spill_id() { return next_id_.fetch_add(1, std::memory_order_relaxed); }
  const std::shared_ptr<SpillStore>& store() const { return store_; }
  const std::shared_ptr<BlockCache>& cache() const { return cache_; }
  void on_released(std::uint64_t resident_bytes);  // a resident batch was dropped
  void on_spilled(std::uint64_t resident_bytes);  // a resident batch was spilled
  void on_spill_written(std::uint64_t spilled_bytes) { spilled_.fetch_add(spilled_bytes, std::memory_order_relaxed); }
  void on_spill_deleted(std::uint64_t spilled_bytes);

 private:
  bool over_limit() const {
    const std::uint64_t limit = limit_.load(std::memory_order_relaxed);
    return limit != 0 && resident_.load(std::memory_order_relaxed) +
                                 building_.load(std::memory_order_relaxed) > limit;
  }

  void note_counted() {
    const std::uint64_t now = resident_.load(std::memory_order_relaxed) + building_.load(std::memory_order_relaxed);
    std::uint64_t peak = counted_peak_.load(std::memory_order_relaxed);
    while (now > peak && !counted_peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }

  std::shared_ptr<SpillStore> store_;
  std::shared_ptr<BlockCache> cache_;
  const std::uint64_t configured_limit_;
  std::atomic<std::uint64_t> limit_;
  std::atomic<std::uint64_t> resident_{0};
  std::atomic<std::uint64_t> building_{0};
  std::atomic<std::uint64_t> building_by_kind_[kBuildingKinds] = {};
  std::atomic<std::uint64_t> counted_peak_{0};
  std::atomic<std::uint64_t> spilled_{0};
  std::atomic<std::uint64_t> spill_count_{0};
  std::atomic<std::uint64_t> tick_{1};
  std::atomic<std::uint64_t> next_id_{1};
  std::mutex mu_;  // guards registry_
  std::vector<std::weak_ptr<const BatchStorage>> registry_;
};

// Buffers that hold unbudgeted updates on their way into a batch (a
// Batcher's unsorted records and its sort scratch) counted as building
// bytes of the budget installed when counting starts, so builders stream
// sooner instead of the process holding them on top of the limit. set()
// replaces the count; destruction (or set(0)) releases it. Movable, not
// copyable. Threading: one thread at a time, like its owner.
class BuildingCount {
 public:
  explicit BuildingCount(Building kind = Building::kBatcherBuffer) : kind_(kind) {}
  BuildingCount(BuildingCount&& other) noexcept
      : budget_(std::move(other.budget_)), kind_(other.kind_), bytes_(std::exchange(other.bytes_, 0)) {}
  BuildingCount& operator=(BuildingCount&& other) noexcept {
    if (this != &other) {
      set(0);
      budget_ = std::move(other.budget_);
      kind_ = other.kind_;
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  ~BuildingCount() { set(0); }

  void set(std::uint64_t bytes);
  std::uint64_t bytes() const { return bytes_; }

 private:
  std::shared_ptr<MemoryBudget> budget_;
  Building kind_;
  std::uint64_t bytes_ = 0;
};

}  // namespace tandem::compute
