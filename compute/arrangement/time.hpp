// Engine time and multiplicity for arrangements.
//
// Timestamp is milliseconds since the Unix epoch (Materialize's EpochMillis).
// Times are totally ordered, so a frontier is a single Timestamp: `upper` is
// the least time that may still change, `since` the least time at which reads
// are exact. Diff is the signed multiplicity of an update; a collection at
// time t is the sum of the diffs of its updates at times <= t.
//
// The types live in common/timestamp.hpp; this header re-exports them into
// tandem::compute so arrangement code can keep including it.
#pragma once

#include "common/timestamp.hpp"

namespace tandem::compute {

using ::tandem::Diff;
using ::tandem::kMaxTimestamp;
using ::tandem::kMinTimestamp;
using ::tandem::Timestamp;

}  // namespace tandem::compute
