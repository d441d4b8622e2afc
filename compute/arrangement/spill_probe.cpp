#include "compute/arrangement/spill_probe.hpp"

#include <algorithm>

namespace tandem::compute {
namespace {

// The first block whose last key is >= key, or block_count() if none.
std::size_t block_of(const BlockSource& source, std::string_view key) {
  std::size_t lo = 0, hi = source.block_count();
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (source.last_key(mid) < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

bool source_would_page(const BlockSource& source, const std::vector<std::string_view>* keys) {
  const std::size_t blocks = source.block_count();
  if (keys == nullptr) {
    for (std::size_t b = 0; b < blocks; ++b) {
      if (!source.block_resident(b)) return true;
    }
    return false;
  }
  if (!source.block_resident(0)) return true;
  for (const std::string_view key : *keys) {
    const std::size_t b = block_of(source, key);
    if (b == blocks) break;  // this key and every later one are past the batch
    if (!source.block_resident(b)) return true;
  }
  return false;
}

}  // namespace

bool would_page(const std::vector<BatchPtr>& batches, const std::vector<std::string_view>* keys) {
  for (const BatchPtr& batch : batches) {
    if (batch->is_empty() || !batch->storage()->spilled()) continue;
    if (source_would_page(*batch->source(), keys)) return true;
  }
  return false;
}

}  // namespace tandem::compute
