#include "compute/dataflow/render.hpp"

#include <map>

#include <spdlog/spdlog.h>

#include "compute/dataflow/accumulable_reduce_op.hpp"
#include "compute/dataflow/group_op.hpp"
#include "compute/dataflow/hierarchical_reduce.hpp"
#include "compute/dataflow/join_op.hpp"
#include "compute/dataflow/reduce_collation.hpp"
#include "compute/dataflow/stateless_ops.hpp"
#include "compute/dataflow/window_logic.hpp"

namespace tandem::compute {
namespace {

class Renderer {
 public:
  Renderer(const DataflowDescription& desc, const RenderContext& ctx)
      : desc_(desc), ctx_(ctx), df_(std::make_unique<Dataflow>(desc.debug_name)) {
    bounds_.as_of = desc.as_of;
    bounds_.until = desc.until;
  }

  Result<RenderedDataflow> run() {
    for (const BuildDesc& build : desc_.objects_to_build) {
      auto op = node(build.plan);
      if (!op.ok()) return op.status();
      objects_[build.id] = *op;
    }
    RenderedDataflow out;
    for (const IndexExport& exp : desc_.index_exports) {
      auto it = objects_.find(exp.on_id);
      if (it == objects_.end())
        return Status::error(sqlstate::kInternalError, "index export on an object the dataflow does not build");
      ArrangeOp* arranged = arrange_export(it->second, exp);
      out.exports.push_back(RenderedExport{exp.index_id, arranged});
    }
    for (const auto& [id, op] : sources_) out.imports.emplace_back(id, op);
    for (const auto& [id, op] : imports_) out.imports.emplace_back(id, op);
    out.shared_imports = shared_imports_;
    out.dataflow = std::move(df_);
    return out;
  }

 private:
  template <typename Op, typename... Args>
  Op* add(const std::vector<Operator*>& inputs, Args&&... args) {
    return df_->add(std::make_unique<Op>(std::forward<Args>(args)...), inputs);
  }

  // The input keyed by `key` and exchanged so each key lands on one worker.
  Operator* exchange_by_key(Operator* input, std::optional<std::vector<ScalarExpr>> key, bool skip_null_keys) {
    return exchange(add<KeyByOp>({input}, std::move(key), skip_null_keys));
  }
  Operator* exchange(Operator* keyed) {
    auto channel = ctx_.channel(channels_++);
    add<ExchangeSendOp>({keyed}, channel, ctx_.worker);
    return add<ExchangeRecvOp>({}, channel, ctx_.worker);
  }

  // An arrangement inside the dataflow (exports go through arrange_export).
  ArrangeOp* arrange(Operator* input, std::optional<std::vector<ScalarExpr>> key, bool skip_null_keys) {
    Operator* received = exchange_by_key(input, std::move(key), skip_null_keys);
    return add<ArrangeOp>({received}, /*arrange_errors=*/false, /*emit_output=*/true);
  }
  // The arrangement a GroupOp reads: it emits nothing (the GroupOp walks
  // its sealed batches through a feed).
  ArrangeOp* arrange_for_group(Operator* input, std::optional<std::vector<ScalarExpr>> key) {
    return arrange_keyed_for_group(exchange_by_key(input, std::move(key), false));
  }
  // Whole rows as keys, each keeping its display form beside its key-mode
  // key where they differ (KeyByOp's keep_display): for Distinct and
  // Threshold, which output one row per key.
  ArrangeOp* arrange_rows_for_group(Operator* input) {
    Operator* keyed = add<KeyByOp>({input}, std::nullopt, false, true, /*keep_display=*/true);
    return arrange_keyed_for_group(exchange(keyed));
  }
  ArrangeOp* arrange_keyed_for_group(Operator* keyed_and_exchanged) {
    return add<ArrangeOp>({keyed_and_exchanged}, /*arrange_errors=*/false, /*emit_output=*/false);
  }
  ArrangeOp* arrange_export(Operator* input, const IndexExport& exp) {
    Operator* received = exchange_by_key(input, exp.key, /*skip_null_keys=*/false);
    ExportPlaceholders placeholders;
    if (ctx_.export_placeholders) placeholders = ctx_.export_placeholders(exp.index_id);
    return add<ArrangeOp>({received}, /*arrange_errors=*/true, /*emit_output=*/false, std::move(placeholders.oks),
                          std::move(placeholders.errs));
  }

