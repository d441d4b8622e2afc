// render: builds one worker's instance of a dataflow from its LIR
// description (compute/plan/dataflow_description.hpp).
//
// Every worker renders the same description in the same order, so the k-th
// exchange channel a worker asks for is the k-th channel of every other
// worker: `channel()` hands out channels by that sequence number. Each
// arrangement boundary (ArrangeBy, both Join inputs, Reduce, Distinct,
// Threshold, TopK, index exports) renders as KeyBy -> exchange -> Arrange.
// Constants emit on worker 0 only. An index import is this worker's own
// arrangement when it has one (ImportOp), else another runtime's published
// part (SharedImportOp, one-shot dataflows only). Errors: an unknown import
// is a Status (42P01/XX000), never a partial dataflow.
// Threading: runs on the worker that will own the dataflow.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "common/status.hpp"
#include "compute/dataflow/arrange_op.hpp"
#include "compute/dataflow/dataflow.hpp"
#include "compute/dataflow/exchange.hpp"
#include "compute/dataflow/shared_import_op.hpp"
#include "compute/dataflow/source_op.hpp"
#include "compute/plan/dataflow_description.hpp"

namespace tandem::compute {

struct SharedIndex {
  TraceHandle oks;
  TraceHandle errs;
  // See SharedImportOp: whether an unsealed read may go ahead (may be empty).
  std::function<bool()> read_unsealed;
};

struct ExportPlaceholders {
  std::shared_ptr<TracePublication> oks;
  std::shared_ptr<TracePublication> errs;
};

struct RenderContext {
  std::size_t worker = 0;
  // The exchange channel with the given sequence number in this dataflow.
  std::function<std::shared_ptr<ExchangeChannel>(std::size_t seq)> channel;
  // This worker's feed for a source (subscribing it), or null if unknown.
  std::function<std::shared_ptr<SourceFeed>(GlobalId)> source;
  // This worker's arrangement of an exported index, or null if unknown.
  std::function<ArrangeOp*(GlobalId)> index;
  // An index another runtime publishes (the interactive runtime's imports):
  // handles on this worker's part held at the dataflow's as_of, or nullopt
  // if unknown or compacted past it. May be empty (no shared imports).
  std::function<std::optional<SharedIndex>(GlobalId, Timestamp as_of)> shared_index;
  // Placeholder publications an index export adopts (null: none).
  std::function<ExportPlaceholders(GlobalId)> export_placeholders;
};

struct RenderedExport {
  GlobalId index_id = 0;
  ArrangeOp* arrangement = nullptr;  // owned by the dataflow
};

struct RenderedDataflow {
  std::unique_ptr<Dataflow> dataflow;
  std::vector<RenderedExport> exports;
  // The operator reading each imported source or index (for logging its
  // frontier), owned by the dataflow.
  std::vector<std::pair<GlobalId, const Operator*>> imports;
  // The imports of indexes another runtime publishes, which wake the worker
  // when they advance until done().
  std::vector<std::pair<GlobalId, const SharedImportOp*>> shared_imports;
};

Result<RenderedDataflow> render(const DataflowDescription& desc, const RenderContext& ctx);

}  // namespace tandem::compute
