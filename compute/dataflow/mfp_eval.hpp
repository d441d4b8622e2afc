// MfpEvaluator: evaluates a MapFilterProject (compute/plan/map_filter_project.hpp)
// on one row at a time, with the lazy evaluation order that plan documents:
// each predicate runs as soon as the columns it reads exist, and an
// expression nothing reads is never evaluated.
//
// evaluate() returns true with the projected row in *out when the row
// passes, false when a predicate drops it, or the evaluation error (the
// caller turns it into an error update with the input's time and diff).
// Threading: an evaluator is used by one thread (it keeps scratch space);
// build one per operator instance.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "common/eval_context.hpp"
#include "common/row.hpp"
#include "common/status.hpp"
#include "compute/plan/map_filter_project.hpp"

namespace tandem::compute {

class MfpEvaluator {
 public:
  explicit MfpEvaluator(MapFilterProject mfp);

  // `input` holds the input row's datums. Clears ctx.arena first.
  Result<bool> evaluate(std::span<const Datum> input, EvalContext& ctx, Row* out);
  // Convenience: unpacks `row` first.
  Result<bool> evaluate_row(RowRef row, EvalContext& ctx, Row* out);

  const MapFilterProject& mfp() const { return mfp_; }

 private:
  // Evaluates expressions until the row has `columns` columns.
  Status extend_to(std::size_t columns, EvalContext& ctx);

  struct Step {
    std::size_t columns_needed;  // the row must have this many columns first
    std::size_t predicate;
  };
  MapFilterProject mfp_;
  std::vector<Step> steps_;  // predicates, ordered by columns_needed (stable)
  std::size_t projection_needs_ = 0;
  std::vector<Datum> datums_;
  std::vector<Datum> unpacked_;
  RowArena unpack_arena_;
};

// One past the highest column an expression reads (0 if none).
std::size_t column_support(const ScalarExpr& expr);

}  // namespace tandem::compute