  // Another runtime's published index `id`, read by this one-shot dataflow.
  Result<SharedImportOp*> shared_import(GlobalId id, bool keyed) {
    std::optional<SharedIndex> shared;
    if (ctx_.shared_index) shared = ctx_.shared_index(id, desc_.as_of);
    if (!shared) return Status::error(sqlstate::kUndefinedTable, "unknown index " + std::to_string(id));
    if (!desc_.until)
      return Status::error(sqlstate::kInternalError, "a published index is imported by one-shot dataflows only");
    auto* op = add<SharedImportOp>({}, std::move(shared->oks), std::move(shared->errs), bounds_, keyed,
                                   std::move(shared->read_unsealed));
    shared_imports_.emplace_back(id, op);
    return op;
  }

  static std::vector<ScalarExpr> column_key(const std::vector<std::size_t>& columns) {
    std::vector<ScalarExpr> key;
    for (const std::size_t c : columns) key.push_back(ScalarExpr::column(c, ColumnType{}));
    return key;
  }

  // An ImportOp reads the exporter's batches as of desc_.as_of: exact only
  // if the exporter has not compacted past it (the controller picks as_of
  // at or after the index's since).
  Status check_importable(GlobalId id, ArrangeOp& exporter) const {
    const Timestamp since = exporter.trace().since();
    if (since <= desc_.as_of) return Status::ok();
    spdlog::error("internal error: dataflow {} imports index {} as of {}, below its since {}", desc_.debug_name, id,
                  desc_.as_of, since);
    return Status::error(sqlstate::kInternalError, "internal error: index " + std::to_string(id) +
                                                       " was compacted past the dataflow's as_of " +
                                                       std::to_string(desc_.as_of));
  }

  Result<Operator*> get(const Get& g) {
    switch (g.kind) {
      case Get::Kind::kObject: {
        auto it = objects_.find(g.id);
        if (it == objects_.end()) return Status::error(sqlstate::kInternalError, "Get of an object not built yet");
        return it->second;
      }
      case Get::Kind::kSource: {
        if (auto it = sources_.find(g.id); it != sources_.end()) return it->second;
        auto feed = ctx_.source(g.id);
        if (!feed) return Status::error(sqlstate::kUndefinedTable, "unknown source " + std::to_string(g.id));
        return sources_[g.id] = add<SourceOp>({}, std::move(feed), bounds_);
      }
      case Get::Kind::kIndex: {
        if (auto it = imports_.find(g.id); it != imports_.end()) return it->second;
        if (ArrangeOp* exporter = ctx_.index(g.id)) {
          TANDEM_RETURN_IF_ERROR(check_importable(g.id, *exporter));
          return imports_[g.id] = add<ImportOp>({}, exporter, bounds_);
        }
        TANDEM_ASSIGN_OR_RETURN(SharedImportOp * shared, shared_import(g.id, /*keyed=*/false));
        return imports_[g.id] = shared;
      }
    }
    return Status::error(sqlstate::kInternalError, "bad Get");
  }

  Result<Operator*> node(const PlanNode& plan) {
    return std::visit([&](const auto& n) { return visit(n); }, plan.node);
  }

  Result<Operator*> visit(const Get& n) { return get(n); }
  Result<Operator*> visit(const Constant& n) {
    return static_cast<Operator*>(add<ConstantOp>({}, n, desc_.as_of, ctx_.worker == 0));
  }
  Result<Operator*> visit(const Mfp& n) {
    TANDEM_ASSIGN_OR_RETURN(Operator * in, node(*n.input));
    if (n.mfp.is_identity()) return in;  // e.g. an index on `SELECT *`
    return static_cast<Operator*>(add<MfpOp>({in}, n.mfp));
  }
  Result<Operator*> visit(const ArrangeBy& n) {
    TANDEM_ASSIGN_OR_RETURN(Operator * in, node(*n.input));
    return static_cast<Operator*>(arrange(in, n.key, false));
  }
  Result<Operator*> visit(const Join& n) {
    TraceHandle lhs_trace;
    TraceHandle rhs_trace;
    TANDEM_ASSIGN_OR_RETURN(Operator * a, join_input(*n.lhs, n.lhs_key, &lhs_trace));
    TANDEM_ASSIGN_OR_RETURN(Operator * b, join_input(*n.rhs, n.rhs_key, &rhs_trace));
    return static_cast<Operator*>(add<JoinOp>({a, b}, std::move(lhs_trace), std::move(rhs_trace), bounds_));
  }

