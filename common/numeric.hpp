#pragma once
// Numeric: PostgreSQL-compatible NUMERIC with up to 38 significant digits.
//
// A finite value is coef * 10^-scale with |coef| < 10^38 and
// 0 <= scale <= kMaxScale. `scale` is PostgreSQL's display scale (dscale):
// 1.50 has coef 150 and scale 2 and prints "1.50"; it compares equal to 1.5.
// NaN and +/-Infinity are supported as in PostgreSQL 15 (NaN sorts above
// everything and equals itself).
//
// Differences from PostgreSQL (whose NUMERIC has ~131072 digits), chosen like
// Materialize's 39-digit numeric: a result whose integer part needs more than
// 38 digits is an error (22003 "value overflows numeric format"); a result
// that needs more than 38 significant digits keeps fewer fractional digits
// (rounded half away from zero); scale is capped at 38. A value that is exact
// in 38 digits keeps PostgreSQL's display scale even where showing it takes
// more digits (2500.0000000000000000 squared is 6250000 followed by 32 zero
// fractional digits): `pad` counts the zeros shown past the coefficient.
//
// Result scales follow PostgreSQL: + - : max of scales; * : sum of scales;
// / : select_div_scale (at least 16 significant digits); % : max of scales.
// Functions that PostgreSQL computes with arbitrary precision (ln, exp,
// non-integer powers) are computed in long double and rounded to
// PostgreSQL's result scale, so their last digits may differ.
//
// Threading: a plain trivially-copyable value.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.hpp"
#include "common/u256.hpp"

namespace tandem {

class Numeric {
 public:
  static constexpr int kMaxDigits = 38;
  static constexpr int kMaxScale = 38;
  enum class Special : uint8_t { kFinite = 0, kNaN = 1, kPosInf = 2, kNegInf = 3 };

  constexpr Numeric() = default;
  // REQUIRES: |coef| < 10^38, 0 <= scale <= kMaxScale.
  static Numeric from_parts(i128 coef, int scale) { return Numeric(coef, scale, Special::kFinite); }
  // The parts of coef(), scale() and pad() of a finite value, as stored.
  static Numeric from_stored(i128 coef, int scale, int pad) {
    Numeric n(coef, scale, Special::kFinite);
    n.pad_ = static_cast<uint8_t>(pad);
    return n;
  }
  static Numeric nan() { return Numeric(0, 0, Special::kNaN); }
  static Numeric infinity(bool negative) {
    return Numeric(0, 0, negative ? Special::kNegInf : Special::kPosInf);
  }
  static Numeric from_int(int64_t v) { return from_parts(v, 0); }
  // PostgreSQL's float8_numeric: the value printed with 15 significant digits
  // (float4: 6) and parsed back.
  static Result<Numeric> from_double(double v);
  static Result<Numeric> from_float(float v);
  // numeric_in: leading/trailing whitespace, sign, digits, '.', exponent,
  // NaN/Infinity/inf in any case. 22P02 on bad syntax.
  static Result<Numeric> parse(std::string_view text);

  // The value is coef() * 10^-scale(); it prints with display_scale()
  // fractional digits, the last pad() of them zeros beyond the coefficient.
  i128 coef() const { return coef_; }
  int scale() const { return scale_; }
  int pad() const { return pad_; }
  int display_scale() const { return scale_ + pad_; }
  Special special() const { return special_; }
  bool is_finite() const { return special_ == Special::kFinite; }
  bool is_nan() const { return special_ == Special::kNaN; }
  bool is_zero() const { return is_finite() && coef_ == 0; }
  int sign() const;  // -1, 0, 1; NaN -> 0

  // numeric_out.
  std::string to_string() const;
  void append_to(std::string* out) const;

  // Conversions with PostgreSQL's rounding (half away from zero) and errors
  // ("smallint out of range", "integer out of range", "bigint out of range").
  Result<int64_t> to_int64() const;
  Result<int32_t> to_int32() const;
  Result<int16_t> to_int16() const;
  double to_double() const;

  // Arithmetic. Errors: 22003 overflow, 22012 division by zero.
  Result<Numeric> add(const Numeric& o) const;
  Result<Numeric> sub(const Numeric& o) const;
  Result<Numeric> mul(const Numeric& o) const;
  Result<Numeric> div(const Numeric& o) const;
  Result<Numeric> mod(const Numeric& o) const;
  Result<Numeric> pow(const Numeric& o) const;
  Numeric neg() const;
  Numeric abs() const;
  Result<Numeric> sqrt() const;
  // The square root rounded to this value's own display scale (as
  // PostgreSQL's stddev takes the root of its variance).
  Result<Numeric> sqrt_at_own_scale() const;
  Result<Numeric> ln() const;
  Result<Numeric> log10() const;
  Result<Numeric> log(const Numeric& base) const;  // log(base, this)
  Result<Numeric> exp() const;

  // Total order of PostgreSQL's numeric_cmp: by value, NaN last.
  int compare(const Numeric& o) const;
  bool operator==(const Numeric& o) const { return compare(o) == 0; }

  // round(x, n) / trunc(x, n): n may be negative; result scale max(n, 0).
  Result<Numeric> round(int n) const;
  Numeric trunc(int n) const;
  Result<Numeric> ceil() const;
  Result<Numeric> floor() const;
  // Smallest scale that represents the same value (1.500 -> 1.5), no pad.
  Numeric normalized() const;
  // numeric(p,s) coercion: round to s, then 22003 "numeric field overflow"
  // unless |value| < 10^(p-s). typmod -1: unchanged.
  Result<Numeric> apply_typmod(int32_t typmod) const;
  // The value as a numeric(p,s) column shows it: at scale s (a value that
  // lost its display scale, as a grouping or join key does, regains it).
  // Unchanged for typmod -1 or a value that does not fit.
  Numeric at_typmod_scale(int32_t typmod) const {
    if (typmod < 4) return *this;
    auto r = apply_typmod(typmod);
    return r.ok() ? *r : *this;
  }

 private:
  // The square root of a finite, non-negative value at `rscale` digits.
  Result<Numeric> sqrt_at(int rscale) const;

  constexpr Numeric(i128 coef, int scale, Special sp, int pad = 0)
      : coef_(coef), scale_(static_cast<int16_t>(scale)), special_(sp), pad_(static_cast<uint8_t>(pad)) {}

  i128 coef_ = 0;
  int16_t scale_ = 0;
  Special special_ = Special::kFinite;
  uint8_t pad_ = 0;  // scale_ + pad_ <= kMaxScale
};

// Builds a Numeric from sign, magnitude and scale, rounding away fractional
// digits past 38 significant digits or kMaxScale; 22003 if the integer part
// does not fit. It shows `display_scale` fractional digits (at least `scale`,
// at most kMaxScale) when no digit was rounded away, else as many as it
// keeps. Exposed for the row codec and binary I/O.
Result<Numeric> make_numeric(bool negative, const U256& magnitude, int scale, int display_scale);
inline Result<Numeric> make_numeric(bool negative, const U256& magnitude, int scale) {
  return make_numeric(negative, magnitude, scale, scale);
}
Status numeric_overflow();

}  // namespace tandem
