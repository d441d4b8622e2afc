// SumAccumulator: the running state of sum(numeric) and sum(float4|float8),
// shared by the whole-group recompute (group_logic.cpp) and the accumulable
// reduce (accumulable_reduce_op.hpp), so both paths give one answer and a
// retraction subtracts exactly what its insertion added (Materialize's
// Accum::Numeric and Accum::Float in compute/src/render/reduce.rs).
//
// Numeric: non-finite values are counted (NaN, +Infinity, -Infinity); a
// finite value adds its coefficient to the sum of its display scale and 1
// to that scale's count. The result is exact: the scales' sums are brought
// to the largest scale still present (PostgreSQL's display scale of a sum,
// the largest of its terms') in 256 bits and rounded once, to 38 significant
// digits (make_numeric). So, unlike a sum of partial sums each rounded to 38
// digits, the answer does not depend on the order of the terms.
//   NaN if any NaN, or both infinities, are present; else ±Infinity if
//   present; 22003 "value overflows numeric format" if the integer part
//   needs more than 38 digits.
// Float: NaN if any NaN or both infinities; else ±Infinity if present;
// else the exact sum of the finite terms rounded once (ExactFloatSum, which
// says how that compares with PostgreSQL's in-order sum); 22003 "value out
// of range: overflow" when it is beyond the largest double.
//
// A numeric scale's coefficient sum has 256 bits, so partial sums never
// overflow (the result is checked once); overflow of a scale's count is
// sticky: the result stays 22003 until the group is empty again, as for
// the integer sums.
// Threading: a plain value, per worker.
#pragma once

#include <cstdint>
#include <vector>

#include "common/datum.hpp"
#include "common/numeric.hpp"
#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "common/u256.hpp"
#include "compute/dataflow/exact_float_sum.hpp"

namespace tandem::compute {

class SumAccumulator {
 public:
  // Adds `diff` copies of a non-NULL numeric / float value.
  void add_numeric(const Numeric& v, Diff diff);
  void add_float(double v, Diff diff);
  // Adds another accumulator of the same kind.
  void merge(const SumAccumulator& other);
  // True when nothing is accumulated (every count and sum is zero).
  bool is_zero() const;
  // The sums of the non-NULL values added (the caller makes it NULL when
  // there were none). Errors: 22003.
  Result<Numeric> numeric_sum() const;
  Result<double> float_sum() const;
  // numeric_sum() or float_sum() as a datum (the reduce's output column).
  Result<Datum> sum_datum(bool numeric) const;

 private:
  // The terms of one coefficient scale and one display scale.
  struct ScaleSum {
    int scale = 0;
    int display_scale = 0;
    i128 count = 0;
    U256 coef_sum;  // two's complement, so any order of terms is exact
  };
  void add_scale(int scale, int display_scale, i128 count, const U256& coef_sum);

  i128 nans_ = 0;
  i128 pos_infs_ = 0;
  i128 neg_infs_ = 0;
  ExactFloatSum exact_;           // float: the finite terms
  std::vector<ScaleSum> scales_;  // numeric: by scale, few entries
  bool overflowed_ = false;
};

}  // namespace tandem::compute