  // A join input arranged by `key`: an imported index keyed the same is
  // reused as it is (no exchange, no second arrangement); anything else is
  // arranged here.
  Result<Operator*> join_input(const PlanNode& input, const std::vector<ScalarExpr>& key,
                               TraceHandle* trace) {
    if (auto* g = std::get_if<Get>(&input.node); g && g->kind == Get::Kind::kIndex && same_key(g->id, key)) {
      if (ArrangeOp* exporter = ctx_.index(g->id)) {
        TANDEM_RETURN_IF_ERROR(check_importable(g->id, *exporter));
        ImportOp* import = add<ImportOp>({}, exporter, bounds_, /*keyed=*/true);
        *trace = import->trace()->handle();
        return static_cast<Operator*>(import);
      }
      TANDEM_ASSIGN_OR_RETURN(SharedImportOp * shared, shared_import(g->id, /*keyed=*/true));
      *trace = shared->handle();
      return static_cast<Operator*>(shared);
    }
    TANDEM_ASSIGN_OR_RETURN(Operator * in, node(input));
    ArrangeOp* arranged = arrange(in, key, true);
    *trace = arranged->trace().handle();
    return static_cast<Operator*>(arranged);
  }

  // Whether imported index `id` is keyed by exactly the columns of `key`.
  bool same_key(GlobalId id, const std::vector<ScalarExpr>& key) const {
    for (const IndexImport& i : desc_.index_imports) {
      if (i.index_id != id) continue;
      if (i.key.size() != key.size() || key.empty()) return false;
      for (std::size_t k = 0; k < key.size(); ++k) {
        const auto* a = std::get_if<ColumnRef>(&i.key[k].node);
        const auto* b = std::get_if<ColumnRef>(&key[k].node);
        if (a == nullptr || b == nullptr || a->index != b->index) return false;
      }
      return true;
    }
    return false;
  }
  // A Reduce is rendered one part per kind of aggregate, collated on the
  // group key when there are several (reduce_collation.hpp).
  Result<Operator*> visit(const Reduce& n) {
    TANDEM_ASSIGN_OR_RETURN(Operator * in, node(*n.input));
    if (n.aggregates.empty()) {
      // No aggregates: the distinct group keys (GROUP BY alone, SELECT
      // DISTINCT written as a Reduce), one arrangement of keys only.
      Operator* keyed = add<KeyByOp>({in}, n.group_key, false, /*keep_val=*/false);
      ArrangeOp* a = arrange_keyed_for_group(exchange(keyed));
      return static_cast<Operator*>(
          add<GroupOp>({a}, "ReduceDistinct", a, make_distinct_logic(), /*recompute_previous=*/true));
    }
    const std::vector<ReducePart> parts =
        split_reduce(n.aggregates, accumulable_reduce_enabled(), hierarchical_reduce_enabled());
    if (parts.size() == 1) return reduce_part(in, n, parts[0]);
    const std::size_t key_arity = n.group_key.size();
    std::vector<Operator*> tagged;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      Operator* part = reduce_part(in, n, parts[i]);
      tagged.push_back(add<CollateTagOp>({part}, static_cast<std::int32_t>(i), key_arity));
    }
    Operator* all = add<UnionOp>(tagged, tagged.size());
    ArrangeOp* a = arrange_keyed_for_group(exchange(all));
    return static_cast<Operator*>(
        add<GroupOp>({a}, "ReduceCollation", a, make_collation_logic(parts, n.aggregates.size())));
  }

