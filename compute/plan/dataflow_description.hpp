// DataflowDescription: everything compute needs to build one dataflow, as
// plain data (Materialize's DataflowDescription).
//
//  * source_imports: collections fed from outside (storage; tests use
//    compute/runtime/input_handle.hpp), read from `as_of` on.
//  * index_imports: arrangements exported by earlier dataflows on the same
//    runtime, read from `as_of` on (the importer holds their since there).
//  * objects_to_build: plans in dependency order; a later plan may Get an
//    earlier object by id (Get::Kind::kObject).
//  * index_exports: arrangements of built objects (by `on_id`) keyed by
//    `key`, published under `index_id` for peeks and later imports. The
//    arrangement's val is the whole row.
//  * sink_exports: the sealed updates of an index export (by `index_id`),
//    reported to the controller as SinkBatch responses under `sink_id`
//    (a materialized view's persist sink: the controller writes them to
//    the view's shard).
//  * as_of: updates before it are read as if at as_of. until: updates at or
//    after it are dropped (nullopt: forever).
//  * heap_limit_bytes: the most its arrangements (batches resident and
//    spilled, and what their batchers buffer) may hold over all workers;
//    past it the peeks of its exports fail with 53200 and it stops
//    stepping until dropped (a peek dataflow's max_query_heap_size; 0:
//    no limit).
// Threading: plain value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/scalar_expr.hpp"
#include "common/timestamp.hpp"
#include "compute/plan/global_id.hpp"
#include "compute/plan/lir.hpp"

namespace tandem::compute {

struct SourceImport {
  GlobalId id = 0;
};

struct IndexImport {
  GlobalId index_id = 0;
  // The index's key (over the indexed collection's columns): a Join whose
  // input is this index, keyed the same, reuses its arrangement.
  std::vector<ScalarExpr> key;
};

struct BuildDesc {
  GlobalId id = 0;
  PlanNode plan;
};

struct IndexExport {
  GlobalId index_id = 0;
  GlobalId on_id = 0;
  std::vector<ScalarExpr> key;
};

struct SinkExport {
  GlobalId sink_id = 0;
  GlobalId index_id = 0;
};

struct DataflowDescription {
  std::string debug_name;
  std::vector<SourceImport> source_imports;
  std::vector<IndexImport> index_imports;
  std::vector<BuildDesc> objects_to_build;
  std::vector<IndexExport> index_exports;
  std::vector<SinkExport> sink_exports;
  Timestamp as_of = kMinTimestamp;
  std::optional<Timestamp> until;
  std::uint64_t heap_limit_bytes = 0;
};

}  // namespace tandem::compute
