// Engine time and multiplicity for arrangements.
//
// Timestamp is milliseconds since the Unix epoch (Materialize's EpochMillis).
// Times are totally ordered, so a frontier is a single Timestamp: `upper` is
// the least time that may still change, `since` the least time at which reads
// are exact. Diff is the signed multiplicity of an update; a collection at
// time t is the sum of the diffs of its updates at times <= t.
//
// Provisional home: these aliases move to common/timestamp.hpp, and this
// header will then re-export them, so arrangement code can keep including it.
#pragma once

#include <cstdint>
#include <limits>

namespace tandem::compute {

using Timestamp = std::uint64_t;
using Diff = std::int64_t;

inline constexpr Timestamp kMinTimestamp = 0;
inline constexpr Timestamp kMaxTimestamp = std::numeric_limits<Timestamp>::max();

}  // namespace tandem::compute
