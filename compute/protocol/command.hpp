// ComputeCommand: what the coordinator tells compute (Materialize's
// ComputeCommand). Commands are applied in the order sent, by every worker.
//
//  CreateDataflow   build a dataflow from its LIR description; its index
//                   exports become peekable and importable.
//  AllowCompaction  the controller will never again read `id` at a time
//                   < since: the export's read hold advances (never back).
//  Peek             read index `target` at `time`: optionally only the rows
//                   whose key equals one of `literal_keys` (packed key
//                   values, in the index's key order), each row passed
//                   through `mfp`. Exactly one PeekResponse follows.
//                   With `stream` (full scans only), the answer is the
//                   index's sealed snapshots at `time` instead of its rows,
//                   for the reader to walk at its own pace (an IndexScan
//                   streaming to a client): the worker never walks a result
//                   a slow client would make it wait on.
//  CancelPeek       the response becomes Canceled unless already sent.
//  DropDataflow     tear down the dataflow that exports `export_id`.
// Threading: plain values, moved to the runtime.
#pragma once

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "common/row.hpp"
#include "compute/plan/dataflow_description.hpp"
#include "compute/plan/map_filter_project.hpp"

namespace tandem::compute {

using PeekId = std::uint64_t;

struct CreateDataflow {
  DataflowDescription desc;
};

struct AllowCompaction {
  GlobalId id = 0;
  Timestamp since = kMinTimestamp;
};

struct Peek {
  PeekId uuid = 0;
  GlobalId target = 0;
  Timestamp time = kMinTimestamp;
  std::optional<std::vector<Row>> literal_keys;
  MapFilterProject mfp;
  bool stream = false;  // REQUIRES !literal_keys
};

struct CancelPeek {
  PeekId uuid = 0;
};

struct DropDataflow {
  GlobalId export_id = 0;
};

using ComputeCommand = std::variant<CreateDataflow, AllowCompaction, Peek, CancelPeek, DropDataflow>;

}  // namespace tandem::compute
