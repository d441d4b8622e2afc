#include "compute/arrangement/block_cache.hpp"

namespace tandem::compute {

std::shared_ptr<const DecodedBlock> BlockCache::lookup(std::uint64_t id, std::uint32_t block) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = map_.find(Key{id, block});
  if (it == map_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->block;
}

bool BlockCache::contains(std::uint64_t id, std::uint32_t block) const {
  std::lock_guard<std::mutex> lock(mu_);
  return map_.count(Key{id, block}) != 0;
}

void BlockCache::insert(std::uint64_t id, std::uint32_t block,
                        std::shared_ptr<const DecodedBlock> entry) {
  std::lock_guard<std::mutex> lock(mu_);
  const Key key{id, block};
  if (map_.count(key) != 0) return;  // a concurrent miss inserted it first
  cached_ += entry->bytes.size();
  lru_.push_front(Entry{key, std::move(entry)});
  map_[key] = lru_.begin();
  evict_locked();
}

void BlockCache::erase(std::uint64_t id, std::uint32_t blocks) {
  std::lock_guard<std::mutex> lock(mu_);
  for (std::uint32_t b = 0; b < blocks; ++b) {
    auto it = map_.find(Key{id, b});
    if (it == map_.end()) continue;
    cached_ -= it->second->block->bytes.size();
    lru_.erase(it->second);
    map_.erase(it);
  }
}

void BlockCache::set_capacity(std::uint64_t capacity_bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  capacity_ = capacity_bytes;
  evict_locked();
}

void BlockCache::evict_locked() {
  while (cached_ > capacity_ && !lru_.empty()) {
    const Entry& last = lru_.back();
    cached_ -= last.block->bytes.size();
    map_.erase(last.key);
    lru_.pop_back();
  }
}

BlockCacheStats BlockCache::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return BlockCacheStats{capacity_, cached_, hits_, misses_};
}

}  // namespace tandem::compute
