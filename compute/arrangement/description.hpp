// Description: the time interval a batch covers and how far it was compacted.
//
// Contract (differential dataflow's `Description`, specialised to totally
// ordered time):
//   * A batch with Description{lower, upper, since} holds exactly the updates
//     of its collection whose original time t satisfies lower <= t < upper.
//     No update in that interval lives in any other batch of the same trace.
//   * Times below `since` may have been advanced to `since` (an update at
//     t < since is stored at since, and updates that then coincide were
//     consolidated). So the batch is exact for reads at any time >= since,
//     and a read at a time < since may see updates too late.
//   * `since` may be below `lower` (nothing was advanced) or above `upper`
//     (compaction ran ahead of the data; stored times are then >= since).
//   * Two batches are adjacent when a.upper == b.lower; merging them yields
//     Description{a.lower, b.upper, max(since, a.since, b.since)}.
//
// Plain value type; any thread.
#pragma once

#include "compute/arrangement/time.hpp"

namespace tandem::compute {

struct Description {
  Timestamp lower = kMinTimestamp;
  Timestamp upper = kMinTimestamp;
  Timestamp since = kMinTimestamp;

  friend bool operator==(const Description&, const Description&) = default;
};

}  // namespace tandem::compute
