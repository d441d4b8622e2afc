// spill_probe: whether reading batches would read spilled blocks back from
// the SpillStore (I/O), judged from what is resident alone: the fences of
// spilled batches and the block cache's membership (batch_storage.hpp,
// block_cache.hpp). Nothing is paged in and no cache hit or miss is counted.
//
// A reader that must not wait on I/O (a session's thread walking a fast-path
// peek inline, a worker answering a parked peek) asks this first and moves a
// walk that would page to the offload pool. The answer is a hint, exact at the moment it is given: a block
// may be evicted or a batch spilled right after, so a walk judged resident
// may still page in a few blocks.
//
// Which blocks a walk reads: with `keys` (ascending, as arranged), a
// BatchCursor pins block 0 when it opens and, per key, the first block whose
// fence (last key) reaches the key; without keys, every block.
//
// Threading: any thread (reads immutable batches and the cache under its lock).
#pragma once

#include <string_view>
#include <vector>

#include "compute/arrangement/batch.hpp"

namespace tandem::compute {

bool would_page(const std::vector<BatchPtr>& batches, const std::vector<std::string_view>* keys);

}  // namespace tandem::compute
