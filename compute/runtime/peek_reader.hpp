// read_peek: one worker's answer to a peek from its part of an index:
// the rows of the arrangement as of `time` (optionally only under the given
// keys), each passed through the peek's MFP, with their multiplicities; or
// the least error of the index's error collection at `time`; or an
// evaluation error of the MFP.
// REQUIRES: since <= time < upper for both snapshots (the caller parks a
// peek until then and holds the since at `time` meanwhile).
// Threading: reads immutable snapshots; any thread.
#pragma once

#include <utility>
#include <vector>

#include "common/status.hpp"
#include "compute/arrangement/trace_snapshot.hpp"
#include "compute/protocol/command.hpp"

namespace tandem::compute {

Result<std::vector<std::pair<Row, Diff>>> read_peek(const Peek& peek, const TraceSnapshot& oks,
                                                     const TraceSnapshot& errs);

// Packs key values the way arrangements key them (numerics normalized).
Row normalize_key(RowRef key);

}  // namespace tandem::compute
