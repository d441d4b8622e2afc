#include "compute/dataflow/mfp_eval.hpp"

#include <algorithm>

#include "common/eval.hpp"

namespace tandem::compute {

std::size_t column_support(const ScalarExpr& expr) {
  return std::visit(
      [](const auto& n) -> std::size_t {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ColumnRef>) {
          return n.index + 1;
        } else if constexpr (std::is_same_v<T, Literal>) {
          return 0;
        } else if constexpr (std::is_same_v<T, CallUnary>) {
          return column_support(*n.arg);
        } else if constexpr (std::is_same_v<T, CallBinary>) {
          return std::max(column_support(*n.lhs), column_support(*n.rhs));
        } else if constexpr (std::is_same_v<T, CallVariadic>) {
          std::size_t m = 0;
          for (const auto& a : n.args) m = std::max(m, column_support(a));
          return m;
        } else {
          return std::max({column_support(*n.cond), column_support(*n.then), column_support(*n.els)});
        }
      },
      expr.node);
}

MfpEvaluator::MfpEvaluator(MapFilterProject mfp) : mfp_(std::move(mfp)) {
  for (std::size_t i = 0; i < mfp_.predicates.size(); ++i)
    steps_.push_back(Step{column_support(mfp_.predicates[i]), i});
  std::stable_sort(steps_.begin(), steps_.end(),
                   [](const Step& a, const Step& b) { return a.columns_needed < b.columns_needed; });
  for (const std::size_t c : mfp_.projection) projection_needs_ = std::max(projection_needs_, c + 1);
}

Status MfpEvaluator::extend_to(std::size_t columns, EvalContext& ctx) {
  while (datums_.size() < columns) {
    const std::size_t expr = datums_.size() - mfp_.input_arity;
    auto value = eval(mfp_.expressions[expr], datums_, ctx);
    if (!value.ok()) return std::move(value).take_status();
    datums_.push_back(*value);
  }
  return Status::ok();
}

Result<bool> MfpEvaluator::evaluate(std::span<const Datum> input, EvalContext& ctx, Row* out) {
  ctx.arena.clear();
  datums_.assign(input.begin(), input.end());
  for (const Step& step : steps_) {
    TANDEM_RETURN_IF_ERROR(extend_to(step.columns_needed, ctx));
    auto keep = eval(mfp_.predicates[step.predicate], datums_, ctx);
    if (!keep.ok()) return std::move(keep).take_status();
    if (keep->is_null() || !keep->as_bool()) return false;
  }
  TANDEM_RETURN_IF_ERROR(extend_to(projection_needs_, ctx));
  out->clear();
  RowPacker packer(out);
  for (const std::size_t c : mfp_.projection) packer.push(datums_[c]);
  return true;
}

Result<bool> MfpEvaluator::evaluate_row(RowRef row, EvalContext& ctx, Row* out) {
  unpack_arena_.clear();
  unpack_into(row, &unpacked_, &unpack_arena_);
  return evaluate(unpacked_, ctx, out);
}

}  // namespace tandem::compute
