#include "compute/dataflow/sum_accumulator.hpp"

#include <algorithm>
#include <cmath>

namespace tandem::compute {
namespace {

Status float_overflow() { return Status::error(sqlstate::kNumericValueOutOfRange, "value out of range: overflow"); }

u128 magnitude(i128 v) { return v < 0 ? u128{0} - static_cast<u128>(v) : static_cast<u128>(v); }

// Two's complement in 256 bits (wrapping, exact while |value| < 2^255).
bool is_negative(const U256& v) { return (v.hi >> 127) != 0; }
U256 negate(const U256& v) { return sub(U256(), v); }

}  // namespace

void SumAccumulator::add_scale(int scale, int display_scale, i128 count, const U256& coef_sum) {
  auto it = std::find_if(scales_.begin(), scales_.end(),
                         [&](const ScaleSum& s) { return s.scale == scale && s.display_scale == display_scale; });
  if (it == scales_.end()) it = scales_.insert(scales_.end(), ScaleSum{scale, display_scale, 0, U256()});
  if (__builtin_add_overflow(it->count, count, &it->count)) overflowed_ = true;
  it->coef_sum = add(it->coef_sum, coef_sum);
  if (it->count == 0 && it->coef_sum.is_zero()) scales_.erase(it);
}

void SumAccumulator::add_numeric(const Numeric& v, Diff diff) {
  switch (v.special()) {
    case Numeric::Special::kNaN: nans_ += diff; return;
    case Numeric::Special::kPosInf: pos_infs_ += diff; return;
    case Numeric::Special::kNegInf: neg_infs_ += diff; return;
    case Numeric::Special::kFinite: break;
  }
  // |coef · diff| < 10^38 · 2^63 < 2^190: exact in 256 bits.
  U256 term = mul128(magnitude(v.coef()), magnitude(diff));
  add_scale(v.scale(), v.display_scale(), diff, (v.coef() < 0) != (diff < 0) ? negate(term) : term);
}

void SumAccumulator::add_float(double v, Diff diff) {
  if (std::isnan(v)) {
    nans_ += diff;
  } else if (std::isinf(v)) {
    (v > 0 ? pos_infs_ : neg_infs_) += diff;
  } else {
    exact_.add(v, diff);
  }
}

void SumAccumulator::merge(const SumAccumulator& other) {
  nans_ += other.nans_;
  pos_infs_ += other.pos_infs_;
  neg_infs_ += other.neg_infs_;
  exact_.merge(other.exact_);
  overflowed_ = overflowed_ || other.overflowed_;
  for (const ScaleSum& s : other.scales_) add_scale(s.scale, s.display_scale, s.count, s.coef_sum);
}

bool SumAccumulator::is_zero() const {
  return nans_ == 0 && pos_infs_ == 0 && neg_infs_ == 0 && exact_.is_zero() && scales_.empty();
}

Result<Numeric> SumAccumulator::numeric_sum() const {
  if (nans_ > 0 || (pos_infs_ > 0 && neg_infs_ > 0)) return Numeric::nan();
  if (pos_infs_ > 0 || neg_infs_ > 0) return Numeric::infinity(neg_infs_ > 0);
  if (overflowed_) return numeric_overflow();
  // The largest scale present (an entry whose count and sum are both zero
  // is erased, so for valid input these are the scales of current values).
  int scale = 0;
  int display_scale = 0;
  for (const ScaleSum& s : scales_) {
    scale = std::max(scale, s.scale);
    display_scale = std::max(display_scale, s.display_scale);
  }
  // Positive and negative terms apart, each brought to `scale`; a term or a
  // side past 2^256 is far past 38 digits (unless the sum cancels: a limit
  // only multiplicities near 2^63 reach).
  U256 positive;
  U256 negative;
  for (const ScaleSum& s : scales_) {
    const bool below = is_negative(s.coef_sum);
    U256 term;
    if (!mul(below ? negate(s.coef_sum) : s.coef_sum, pow10_128(scale - s.scale), &term)) return numeric_overflow();
    U256& side = below ? negative : positive;
    const U256 before = side;
    side = add(side, term);
    if (side < before) return numeric_overflow();
  }
  const bool is_negative = positive < negative;
  return make_numeric(is_negative, is_negative ? sub(negative, positive) : sub(positive, negative), scale,
                      display_scale);
}

Result<double> SumAccumulator::float_sum() const {
  if (nans_ > 0 || (pos_infs_ > 0 && neg_infs_ > 0)) return std::nan("");
  if (pos_infs_ > 0) return HUGE_VAL;
  if (neg_infs_ > 0) return -HUGE_VAL;
  const double sum = exact_.value();
  if (std::isinf(sum)) return float_overflow();
  return sum;
}

Result<Datum> SumAccumulator::sum_datum(bool numeric) const {
  if (numeric) {
    TANDEM_ASSIGN_OR_RETURN(Numeric sum, numeric_sum());
    return Datum::from_numeric(sum);
  }
  TANDEM_ASSIGN_OR_RETURN(double sum, float_sum());
  return Datum::from_float64(sum);
}

}  // namespace tandem::compute
