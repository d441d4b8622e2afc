// BlockCache: a bounded LRU cache of spilled blocks read back from the
// SpillStore, shared by every spilled batch of a MemoryBudget.
//
// An entry is a decoded block (its bytes plus the BatchColumns view into
// them), held by shared_ptr: a reader pins a block by holding the pointer,
// so evicting an entry never frees memory under a reader; it only stops the
// cache from counting it. Resident memory for spilled reads is therefore at
// most the capacity plus the blocks readers pin right now (one per open
// cursor or merge input).
//
// Threading: all methods may be called from any thread; one mutex guards the
// map and the LRU list, and it is never held across I/O (a miss is read by
// the caller and inserted afterwards; two concurrent misses both read).
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "compute/arrangement/batch_columns.hpp"

namespace tandem::compute {

struct DecodedBlock {
  std::string bytes;
  BatchColumns columns;  // points into bytes
};

struct BlockCacheStats {
  std::uint64_t capacity_bytes = 0;
  std::uint64_t cached_bytes = 0;
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
};

class BlockCache {
 public:
  explicit BlockCache(std::uint64_t capacity_bytes) : capacity_(capacity_bytes) {}

  // The cached block, or null (a miss; counted).
  std::shared_ptr<const DecodedBlock> lookup(std::uint64_t id, std::uint32_t block);
  // Whether the block is cached, as a probe: counts neither a hit nor a
  // miss and leaves the LRU order alone.
  bool contains(std::uint64_t id, std::uint32_t block) const;
  // Caches a block just read, evicting least recently used entries beyond
  // the capacity.
  void insert(std::uint64_t id, std::uint32_t block, std::shared_ptr<const DecodedBlock> entry);
  // Drops the cached blocks [0, blocks) of `id` (its spill was deleted).
  void erase(std::uint64_t id, std::uint32_t blocks);
  void set_capacity(std::uint64_t capacity_bytes);

  BlockCacheStats stats() const;

 private:
  struct Key {
    std::uint64_t id;
    std::uint32_t block;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return std::hash<std::uint64_t>()(k.id * 0x9E3779B97F4A7C15ull ^ k.block);
    }
  };
  struct Entry {
    Key key;
    std::shared_ptr<const DecodedBlock> block;
  };
  void evict_locked();

  mutable std::mutex mu_;
  std::uint64_t capacity_;
  std::uint64_t cached_ = 0;
  std::uint64_t hits_ = 0;
  std::uint64_t misses_ = 0;
  std::list<Entry> lru_;  // most recently used first
  std::unordered_map<Key, std::list<Entry>::iterator, KeyHash> map_;
};

}  // namespace tandem::compute
