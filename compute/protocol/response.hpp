// ComputeResponse: what compute tells the coordinator.
//
//  PeekResponse   exactly one per Peek: the rows (with multiplicities,
//                 unordered), an error (evaluation error in the index's
//                 error collection at the peek's time, a read below since,
//                 an unknown or dropped index), or Canceled. A `stream`
//                 peek is answered kSnapshots instead of kRows: one
//                 IndexPart per worker, sealed and exact at the peek's time
//                 (since <= time < upper); the parts own their batches, so
//                 they stay readable after the index (or the peek's one-shot
//                 dataflow) is dropped. Errors are not checked: the reader
//                 opens an IndexScan over the parts, which does.
//  FrontierUpper  an index export's upper advanced (the least over workers):
//                 every time < upper is sealed and peekable.
//  SinkBatch      a sink's updates (data and errors) at times in
//                 [previous upper, upper), complete over all workers, in
//                 upper order; every time < upper is sealed.
// Threading: plain values.
#pragma once

#include <memory>
#include <utility>
#include <variant>
#include <vector>

#include "common/row.hpp"
#include "common/status.hpp"
#include "compute/arrangement/trace_snapshot.hpp"
#include "compute/protocol/command.hpp"

namespace tandem::compute {

// One worker's part of an index: its data and error traces' snapshots.
using IndexPart = std::pair<std::shared_ptr<const TraceSnapshot>, std::shared_ptr<const TraceSnapshot>>;  // oks, errs

struct PeekResponse {
  enum class Kind : std::uint8_t { kRows, kError, kCanceled, kSnapshots };
  PeekId uuid = 0;
  Kind kind = Kind::kRows;
  std::vector<std::pair<Row, Diff>> rows;
  std::vector<IndexPart> parts;  // kSnapshots
  Status error;
};

struct FrontierUpper {
  GlobalId id = 0;
  Timestamp upper = kMinTimestamp;
};

struct SinkUpdate {
  Row row;
  Timestamp time = kMinTimestamp;
  Diff diff = 0;
};

struct SinkBatch {
  GlobalId sink_id = 0;
  Timestamp upper = kMinTimestamp;
  std::vector<SinkUpdate> oks;
  std::vector<SinkUpdate> errs;  // error rows (compute/dataflow/error_row.hpp)
};

using ComputeResponse = std::variant<PeekResponse, FrontierUpper, SinkBatch>;

}  // namespace tandem::compute
