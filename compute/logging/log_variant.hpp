// Log variants: the introspection relations a maintenance runtime's logging
// dataflows maintain, with
// Materialize's names and columns, and how each derives from the raw
// per-worker logs.
//
// Raw logs (LogSource). Every worker feeds one source collection per kind
// (compute/logging/worker_logger.hpp); column 1 of every raw row is the
// worker id. Descriptive logs (dataflows, operators, exports) are the same on
// every worker, so the plain relations keep worker 0's rows; measures
// (arrangement sizes, scheduling time, error counts, histograms) are summed
// over workers; frontiers are the least over workers. Peek logs come from the
// runtime-wide PeekLog and are written by worker 0 alone.
//
// Each LogSource renders as ONE logging dataflow (one SourceOp) exporting an
// index per variant reading it. Index ids live in their own id range
// (kLogIdBase), the same in every runtime: a runtime is one cluster, and the
// catalog item of a relation resolves to this id on the session's cluster.
// The list order is fixed (the catalog registers the relations in it, which
// fixes their system ids): append only.
// Threading: immutable data and pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/types.hpp"
#include "compute/plan/dataflow_description.hpp"
#include "compute/plan/global_id.hpp"

namespace tandem::compute::logging {

enum class LogSource : std::uint8_t {
  kDataflows,        // id, worker_id, name
  kOperators,        // id, worker_id, name, dataflow_id, dataflow_name
  kArrangements,     // operator_id, worker_id, dataflow_id, dataflow_name, records, batches, size, capacity, allocations, resident_bytes, spilled_bytes
  kScheduling,       // id, worker_id, elapsed_ns
  kExports,          // export_id, worker_id, dataflow_id
  kFrontiers,        // export_id, worker_id, time
  kImportFrontiers,  // export_id, worker_id, import_id, time
  kErrorCounts,      // export_id, worker_id, count
  kActivePeeks,      // id, worker_id, object_id, type, time
  kPeekDurations,    // type, worker_id, duration_ns, count
  kStepDurations,    // runtime, worker_id, duration_ns, count
  kRecentPeeks,      // id, worker_id, object_id, runtime, path, duration_ns, finished_at
};
inline constexpr std::size_t kLogSourceCount = 12;

struct LogColumn {
  const char* name;
  TypeId type;
};

// How a relation is computed from its raw log.
struct LogPlan {
  enum class Kind : std::uint8_t {
    kProject,     // the raw rows, projected to `columns`
    kWorkerZero,  // worker 0's raw rows, projected to `columns`
    kSum,         // group by `columns`, sum each of `values` (int8)
    kMin,         // group by `columns`, least of `values[0]`
  };
  Kind kind = Kind::kProject;
  std::vector<std::size_t> columns;
  std::vector<std::size_t> values;
};

struct LogVariant {
  const char* name;  // in schema mz_introspection
  std::vector<LogColumn> columns;
  LogSource source;
  LogPlan plan;
};

// Every variant, in registration order.
const std::vector<LogVariant>& log_variants();
// The raw columns of a log source.
const std::vector<LogColumn>& log_source_columns(LogSource source);

inline constexpr GlobalId kLogIdBase = GlobalId{3} << 62;
// The collection id a worker feeds for `source`.
GlobalId log_source_id(LogSource source);
// The index export of variant number `variant` (its position in log_variants()).
GlobalId log_index_id(std::size_t variant);
// The variant number of a log index id, or nullopt.
std::optional<std::size_t> log_variant_of(GlobalId index_id);
// The source id's LogSource, or nullopt.
std::optional<LogSource> log_source_of(GlobalId source_id);
// The key the index of a variant is arranged by: its first column, or its
// group key for sums and minimums (output column positions).
std::vector<std::size_t> log_index_key(const LogVariant& variant);

// The logging dataflow of `source`: one index export per variant reading it.
DataflowDescription log_dataflow(LogSource source);

}  // namespace tandem::compute::logging
