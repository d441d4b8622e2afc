#include "compute/logging/log_variant.hpp"

#include <string>

namespace tandem::compute::logging {
namespace {

constexpr TypeId kInt8 = TypeId::kInt8;
constexpr TypeId kText = TypeId::kText;
constexpr TypeId kTime = TypeId::kMzTimestamp;
using K = LogPlan::Kind;

const std::vector<std::vector<LogColumn>>& source_columns() {
  static const std::vector<std::vector<LogColumn>> all = {
      {{"id", kInt8}, {"worker_id", kInt8}, {"name", kText}},
      {{"id", kInt8}, {"worker_id", kInt8}, {"name", kText}, {"dataflow_id", kInt8}, {"dataflow_name", kText}},
      {{"operator_id", kInt8}, {"worker_id", kInt8}, {"dataflow_id", kInt8}, {"dataflow_name", kText},
       {"records", kInt8}, {"batches", kInt8}, {"size", kInt8}, {"capacity", kInt8}, {"allocations", kInt8},
       {"resident_bytes", kInt8}, {"spilled_bytes", kInt8}},
      {{"id", kInt8}, {"worker_id", kInt8}, {"elapsed_ns", kInt8}},
      {{"export_id", kText}, {"worker_id", kInt8}, {"dataflow_id", kInt8}},
      {{"export_id", kText}, {"worker_id", kInt8}, {"time", kTime}},
      {{"export_id", kText}, {"worker_id", kInt8}, {"import_id", kText}, {"time", kTime}},
      {{"export_id", kText}, {"worker_id", kInt8}, {"count", kInt8}},
      {{"id", kText}, {"worker_id", kInt8}, {"object_id", kText}, {"type", kText}, {"time", kTime}},
      {{"type", kText}, {"worker_id", kInt8}, {"duration_ns", kInt8}, {"count", kInt8}},
      {{"runtime", kText}, {"worker_id", kInt8}, {"duration_ns", kInt8}, {"count", kInt8}},
      {{"id", kText}, {"worker_id", kInt8}, {"object_id", kText}, {"runtime", kText}, {"path", kText},
       {"duration_ns", kInt8}, {"finished_at", kTime}},
  };
  return all;
}

// A variant whose columns are the raw columns at `columns` (renamed by `names`
// where given, else the raw names), or the group key followed by the values.
LogVariant variant(const char* name, LogSource source, K kind, std::vector<std::size_t> columns,
                   std::vector<std::size_t> values = {}, std::vector<const char*> names = {}) {
  const auto& raw = source_columns()[static_cast<std::size_t>(source)];
  LogVariant v{name, {}, source, LogPlan{kind, std::move(columns), std::move(values)}};
  for (std::size_t c : v.plan.columns) v.columns.push_back(raw[c]);
  for (std::size_t c : v.plan.values) v.columns.push_back(raw[c]);
  for (std::size_t i = 0; i < names.size() && i < v.columns.size(); ++i) v.columns[i].name = names[i];
  return v;
}

}  // namespace

const std::vector<LogColumn>& log_source_columns(LogSource source) {
  return source_columns()[static_cast<std::size_t>(source)];
}

const std::vector<LogVariant>& log_variants() {
  using S = LogSource;
  static const std::vector<LogVariant> all = {
      variant("mz_dataflows", S::kDataflows, K::kWorkerZero, {0, 2}),
      variant("mz_dataflows_per_worker", S::kDataflows, K::kProject, {0, 1, 2}),
      variant("mz_dataflow_operators", S::kOperators, K::kWorkerZero, {0, 2}),
      variant("mz_dataflow_operators_per_worker", S::kOperators, K::kProject, {0, 1, 2}),
      variant("mz_dataflow_operator_dataflows", S::kOperators, K::kWorkerZero, {0, 2, 3, 4}),
      variant("mz_dataflow_operator_dataflows_per_worker", S::kOperators, K::kProject, {0, 1, 2, 3, 4}),
      // Materialize's columns, then resident_bytes and spilled_bytes.
      variant("mz_arrangement_sizes", S::kArrangements, K::kSum, {0}, {4, 5, 6, 7, 8, 9, 10}),
      variant("mz_arrangement_sizes_per_worker", S::kArrangements, K::kProject, {0, 1, 4, 5, 6, 7, 8, 9, 10}),
      variant("mz_dataflow_arrangement_sizes", S::kArrangements, K::kSum, {2, 3}, {4, 5, 6, 7, 8, 9, 10},
              {"id", "name"}),
      variant("mz_records_per_dataflow", S::kArrangements, K::kSum, {2, 3}, {4, 5, 6, 7, 8}, {"id", "name"}),
      variant("mz_records_per_dataflow_per_worker", S::kArrangements, K::kSum, {2, 3, 1}, {4, 5, 6, 7, 8},
              {"id", "name"}),
      variant("mz_compute_exports", S::kExports, K::kWorkerZero, {0, 2}),
      variant("mz_compute_exports_per_worker", S::kExports, K::kProject, {0, 1, 2}),
      variant("mz_compute_frontiers", S::kFrontiers, K::kMin, {0}, {2}),
      variant("mz_compute_frontiers_per_worker", S::kFrontiers, K::kProject, {0, 1, 2}),
      variant("mz_compute_import_frontiers", S::kImportFrontiers, K::kMin, {0, 2}, {3}),
      variant("mz_compute_import_frontiers_per_worker", S::kImportFrontiers, K::kProject, {0, 2, 1, 3}),
      variant("mz_compute_error_counts", S::kErrorCounts, K::kSum, {0}, {2}),
      variant("mz_compute_error_counts_per_worker", S::kErrorCounts, K::kProject, {0, 1, 2}),
      variant("mz_scheduling_elapsed", S::kScheduling, K::kSum, {0}, {2}),
      variant("mz_scheduling_elapsed_per_worker", S::kScheduling, K::kProject, {0, 1, 2}),
      variant("mz_scheduling_elapsed_raw", S::kScheduling, K::kProject, {0, 1, 2}),
      variant("mz_active_peeks", S::kActivePeeks, K::kProject, {0, 2, 3, 4}),
      variant("mz_active_peeks_per_worker", S::kActivePeeks, K::kProject, {0, 1, 2, 3, 4}),
      variant("mz_peek_durations_histogram", S::kPeekDurations, K::kSum, {0, 2}, {3}),
      variant("mz_peek_durations_histogram_per_worker", S::kPeekDurations, K::kProject, {0, 1, 2, 3}),
      variant("mz_runtime_step_durations_histogram", S::kStepDurations, K::kSum, {0, 2}, {3}),
      variant("mz_runtime_step_durations_histogram_per_worker", S::kStepDurations, K::kProject, {0, 1, 2, 3}),
      variant("mz_recent_peeks", S::kRecentPeeks, K::kProject, {0, 2, 3, 4, 5, 6}),
  };
  return all;
}

GlobalId log_source_id(LogSource source) { return kLogIdBase + static_cast<GlobalId>(source); }

GlobalId log_index_id(std::size_t variant) { return kLogIdBase + 1000 + variant; }

std::optional<std::size_t> log_variant_of(GlobalId index_id) {
  if (index_id < kLogIdBase + 1000 || index_id >= kLogIdBase + 1000 + log_variants().size()) return std::nullopt;
  return static_cast<std::size_t>(index_id - kLogIdBase - 1000);
}

std::optional<LogSource> log_source_of(GlobalId source_id) {
  if (source_id < kLogIdBase || source_id >= kLogIdBase + kLogSourceCount) return std::nullopt;
  return static_cast<LogSource>(source_id - kLogIdBase);
}

std::vector<std::size_t> log_index_key(const LogVariant& variant) {
  if (variant.plan.kind == LogPlan::Kind::kSum || variant.plan.kind == LogPlan::Kind::kMin) {
    std::vector<std::size_t> key(variant.plan.columns.size());
    for (std::size_t i = 0; i < key.size(); ++i) key[i] = i;
    return key;
  }
  return {0};
}

namespace {

ColumnType type_of(TypeId id) { return ColumnType{id, -1, true}; }

MapFilterProject project(std::size_t arity, const std::vector<std::size_t>& columns) {
  MapFilterProject mfp;
  mfp.input_arity = arity;
  mfp.projection = columns;
  return mfp;
}

PlanNode plan_of(const LogVariant& v) {
  const auto& raw = log_source_columns(v.source);
  PlanNode get{Get{log_source_id(v.source), Get::Kind::kSource}};
  switch (v.plan.kind) {
    case K::kProject:
      return PlanNode{Mfp{std::move(get), project(raw.size(), v.plan.columns)}};
    case K::kWorkerZero: {
      MapFilterProject mfp = project(raw.size(), v.plan.columns);
      mfp.predicates.push_back(ScalarExpr::binary(BinaryFunc::kEq, ScalarExpr::column(1, type_of(TypeId::kInt8)),
                                                  ScalarExpr::literal(Datum::from_int64(0), type_of(TypeId::kInt8)),
                                                  type_of(TypeId::kBool)));
      return PlanNode{Mfp{std::move(get), std::move(mfp)}};
    }
    case K::kSum:
    case K::kMin: {
      Reduce reduce{std::move(get), {}, {}};
      for (std::size_t c : v.plan.columns) reduce.group_key.push_back(ScalarExpr::column(c, type_of(raw[c].type)));
      const bool sum = v.plan.kind == K::kSum;
      for (std::size_t c : v.plan.values) {
        AggregateExpr agg;
        agg.func = sum ? AggregateFunc::kSumInt8 : AggregateFunc::kMin;
        agg.expr = ScalarExpr::column(c, type_of(raw[c].type));
        reduce.aggregates.push_back(std::move(agg));
      }
      PlanNode reduced{std::move(reduce)};
      if (!sum) return reduced;
      // sum(int8) is numeric (PostgreSQL's rule); the relations say int8.
      const std::size_t keys = v.plan.columns.size();
      MapFilterProject mfp = project(keys + v.plan.values.size(), {});
      for (std::size_t k = 0; k < keys; ++k) mfp.projection.push_back(k);
      for (std::size_t i = 0; i < v.plan.values.size(); ++i) {
        mfp.expressions.push_back(ScalarExpr::unary(UnaryFunc::kCast,
                                                    ScalarExpr::column(keys + i, type_of(TypeId::kNumeric)),
                                                    type_of(TypeId::kInt8)));
        mfp.projection.push_back(mfp.input_arity + i);
      }
      return PlanNode{Mfp{std::move(reduced), std::move(mfp)}};
    }
  }
  return get;
}

}  // namespace

DataflowDescription log_dataflow(LogSource source) {
  static const char* kNames[kLogSourceCount] = {
      "dataflows",      "operators",    "arrangements", "scheduling", "exports",       "frontiers",
      "import-frontiers", "error-counts", "active-peeks", "peek-durations", "step-durations", "recent-peeks"};
  DataflowDescription desc;
  desc.debug_name = std::string("Dataflow: logging ") + kNames[static_cast<std::size_t>(source)];
  desc.source_imports.push_back(SourceImport{log_source_id(source)});
  const auto& variants = log_variants();
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const LogVariant& v = variants[i];
    if (v.source != source) continue;
    const GlobalId object = kLogIdBase + 2000 + i;
    desc.objects_to_build.push_back(BuildDesc{object, plan_of(v)});
    IndexExport exp;
    exp.index_id = log_index_id(i);
    exp.on_id = object;
    for (std::size_t k : log_index_key(v)) exp.key.push_back(ScalarExpr::column(k, type_of(v.columns[k].type)));
    desc.index_exports.push_back(std::move(exp));
  }
  return desc;
}

}  // namespace tandem::compute::logging