  // One part's result rows: group key ++ the part's aggregates.
  Operator* reduce_part(Operator* in, const Reduce& n, const ReducePart& part) {
    const std::size_t key_arity = n.group_key.size();
    std::vector<AggregateExpr> aggs = part_aggregates(part, n.aggregates, key_arity);
    switch (part.kind) {
      case ReducePart::Kind::kAccumulable: {
        // Running sums need each update once, not the group's history: no arrangement.
        Operator* received = exchange_by_key(in, n.group_key, false);
        return add<AccumulableReduceOp>({received}, std::move(aggs));
      }
      case ReducePart::Kind::kHierarchical: {
        // Per (key, fine bucket), per (key, coarse bucket), then per key.
        Operator* bucketed = add<BucketKeyOp>({add<KeyByOp>({in}, n.group_key, false)});
        ArrangeOp* a1 = arrange_keyed_for_group(exchange(bucketed));
        Operator* buckets = add<GroupOp>({a1}, "ReduceBuckets", a1, make_minmax_bucket_logic(aggs));
        for (std::size_t level = 1; level < std::size(kHierarchicalBuckets); ++level) {
          Operator* rebucketed = add<RebucketKeyOp>({buckets}, key_arity, kHierarchicalBuckets[level]);
          ArrangeOp* a = arrange_keyed_for_group(exchange(rebucketed));
          buckets = add<GroupOp>({a}, "ReduceBuckets", a, make_minmax_rebucket_logic(aggs, key_arity));
        }
        ArrangeOp* a2 = arrange_for_group(buckets, column_key(first_columns(key_arity)));
        return add<GroupOp>({a2}, "Reduce", a2, make_minmax_merge_logic(std::move(aggs), key_arity));
      }
      case ReducePart::Kind::kDistinct: {
        // Distinct (key, x) — an arrangement, which spills — then count/sum x per key.
        std::vector<ScalarExpr> key_and_value = n.group_key;
        key_and_value.push_back(n.aggregates[part.positions[0]].expr);
        Operator* keyed =
            add<KeyByOp>({in}, std::move(key_and_value), false, /*keep_val=*/false, /*keep_display=*/true);
        ArrangeOp* a = arrange_keyed_for_group(exchange(keyed));
        Operator* distinct = add<GroupOp>({a}, "ReduceDistinct", a, make_distinct_logic(), /*recompute_previous=*/true);
        Operator* received = exchange_by_key(distinct, column_key(first_columns(key_arity)), false);
        return add<AccumulableReduceOp>({received}, std::move(aggs));
      }
      case ReducePart::Kind::kBasic:
        break;
    }
    ArrangeOp* a = arrange_for_group(in, n.group_key);
    return add<GroupOp>({a}, "Reduce", a, make_reduce_logic(std::move(aggs)));
  }

  static std::vector<std::size_t> first_columns(std::size_t n) {
    std::vector<std::size_t> columns(n);
    for (std::size_t i = 0; i < n; ++i) columns[i] = i;
    return columns;
  }

  Result<Operator*> visit(const Distinct& n) {
    TANDEM_ASSIGN_OR_RETURN(Operator * in, node(*n.input));
    ArrangeOp* a = arrange_rows_for_group(in);
    return static_cast<Operator*>(add<GroupOp>({a}, "Distinct", a, make_distinct_logic(), /*recompute_previous=*/true));
  }
  Result<Operator*> visit(const Threshold& n) {
    TANDEM_ASSIGN_OR_RETURN(Operator * in, node(*n.input));
    ArrangeOp* a = arrange_rows_for_group(in);
    return static_cast<Operator*>(
        add<GroupOp>({a}, "Threshold", a, make_threshold_logic(), /*recompute_previous=*/true));
  }
  Result<Operator*> visit(const TopK& n) {
    TANDEM_ASSIGN_OR_RETURN(Operator * in, node(*n.input));
    ArrangeOp* a = arrange_for_group(in, column_key(n.group_key));
    return static_cast<Operator*>(add<GroupOp>({a}, "TopK", a, make_topk_logic(n.order, n.limit, n.offset)));
  }
  Result<Operator*> visit(const Window& n) {
    TANDEM_ASSIGN_OR_RETURN(Operator * in, node(*n.input));
    ArrangeOp* a = arrange_for_group(in, column_key(n.partition_by));
    return static_cast<Operator*>(add<GroupOp>({a}, "Window", a, make_window_logic(n.order_by, n.funcs)));
  }
  Result<Operator*> visit(const Union& n) {
    std::vector<Operator*> ins;
    for (const PlanNode& p : n.inputs) {
      TANDEM_ASSIGN_OR_RETURN(Operator * in, node(p));
      ins.push_back(in);
    }
    return static_cast<Operator*>(add<UnionOp>(ins, ins.size()));
  }
  Result<Operator*> visit(const Negate& n) {
    TANDEM_ASSIGN_OR_RETURN(Operator * in, node(*n.input));
    return static_cast<Operator*>(add<NegateOp>({in}));
  }
  Result<Operator*> visit(const FlatMap& n) {
    TANDEM_ASSIGN_OR_RETURN(Operator * in, node(*n.input));
    return static_cast<Operator*>(add<FlatMapOp>({in}, n.func, n.args));
  }

  const DataflowDescription& desc_;
  const RenderContext& ctx_;
  std::unique_ptr<Dataflow> df_;
  TimeBounds bounds_;
  std::size_t channels_ = 0;
  std::map<GlobalId, Operator*> objects_;
  std::map<GlobalId, Operator*> sources_;
  std::map<GlobalId, Operator*> imports_;
  std::vector<std::pair<GlobalId, const SharedImportOp*>> shared_imports_;
};

}  // namespace

Result<RenderedDataflow> render(const DataflowDescription& desc, const RenderContext& ctx) {
  return Renderer(desc, ctx).run();
}

}  // namespace tandem::compute
