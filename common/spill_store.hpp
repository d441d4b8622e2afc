// SpillStore: where spilled arrangement batch blocks are written.
// It lives in common/ so that compute and storage meet here without
// depending on each other.
//
// Compute uses the interface (compute/arrangement/spilled_batch_storage.hpp);
// storage implements it over the RocksDB
// `spill` column family (storage/rocks_spill_store.hpp), which is discarded
// at boot, so nothing here is durable: a spilled block lives exactly as long
// as the batch that wrote it. A block is addressed by (spill id, block
// index); ids come from MemoryBudget and are never reused within a process.
//
// Threading: every method may be called from any thread concurrently.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace tandem {

class SpillStore {
 public:
  virtual ~SpillStore() = default;

  // Writes one block. Not synced: the spill does not survive a restart.
  virtual Status put_block(std::uint64_t id, std::uint32_t block, std::string_view bytes) = 0;
  // Reads one block written by put_block (and not yet erased) into `out`.
  virtual Status get_block(std::uint64_t id, std::uint32_t block, std::string& out) const = 0;
  // Deletes every block of `id`.
  virtual Status erase(std::uint64_t id) = 0;
};

}  // namespace tandem
