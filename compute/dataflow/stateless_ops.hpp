// Row-at-a-time operators. Each processes every pending update at once
// (nothing is held back), so its frontier is its least input frontier.
//
//  ConstantOp   emits fixed rows (or one error) at `time` on worker 0 only,
//               then closes (frontier = max).
//  MfpOp        fused map/filter/project; an evaluation error becomes an
//               error update with the input's time and diff, so it retracts
//               with the row that raised it.
//  UnionOp      concatenation of any number of inputs.
//  NegateOp     negates data diffs; errors pass unchanged (an error in
//               either branch of EXCEPT is an error of the result).
//  FlatMapOp    a table function per row (compute/plan/table_func.hpp).
//               The exception to "everything at once": a step stops taking
//               input rows once it has emitted kFlatMapFuel updates and
//               keeps the rest (has_more), its frontier held at the input
//               it has not expanded, so a series per row of a large input
//               never holds more than a step's output in flight.
//  KeyByOp      evaluates arrangement key expressions: the output is keyed
//               (key = packed key values with numerics normalized, val =
//               the row), ready for an exchange and an arrangement. With
//               `key` unset the whole row is the key and val is empty
//               (Distinct, Threshold). `skip_null_keys` drops rows whose
//               key has a NULL (equi-join semantics). Without `keep_val`
//               the val is empty (the key is all a Distinct on the key
//               columns needs, e.g. the (group key, x) of count(DISTINCT x)).
// Threading: per worker.
#pragma once

#include <optional>
#include <vector>

#include "common/eval_context.hpp"
#include "common/status.hpp"
#include "compute/dataflow/mfp_eval.hpp"
#include "compute/dataflow/operator.hpp"
#include "compute/plan/lir.hpp"

namespace tandem::compute {

class ConstantOp final : public Operator {
 public:
  ConstantOp(Constant constant, Timestamp time, bool emit)
      : Operator("Constant", 0), constant_(std::move(constant)), time_(time), emit_(emit) {}
  void step() override;

 private:
  Constant constant_;
  Timestamp time_;
  bool emit_;
  bool done_ = false;
};

class MfpOp final : public Operator {
 public:
  explicit MfpOp(MapFilterProject mfp);
  void step() override;

 private:
  MfpEvaluator eval_;
  EvalContext ctx_;
  // A pure projection (no predicates; every output column an input column,
  // directly or through maps that only copy columns) copies the projected
  // datums' bytes instead of decoding and re-encoding the row; the identity
  // moves rows through.
  bool identity_ = false;
  bool projection_only_ = false;
  std::vector<std::size_t> input_columns_;  // per output column, when projection_only_
  std::vector<std::string_view> spans_;
};

class UnionOp final : public Operator {
 public:
  explicit UnionOp(std::size_t inputs) : Operator("Union", inputs) {}
  void step() override;
};

class NegateOp final : public Operator {
 public:
  NegateOp() : Operator("Negate", 1) {}
  void step() override;
};

// Output updates after which one FlatMapOp step takes no more input rows.
inline constexpr std::size_t kFlatMapFuel = 256 * 1024;

class FlatMapOp final : public Operator {
 public:
  FlatMapOp(TableFunc func, std::vector<ScalarExpr> args)
      : Operator("FlatMap", 1), func_(func), args_(std::move(args)) {}
  void step() override;
  bool has_more() const override { return !inputs_[0].pending.oks.empty(); }

 private:
  Status expand(const Update& u, std::vector<Datum>& row);
  TableFunc func_;
  std::vector<ScalarExpr> args_;
  EvalContext ctx_;
  RowArena arena_;
  std::vector<Datum> datums_;
  std::vector<Update> produced_;
};

class KeyByOp final : public Operator {
 public:
  // `keep_display`: a key that key mode changed (a numeric's display scale
  // dropped) keeps its original form as the val, so an operator that
  // outputs one row per key can output a member's form (1.50, not 1.5):
  // with the whole-row key the row itself, with key expressions (and
  // keep_val false) their values packed as they are. Other vals stay empty.
  KeyByOp(std::optional<std::vector<ScalarExpr>> key, bool skip_null_keys, bool keep_val = true,
          bool keep_display = false);
  void step() override;

 private:
  // Packs the key of `val` by evaluating the key expressions; false (with
  // an error update emitted, or the row dropped for a NULL key) if the row
  // has no key.
  bool evaluate_key(const Update& u, Row* key);
  // With plain column keys, the key is a copy of those datums' bytes (and
  // the whole-row key is the row itself, moved) unless a numeric needs key
  // mode or a NULL key is to be skipped.
  bool sliced_key(Update& u, Row* key);

  std::optional<std::vector<ScalarExpr>> key_;
  bool skip_null_keys_;
  bool keep_val_;
  bool keep_display_;
  std::vector<std::size_t> key_columns_;  // set when every key expression is a column
  std::size_t key_width_ = 0;             // 1 + the largest of key_columns_
  EvalContext ctx_;
  RowArena arena_;
  std::vector<Datum> datums_;
  std::vector<std::string_view> spans_;
  // keep_display with key expressions: the last evaluated key as computed.
  Row display_;
  bool display_differs_ = false;
};

}  // namespace tandem::compute
