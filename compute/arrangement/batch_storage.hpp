// BatchStorage: where a batch's columns live.
//
// A Batch owns its columns through this interface so that a later storage
// form (columns spilled to RocksDB and paged back through a block cache) drops
// in without touching cursors, mergers or operators: every reader goes
// through `pin()` once per cursor (not per key or per byte) and then reads the
// plain arrays of BatchColumns. In-memory storage returns its own arrays.
//
// Threading: implementations are immutable after construction as far as
// readers can tell; `pin()` and `resident_bytes()` may be called from any
// thread concurrently. A spilling implementation synchronises internally.
#pragma once

#include <cstdint>

#include "compute/arrangement/batch_columns.hpp"

namespace tandem::compute {

class BatchStorage {
 public:
  virtual ~BatchStorage() = default;

  // Makes the columns readable and returns a view valid while the returned
  // PinnedColumns (its `pin`) and this storage are alive. May page data in.
  virtual PinnedColumns pin() const = 0;

  // Bytes of memory this storage holds right now (for a spilled batch, the
  // resident part only).
  virtual std::uint64_t resident_bytes() const = 0;
};

}  // namespace tandem::compute
