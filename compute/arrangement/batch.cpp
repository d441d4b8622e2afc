#include "compute/arrangement/batch.hpp"

#include "compute/arrangement/memory_batch_storage.hpp"

namespace tandem::compute {

BatchPtr Batch::empty(Description description) {
  static const std::shared_ptr<const BatchStorage> kNoColumns =
      std::make_shared<const BatchStorage>(
          std::make_shared<const MemoryBatchStorage>(MemoryColumns{}), nullptr);
  return std::make_shared<const Batch>(description, kNoColumns, 0, 0, 0);
}

}  // namespace tandem::compute
