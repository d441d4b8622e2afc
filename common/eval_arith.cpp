// Comparisons, integer/float/numeric/interval arithmetic and math functions
// with PostgreSQL's overflow and domain errors.
#include <cmath>

#include "common/datetime.hpp"
#include "common/eval_internal.hpp"
#include "common/sqlstate.hpp"

namespace tandem::detail {
namespace {

Status out_of_range(const char* what) { return Status::error(sqlstate::kNumericValueOutOfRange, what); }
Status div_zero() { return Status::error(sqlstate::kDivisionByZero, "division by zero"); }
Status float_overflow() { return out_of_range("value out of range: overflow"); }
Status float_underflow() { return out_of_range("value out of range: underflow"); }
Status interval_range() { return Status::error(sqlstate::kDatetimeFieldOverflow, "interval out of range"); }

template <class T>
Result<Datum> wrap_int(int64_t v);
template <>
Result<Datum> wrap_int<int16_t>(int64_t v) { return Datum::from_int16(static_cast<int16_t>(v)); }
template <>
Result<Datum> wrap_int<int32_t>(int64_t v) { return Datum::from_int32(static_cast<int32_t>(v)); }
template <>
Result<Datum> wrap_int<int64_t>(int64_t v) { return Datum::from_int64(v); }

template <class T>
const char* int_range_msg() {
  if constexpr (sizeof(T) == 2) return "smallint out of range";
  else if constexpr (sizeof(T) == 4) return "integer out of range";
  else return "bigint out of range";
}

enum class Op { kAdd, kSub, kMul, kDiv, kMod };

template <class T>
Result<Datum> int_arith(Op op, int64_t x, int64_t y) {
  const T a = static_cast<T>(x), b = static_cast<T>(y);
  T r;
  switch (op) {
    case Op::kAdd:
      if (__builtin_add_overflow(a, b, &r)) return out_of_range(int_range_msg<T>());
      break;
    case Op::kSub:
      if (__builtin_sub_overflow(a, b, &r)) return out_of_range(int_range_msg<T>());
      break;
    case Op::kMul:
      if (__builtin_mul_overflow(a, b, &r)) return out_of_range(int_range_msg<T>());
      break;
    case Op::kDiv:
      if (b == 0) return div_zero();
      if (b == -1) {
        if (__builtin_sub_overflow(T(0), a, &r)) return out_of_range(int_range_msg<T>());
      } else {
        r = static_cast<T>(a / b);
      }
      break;
    case Op::kMod:
      if (b == 0) return div_zero();
      r = b == -1 ? T(0) : static_cast<T>(a % b);
      break;
  }
  return wrap_int<T>(r);
}

Result<double> float_arith(Op op, double a, double b) {
  double r = 0;
  switch (op) {
    case Op::kAdd: r = a + b; break;
    case Op::kSub: r = a - b; break;
    case Op::kMul:
      r = a * b;
      if (r == 0 && a != 0 && b != 0) return float_underflow();
      break;
    case Op::kDiv:
      if (b == 0) return div_zero();
      r = a / b;
      if (r == 0 && a != 0 && !std::isinf(b)) return float_underflow();
      break;
    case Op::kMod: break;
  }
  if (std::isinf(r) && !std::isinf(a) && !std::isinf(b)) return float_overflow();
  return r;
}

Result<Datum> float4_result(Result<double> r, float a, float b) {
  if (!r.ok()) return r.status();
  const float f = static_cast<float>(*r);
  if (std::isinf(f) && !std::isinf(a) && !std::isinf(b)) return float_overflow();
  // A nonzero result too small for real (PostgreSQL computes in single
  // precision and reports the zero it gets).
  if (f == 0 && *r != 0) return float_underflow();
  return Datum::from_float32(f);
}

Result<Datum> numeric_result(Result<Numeric> r) {
  if (!r.ok()) return r.status();
  return Datum::from_numeric(*r);
}

Result<Interval> interval_add(const Interval& a, const Interval& b, bool sub) {
  Interval r;
  bool o = false;
  if (sub) {
    o |= __builtin_sub_overflow(a.months, b.months, &r.months);
    o |= __builtin_sub_overflow(a.days, b.days, &r.days);
    o |= __builtin_sub_overflow(a.micros, b.micros, &r.micros);
  } else {
    o |= __builtin_add_overflow(a.months, b.months, &r.months);
    o |= __builtin_add_overflow(a.days, b.days, &r.days);
    o |= __builtin_add_overflow(a.micros, b.micros, &r.micros);
  }
  if (o) return interval_range();
  return r;
}

// PostgreSQL's interval_mul: fractional months cascade to days (30 per
// month) and fractional days to time.
Result<Datum> interval_mul(const Interval& iv, double f) {
  if (std::isnan(f)) return interval_range();
  const double m = iv.months * f;
  if (!(m >= INT32_MIN && m <= INT32_MAX)) return interval_range();
  const double mi = std::trunc(m);
  const double d = iv.days * f + (m - mi) * 30;
  if (!(d >= INT32_MIN && d <= INT32_MAX)) return interval_range();
  const double di = std::trunc(d);
  const double t = std::nearbyint(static_cast<double>(iv.micros) * f + (d - di) * kUsecsPerDay);
  if (!(t >= -9.2e18 && t <= 9.2e18)) return interval_range();
  return Datum::from_interval(Interval{static_cast<int32_t>(mi), static_cast<int32_t>(di), static_cast<int64_t>(t)});
}

// An integer result in the width of the operator's own type (a bitwise
// operator never overflows: int2's results are cut back to 16 bits).
Result<Datum> same_width(BinaryFunc f, int64_t v) {
  switch (f) {
    case BinaryFunc::kBitAndInt2:
    case BinaryFunc::kBitOrInt2:
    case BinaryFunc::kBitXorInt2:
    case BinaryFunc::kShiftLeftInt2:
    case BinaryFunc::kShiftRightInt2: return Datum::from_int16(static_cast<int16_t>(v));
    case BinaryFunc::kBitAndInt8:
    case BinaryFunc::kBitOrInt8:
    case BinaryFunc::kBitXorInt8: return Datum::from_int64(v);
    default: return Datum::from_int32(static_cast<int32_t>(v));
  }
}

Result<Datum> float_pow(double a, double b) {
  if (a == 0 && b < 0) {
    return Status::error(sqlstate::kInvalidArgumentForPowerFunction, "zero raised to a negative power is undefined");
  }
  if (a < 0 && std::floor(b) != b && std::isfinite(b)) {
    return Status::error(sqlstate::kInvalidArgumentForPowerFunction,
                         "a negative number raised to a non-integer power yields a complex result");
  }
  const double r = std::pow(a, b);
  if (std::isinf(r) && std::isfinite(a) && std::isfinite(b)) return float_overflow();
  if (r == 0 && a != 0 && std::isfinite(a) && std::isfinite(b)) return float_underflow();
  return Datum::from_float64(r);
}

}  // namespace

Result<Datum> eval_binary_strict(BinaryFunc f, const Datum& a, const Datum& b, const ColumnType& out,
                                 EvalContext& ctx) {
  (void)out;
  switch (f) {
    case BinaryFunc::kEq: return Datum::from_bool(compare_datums(a, b) == 0);
    case BinaryFunc::kNotEq: return Datum::from_bool(compare_datums(a, b) != 0);
    case BinaryFunc::kLt: return Datum::from_bool(compare_datums(a, b) < 0);
    case BinaryFunc::kLte: return Datum::from_bool(compare_datums(a, b) <= 0);
    case BinaryFunc::kGt: return Datum::from_bool(compare_datums(a, b) > 0);
    case BinaryFunc::kGte: return Datum::from_bool(compare_datums(a, b) >= 0);

    case BinaryFunc::kAddInt2: return int_arith<int16_t>(Op::kAdd, a.as_integer(), b.as_integer());
    case BinaryFunc::kSubInt2: return int_arith<int16_t>(Op::kSub, a.as_integer(), b.as_integer());
    case BinaryFunc::kMulInt2: return int_arith<int16_t>(Op::kMul, a.as_integer(), b.as_integer());
    case BinaryFunc::kDivInt2: return int_arith<int16_t>(Op::kDiv, a.as_integer(), b.as_integer());
    case BinaryFunc::kModInt2: return int_arith<int16_t>(Op::kMod, a.as_integer(), b.as_integer());
    case BinaryFunc::kAddInt4: return int_arith<int32_t>(Op::kAdd, a.as_integer(), b.as_integer());
    case BinaryFunc::kSubInt4: return int_arith<int32_t>(Op::kSub, a.as_integer(), b.as_integer());
    case BinaryFunc::kMulInt4: return int_arith<int32_t>(Op::kMul, a.as_integer(), b.as_integer());
    case BinaryFunc::kDivInt4: return int_arith<int32_t>(Op::kDiv, a.as_integer(), b.as_integer());
    case BinaryFunc::kModInt4: return int_arith<int32_t>(Op::kMod, a.as_integer(), b.as_integer());
    case BinaryFunc::kAddInt8: return int_arith<int64_t>(Op::kAdd, a.as_integer(), b.as_integer());
    case BinaryFunc::kSubInt8: return int_arith<int64_t>(Op::kSub, a.as_integer(), b.as_integer());
    case BinaryFunc::kMulInt8: return int_arith<int64_t>(Op::kMul, a.as_integer(), b.as_integer());
    case BinaryFunc::kDivInt8: return int_arith<int64_t>(Op::kDiv, a.as_integer(), b.as_integer());
    case BinaryFunc::kModInt8: return int_arith<int64_t>(Op::kMod, a.as_integer(), b.as_integer());

    case BinaryFunc::kBitAndInt2:
    case BinaryFunc::kBitAndInt4:
    case BinaryFunc::kBitAndInt8: return same_width(f, a.as_integer() & b.as_integer());
    case BinaryFunc::kBitOrInt2:
    case BinaryFunc::kBitOrInt4:
    case BinaryFunc::kBitOrInt8: return same_width(f, a.as_integer() | b.as_integer());
    case BinaryFunc::kBitXorInt2:
    case BinaryFunc::kBitXorInt4:
    case BinaryFunc::kBitXorInt8: return same_width(f, a.as_integer() ^ b.as_integer());
    // PostgreSQL shifts in C on the operand promoted to int (int8 for
    // bigint), where the hardware takes the count modulo the width (32 or
    // 64): 1 << 33 is 2, 1 << -1 is -2147483648, and an int2's result is
    // cut back to 16 bits (1::int2 << 17 is 0).
    case BinaryFunc::kShiftLeftInt2:
    case BinaryFunc::kShiftLeftInt4: {
      const auto v = static_cast<uint32_t>(static_cast<int32_t>(a.as_integer())) << (b.as_integer() & 31);
      return same_width(f, static_cast<int32_t>(v));
    }
    case BinaryFunc::kShiftLeftInt8:
      return Datum::from_int64(static_cast<int64_t>(static_cast<uint64_t>(a.as_integer()) << (b.as_integer() & 63)));
    case BinaryFunc::kShiftRightInt2:
    case BinaryFunc::kShiftRightInt4:
      return same_width(f, static_cast<int32_t>(a.as_integer()) >> (b.as_integer() & 31));
    case BinaryFunc::kShiftRightInt8: return Datum::from_int64(a.as_integer() >> (b.as_integer() & 63));

    case BinaryFunc::kAddFloat4: return float4_result(float_arith(Op::kAdd, a.as_float32(), b.as_float32()), a.as_float32(), b.as_float32());
    case BinaryFunc::kSubFloat4: return float4_result(float_arith(Op::kSub, a.as_float32(), b.as_float32()), a.as_float32(), b.as_float32());
    case BinaryFunc::kMulFloat4: return float4_result(float_arith(Op::kMul, a.as_float32(), b.as_float32()), a.as_float32(), b.as_float32());
    case BinaryFunc::kDivFloat4: return float4_result(float_arith(Op::kDiv, a.as_float32(), b.as_float32()), a.as_float32(), b.as_float32());
    case BinaryFunc::kAddFloat8:
    case BinaryFunc::kSubFloat8:
    case BinaryFunc::kMulFloat8:
    case BinaryFunc::kDivFloat8: {
      const Op op = f == BinaryFunc::kAddFloat8 ? Op::kAdd : f == BinaryFunc::kSubFloat8 ? Op::kSub
                    : f == BinaryFunc::kMulFloat8 ? Op::kMul : Op::kDiv;
      TANDEM_ASSIGN_OR_RETURN(double r, float_arith(op, a.as_float64(), b.as_float64()));
      return Datum::from_float64(r);
    }

    case BinaryFunc::kAddNumeric: return numeric_result(a.as_numeric().add(b.as_numeric()));
    case BinaryFunc::kSubNumeric: return numeric_result(a.as_numeric().sub(b.as_numeric()));
    case BinaryFunc::kMulNumeric: return numeric_result(a.as_numeric().mul(b.as_numeric()));
    case BinaryFunc::kDivNumeric: return numeric_result(a.as_numeric().div(b.as_numeric()));
    case BinaryFunc::kModNumeric: return numeric_result(a.as_numeric().mod(b.as_numeric()));
    case BinaryFunc::kPowNumeric: return numeric_result(a.as_numeric().pow(b.as_numeric()));
    case BinaryFunc::kPowFloat8: return float_pow(a.as_float64(), b.as_float64());
    case BinaryFunc::kRoundNumericScale: return numeric_result(a.as_numeric().round(b.as_int32()));
    case BinaryFunc::kTruncNumericScale: return Datum::from_numeric(a.as_numeric().trunc(b.as_int32()));
    case BinaryFunc::kLogNumeric: return numeric_result(b.as_numeric().log(a.as_numeric()));

    case BinaryFunc::kAddInterval: {
      TANDEM_ASSIGN_OR_RETURN(Interval r, interval_add(a.as_interval(), b.as_interval(), false));
      return Datum::from_interval(r);
    }
    case BinaryFunc::kSubInterval: {
      TANDEM_ASSIGN_OR_RETURN(Interval r, interval_add(a.as_interval(), b.as_interval(), true));
      return Datum::from_interval(r);
    }
    case BinaryFunc::kMulIntervalFloat8: return interval_mul(a.as_interval(), b.as_float64());
    case BinaryFunc::kDivIntervalFloat8:
      if (b.as_float64() == 0) return div_zero();
      return interval_mul(a.as_interval(), 1.0 / b.as_float64());

    case BinaryFunc::kTextConcat:
    case BinaryFunc::kLike:
    case BinaryFunc::kILike:
    case BinaryFunc::kRegexMatch:
    case BinaryFunc::kRegexMatchCI:
    case BinaryFunc::kFormatType:
    case BinaryFunc::kStrpos:
    case BinaryFunc::kLeft:
    case BinaryFunc::kRight:
    case BinaryFunc::kRepeat:
    case BinaryFunc::kStartsWith:
    case BinaryFunc::kBtrim:
    case BinaryFunc::kLtrim:
    case BinaryFunc::kRtrim:
      return eval_string_binary(f, a, b, ctx);
    default:
      return eval_datetime_binary(f, a, b, ctx);
  }
}

Result<Datum> eval_math_unary(UnaryFunc f, const Datum& a, EvalContext& ctx) {
  (void)ctx;
  auto f8 = [](double v) -> Result<Datum> { return Datum::from_float64(v); };
  switch (f) {
    case UnaryFunc::kNegInt2:
      if (a.as_int16() == INT16_MIN) return out_of_range("smallint out of range");
      return Datum::from_int16(static_cast<int16_t>(-a.as_int16()));
    case UnaryFunc::kNegInt4:
      if (a.as_int32() == INT32_MIN) return out_of_range("integer out of range");
      return Datum::from_int32(-a.as_int32());
    case UnaryFunc::kNegInt8:
      if (a.as_int64() == INT64_MIN) return out_of_range("bigint out of range");
      return Datum::from_int64(-a.as_int64());
    case UnaryFunc::kAbsInt2:
      if (a.as_int16() == INT16_MIN) return out_of_range("smallint out of range");
      return Datum::from_int16(static_cast<int16_t>(std::abs(a.as_int16())));
    case UnaryFunc::kAbsInt4:
      if (a.as_int32() == INT32_MIN) return out_of_range("integer out of range");
      return Datum::from_int32(std::abs(a.as_int32()));
    case UnaryFunc::kAbsInt8:
      if (a.as_int64() == INT64_MIN) return out_of_range("bigint out of range");
      return Datum::from_int64(std::abs(a.as_int64()));
    case UnaryFunc::kBitNotInt2: return Datum::from_int16(static_cast<int16_t>(~a.as_int16()));
    case UnaryFunc::kBitNotInt4: return Datum::from_int32(~a.as_int32());
    case UnaryFunc::kBitNotInt8: return Datum::from_int64(~a.as_int64());
    case UnaryFunc::kSqrtNumericOwnScale: return numeric_result(a.as_numeric().sqrt_at_own_scale());
    case UnaryFunc::kNegFloat4: return Datum::from_float32(-a.as_float32());
    case UnaryFunc::kAbsFloat4: return Datum::from_float32(std::fabs(a.as_float32()));
    case UnaryFunc::kNegFloat8: return f8(-a.as_float64());
    case UnaryFunc::kAbsFloat8: return f8(std::fabs(a.as_float64()));
    case UnaryFunc::kNegNumeric: return Datum::from_numeric(a.as_numeric().neg());
    case UnaryFunc::kAbsNumeric: return Datum::from_numeric(a.as_numeric().abs());
    case UnaryFunc::kNegInterval: {
      const Interval iv = a.as_interval();
      if (iv.months == INT32_MIN || iv.days == INT32_MIN || iv.micros == INT64_MIN) return interval_range();
      return Datum::from_interval(Interval{-iv.months, -iv.days, -iv.micros});
    }
    case UnaryFunc::kCeilFloat8: return f8(std::ceil(a.as_float64()));
    case UnaryFunc::kFloorFloat8: return f8(std::floor(a.as_float64()));
    case UnaryFunc::kRoundFloat8: return f8(std::nearbyint(a.as_float64()));
    case UnaryFunc::kTruncFloat8: return f8(std::trunc(a.as_float64()));
    case UnaryFunc::kCeilNumeric: return numeric_result(a.as_numeric().ceil());
    case UnaryFunc::kFloorNumeric: return numeric_result(a.as_numeric().floor());
    case UnaryFunc::kRoundNumeric: return numeric_result(a.as_numeric().round(0));
    case UnaryFunc::kTruncNumeric: return Datum::from_numeric(a.as_numeric().trunc(0));
    case UnaryFunc::kSqrtFloat8:
      if (a.as_float64() < 0) {
        return Status::error(sqlstate::kInvalidArgumentForPowerFunction,
                             "cannot take square root of a negative number");
      }
      return f8(std::sqrt(a.as_float64()));
    case UnaryFunc::kSqrtNumeric: return numeric_result(a.as_numeric().sqrt());
    case UnaryFunc::kCbrtFloat8: return f8(std::cbrt(a.as_float64()));
    case UnaryFunc::kExpFloat8: {
      const double r = std::exp(a.as_float64());
      if (std::isinf(r) && std::isfinite(a.as_float64())) return float_overflow();
      if (r == 0 && std::isfinite(a.as_float64())) return float_underflow();
      return f8(r);
    }
    case UnaryFunc::kExpNumeric: return numeric_result(a.as_numeric().exp());
    case UnaryFunc::kLnFloat8:
    case UnaryFunc::kLog10Float8: {
      const double v = a.as_float64();
      if (v == 0) return Status::error(sqlstate::kInvalidArgumentForLogarithm, "cannot take logarithm of zero");
      if (v < 0) {
        return Status::error(sqlstate::kInvalidArgumentForLogarithm, "cannot take logarithm of a negative number");
      }
      return f8(f == UnaryFunc::kLnFloat8 ? std::log(v) : std::log10(v));
    }
    case UnaryFunc::kLnNumeric: return numeric_result(a.as_numeric().ln());
    case UnaryFunc::kLog10Numeric: return numeric_result(a.as_numeric().log10());
    case UnaryFunc::kSignFloat8: {
      const double v = a.as_float64();
      return f8(v > 0 ? 1.0 : (v < 0 ? -1.0 : (std::isnan(v) ? v : 0.0)));
    }
    case UnaryFunc::kSignNumeric: {
      const Numeric n = a.as_numeric();
      if (n.is_nan()) return a;
      return Datum::from_numeric(Numeric::from_int(n.sign()));
    }
    default:
      return Status::error(sqlstate::kInternalError, "unexpected unary function " + std::string(func_id(f)));
  }
}

}  // namespace tandem::detail
