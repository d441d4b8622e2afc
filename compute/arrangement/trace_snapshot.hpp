// TraceSnapshot: an immutable view of a trace at one moment.
//
// `batches` (oldest first) together hold exactly the trace's updates at times
// < upper, and reads are exact at any as_of with since <= as_of < upper (a
// read at as_of >= upper may miss updates not yet sealed). The snapshot owns
// references to its batches, so it stays valid however long a reader keeps
// it, whatever the trace's owner does meanwhile.
//
// Threading: immutable once published; any thread may read it.
#pragma once

#include <cstdint>
#include <vector>

#include "compute/arrangement/batch.hpp"

namespace tandem::compute {

struct TraceSnapshot {
  std::vector<BatchPtr> batches;
  Timestamp upper = kMinTimestamp;
  Timestamp since = kMinTimestamp;

  std::uint64_t update_count() const {
    std::uint64_t n = 0;
    for (const BatchPtr& batch : batches) n += batch->update_count();
    return n;
  }
};

}  // namespace tandem::compute
