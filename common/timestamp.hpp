#pragma once
// Engine time, not the SQL timestamp type: milliseconds since
// the Unix epoch, totally ordered, so a frontier is a single value. An update
// is (row, Timestamp, Diff).

#include <cstdint>
#include <limits>

namespace tandem {

using Timestamp = uint64_t;
using Diff = int64_t;

inline constexpr Timestamp kMinTimestamp = 0;
inline constexpr Timestamp kMaxTimestamp = std::numeric_limits<uint64_t>::max();

}  // namespace tandem
