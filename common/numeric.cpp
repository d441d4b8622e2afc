#include "common/numeric.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/sqlstate.hpp"
#include "common/types.hpp"

namespace tandem {
namespace {

constexpr int kMinSigDigits = 16;  // PostgreSQL's NUMERIC_MIN_SIG_DIGITS

u128 uabs(i128 v) { return v < 0 ? u128(0) - u128(v) : u128(v); }

// Multiplies by 10^k (0 <= k <= 76); false on overflow.
bool scale_up(U256* v, int k) {
  if (k > 38) {
    if (!mul(*v, pow10_128(38), v)) return false;
    k -= 38;
  }
  return mul(*v, pow10_128(k), v);
}

// mag / 10^k rounded half away from zero.
U256 round_div_pow10(const U256& mag, int k) {
  if (k <= 0) return mag;
  if (k >= 77) {
    // mag < 10^77: the quotient is below one; it rounds up from 0.5.
    U256 half;
    mul(pow10_256(76), 5, &half);
    return k == 77 && !(mag < half) ? U256(1) : U256();
  }
  const U256 d = pow10_256(k);
  U256 q, r;
  divmod(mag, d, &q, &r);
  if (!(shl1(r) < d)) q = add(q, U256(1));
  return q;
}

U256 trunc_div_pow10(const U256& mag, int k) {
  if (k <= 0) return mag;
  if (k > 76) return U256();
  U256 q, r;
  divmod(mag, pow10_256(k), &q, &r);
  return q;
}

// PostgreSQL's base-10000 weight and leading digit of |x| (finite).
void base10000_lead(const Numeric& x, int* weight, int* first) {
  const u128 c = uabs(x.coef());
  if (c == 0) {
    *weight = 0;
    *first = 0;
    return;
  }
  const int e = decimal_digits(c) - 1 - x.scale();  // exponent of leading digit
  const int w = e >= 0 ? e / 4 : -((-e + 3) / 4);
  const int sh = x.scale() + 4 * w;
  *weight = w;
  *first = static_cast<int>(sh >= 0 ? c / pow10_128(sh) : c * pow10_128(-sh));
}

int clamp_scale(int rscale) {
  if (rscale < 0) return 0;
  return rscale > Numeric::kMaxScale ? Numeric::kMaxScale : rscale;
}

void append_u128(std::string* out, u128 v) {
  char buf[40];
  int n = 0;
  do {
    buf[n++] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v);
  while (n) out->push_back(buf[--n]);
}

Status invalid_syntax(std::string_view text) {
  return Status::error(sqlstate::kInvalidTextRepresentation,
                       "invalid input syntax for type numeric: \"" + std::string(text) + "\"");
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  }
  return true;
}

// |a| / |b| rounded half away from zero to `rscale` digits (already chosen),
// further limited so that the quotient has at most 38 digits.
Result<Numeric> divide_at_scale(const Numeric& a, const Numeric& b, int rscale) {
  const u128 A = uabs(a.coef()), B = uabs(b.coef());
  const bool neg = (a.coef() < 0) != (b.coef() < 0);
  const int s1 = a.scale(), s2 = b.scale();
  // Integer part of the quotient bounds the digits left for the fraction.
  U256 num(A), den(B);
  if (s2 >= s1) {
    if (!scale_up(&num, s2 - s1)) return numeric_overflow();
  } else if (!scale_up(&den, s1 - s2)) {
    return numeric_overflow();
  }
  U256 ip, rem;
  divmod(num, den, &ip, &rem);
  const int nd = decimal_digits(ip);
  if (nd > Numeric::kMaxDigits) return numeric_overflow();
  const int wanted = clamp_scale(rscale);
  rscale = std::min(wanted, Numeric::kMaxDigits - nd);
  const int k = rscale + s2 - s1;
  num = U256(A);
  den = U256(B);
  if (k >= 0) {
    if (!scale_up(&num, k)) return numeric_overflow();
  } else if (!scale_up(&den, -k)) {
    return numeric_overflow();
  }
  U256 q, r;
  divmod(num, den, &q, &r);
  if (r.is_zero()) return make_numeric(neg, q, rscale, wanted);
  if (!(shl1(r) < den)) q = add(q, U256(1));
  return make_numeric(neg, q, rscale);
}

Result<Numeric> from_long_double(long double v, int rscale) {
  if (std::isnan(v)) return Numeric::nan();
  if (std::isinf(v)) return numeric_overflow();
  char buf[128];
  if (std::fabs(v) >= 1e39L) return numeric_overflow();
  std::snprintf(buf, sizeof(buf), "%.*Lf", clamp_scale(rscale), v);
  return Numeric::parse(buf);
}

// PostgreSQL's estimate_ln_dweight.
int estimate_ln_dweight(const Numeric& x) {
  const long double v = static_cast<long double>(x.to_double());
  if (v >= 0.9L && v <= 1.1L) {
    const long double d = std::fabs(v - 1.0L);
    return d == 0 ? 0 : static_cast<int>(std::floor(std::log10(d)));
  }
  const long double l = std::log(v);
  return l == 0 ? 0 : static_cast<int>(std::log10(std::fabs(l)));
}

int finish_rscale(int rscale, int s1, int s2) {
  rscale = std::max(rscale, s1);
  rscale = std::max(rscale, s2);
  rscale = std::max(rscale, 0);
  return std::min(rscale, 1000);
}

Status log_error(const Numeric& x) {
  return Status::error(sqlstate::kInvalidArgumentForLogarithm,
                       x.is_zero() ? "cannot take logarithm of zero"
                                   : "cannot take logarithm of a negative number");
}

}  // namespace

Status numeric_overflow() {
  return Status::error(sqlstate::kNumericValueOutOfRange, "value overflows numeric format");
}

Result<Numeric> make_numeric(bool negative, const U256& magnitude, int scale, int display_scale) {
  U256 mag = magnitude;
  if (scale < 0) {
    if (!mag.is_zero()) {
      if (-scale > 76 || !scale_up(&mag, -scale)) return numeric_overflow();
    }
    scale = 0;
  }
  bool exact = true;
  auto drop_digits = [&](int k) {
    U256 q, r;
    if (k > 76) {
      exact = exact && mag.is_zero();
      mag = round_div_pow10(mag, k);
    } else {
      divmod(mag, pow10_256(k), &q, &r);
      exact = exact && r.is_zero();
      mag = r.is_zero() ? q : round_div_pow10(mag, k);
    }
    scale -= k;
  };
  if (scale > Numeric::kMaxScale) drop_digits(scale - Numeric::kMaxScale);
  int nd = decimal_digits(mag);
  while (nd > Numeric::kMaxDigits) {
    const int drop = nd - Numeric::kMaxDigits;
    if (drop > scale) return numeric_overflow();
    drop_digits(drop);
    nd = decimal_digits(mag);
  }
  // Zeros to show past the coefficient: as many as fit go into it.
  int pad = exact ? std::min(display_scale, static_cast<int>(Numeric::kMaxScale)) - scale : 0;
  if (pad > 0) {
    const int into = std::min(pad, Numeric::kMaxDigits - nd);
    scale_up(&mag, into);
    scale += into;
    pad -= into;
  }
  const i128 c = static_cast<i128>(mag.lo);
  return Numeric::from_stored(negative ? -c : c, scale, std::max(pad, 0));
}

int Numeric::sign() const {
  switch (special_) {
    case Special::kNaN: return 0;
    case Special::kPosInf: return 1;
    case Special::kNegInf: return -1;
    case Special::kFinite: break;
  }
  return coef_ > 0 ? 1 : (coef_ < 0 ? -1 : 0);
}

Result<Numeric> Numeric::parse(std::string_view text) {
  size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  std::string_view t = text.substr(b, e - b);
  if (iequals(t, "nan")) return nan();
  bool neg = false;
  size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) {
    neg = t[i] == '-';
    ++i;
  }
  {
    std::string_view rest = t.substr(i);
    if (iequals(rest, "infinity") || iequals(rest, "inf")) return infinity(neg);
  }
  std::string digits;
  int frac_len = 0;
  bool any_digit = false, seen_point = false;
  for (; i < t.size(); ++i) {
    const char c = t[i];
    if (c >= '0' && c <= '9') {
      any_digit = true;
      if (!(digits.empty() && c == '0')) digits.push_back(c);
      if (seen_point) ++frac_len;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!any_digit) return invalid_syntax(text);
  long exp = 0;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) {
      eneg = t[i] == '-';
      ++i;
    }
    if (i >= t.size() || !std::isdigit(static_cast<unsigned char>(t[i]))) return invalid_syntax(text);
    for (; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i) {
      exp = exp * 10 + (t[i] - '0');
      if (exp > 100000) return numeric_overflow();
    }
    if (eneg) exp = -exp;
  }
  if (i != t.size()) return invalid_syntax(text);
  // Leading fractional zeros were dropped from `digits` but still count in
  // frac_len, so value = digits * 10^-scale holds.
  long scale = frac_len - exp;
  if (digits.empty()) return from_parts(0, clamp_scale(static_cast<int>(std::clamp(scale, -1L, 1000L))));
  const long int_digits = static_cast<long>(digits.size()) - scale;
  if (int_digits > kMaxDigits) return numeric_overflow();
  if (scale < 0) {
    digits.append(static_cast<size_t>(-scale), '0');
    scale = 0;
  }
  const long target = std::min<long>({scale, kMaxScale, kMaxDigits - std::max(0L, int_digits)});
  bool round_up = false, exact = true;
  if (scale > target) {
    const long keep = static_cast<long>(digits.size()) - (scale - target);
    if (keep < 0) {
      digits.clear();
      exact = false;
    } else {
      round_up = digits[static_cast<size_t>(keep)] >= '5';
      exact = digits.find_first_not_of('0', static_cast<size_t>(keep)) == std::string::npos;
      digits.resize(static_cast<size_t>(keep));
    }
  }
  u128 mag = 0;
  for (char c : digits) mag = mag * 10 + static_cast<u128>(c - '0');
  if (round_up) ++mag;
  const int display = exact ? static_cast<int>(std::min<long>(scale, kMaxScale)) : static_cast<int>(target);
  return make_numeric(neg, U256(mag), static_cast<int>(target), display);
}

void Numeric::append_to(std::string* out) const {
  switch (special_) {
    case Special::kNaN: out->append("NaN"); return;
    case Special::kPosInf: out->append("Infinity"); return;
    case Special::kNegInf: out->append("-Infinity"); return;
    case Special::kFinite: break;
  }
  if (coef_ < 0) out->push_back('-');
  std::string d;
  append_u128(&d, uabs(coef_));
  if (scale_ > 0) {
    if (d.size() < static_cast<size_t>(scale_) + 1) d.insert(0, scale_ + 1 - d.size(), '0');
    d.insert(d.size() - scale_, 1, '.');
  }
  if (pad_ > 0) {
    if (scale_ == 0) d.push_back('.');
    d.append(pad_, '0');
  }
  out->append(d);
}

std::string Numeric::to_string() const {
  std::string s;
  append_to(&s);
  return s;
}

Result<Numeric> Numeric::from_double(double v) {
  if (std::isnan(v)) return nan();
  if (std::isinf(v)) return infinity(v < 0);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.15g", v);
  return parse(buf);
}

Result<Numeric> Numeric::from_float(float v) {
  if (std::isnan(v)) return nan();
  if (std::isinf(v)) return infinity(v < 0);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", static_cast<double>(v));
  return parse(buf);
}

Result<int64_t> Numeric::to_int64() const {
  if (special_ == Special::kNaN) {
    return Status::error(sqlstate::kFeatureNotSupported, "cannot convert NaN to bigint");
  }
  if (!is_finite()) return Status::error(sqlstate::kFeatureNotSupported, "cannot convert infinity to bigint");
  const U256 q = round_div_pow10(U256(uabs(coef_)), scale_);
  const u128 lim = coef_ < 0 ? (u128(1) << 63) : (u128(1) << 63) - 1;
  if (q.hi != 0 || q.lo > lim) return Status::error(sqlstate::kNumericValueOutOfRange, "bigint out of range");
  return coef_ < 0 ? static_cast<int64_t>(-static_cast<i128>(q.lo)) : static_cast<int64_t>(q.lo);
}

Result<int32_t> Numeric::to_int32() const {
  if (!is_finite()) {
    return Status::error(sqlstate::kFeatureNotSupported,
                         is_nan() ? "cannot convert NaN to integer" : "cannot convert infinity to integer");
  }
  auto r = to_int64();
  if (!r.ok() || *r < INT32_MIN || *r > INT32_MAX) {
    return Status::error(sqlstate::kNumericValueOutOfRange, "integer out of range");
  }
  return static_cast<int32_t>(*r);
}

Result<int16_t> Numeric::to_int16() const {
  if (!is_finite()) {
    return Status::error(sqlstate::kFeatureNotSupported,
                         is_nan() ? "cannot convert NaN to smallint" : "cannot convert infinity to smallint");
  }
  auto r = to_int64();
  if (!r.ok() || *r < INT16_MIN || *r > INT16_MAX) {
    return Status::error(sqlstate::kNumericValueOutOfRange, "smallint out of range");
  }
  return static_cast<int16_t>(*r);
}

double Numeric::to_double() const {
  switch (special_) {
    case Special::kNaN: return std::nan("");
    case Special::kPosInf: return HUGE_VAL;
    case Special::kNegInf: return -HUGE_VAL;
    case Special::kFinite: break;
  }
  const u128 m = uabs(coef_);
  if (m < (u128(1) << 53) && scale_ <= 22) {
    // Both operands exact: IEEE division rounds correctly.
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const double v = static_cast<double>(static_cast<uint64_t>(m)) / kPow10[scale_];
    return coef_ < 0 ? -v : v;
  }
  return std::strtod(to_string().c_str(), nullptr);
}

Numeric Numeric::neg() const {
  switch (special_) {
    case Special::kPosInf: return infinity(true);
    case Special::kNegInf: return infinity(false);
    default: return Numeric(-coef_, scale_, special_, pad_);
  }
}

Numeric Numeric::abs() const {
  if (special_ == Special::kNegInf) return infinity(false);
  return Numeric(coef_ < 0 ? -coef_ : coef_, scale_, special_, pad_);
}

Result<Numeric> Numeric::add(const Numeric& o) const {
  if (is_nan() || o.is_nan()) return nan();
  if (!is_finite()) {
    if (!o.is_finite() && o.special_ != special_) return nan();
    return *this;
  }
  if (!o.is_finite()) return o;
  if (scale_ == o.scale_ && pad_ == 0 && o.pad_ == 0) {
    i128 c;
    const i128 lim = static_cast<i128>(pow10_128(kMaxDigits));
    if (!__builtin_add_overflow(coef_, o.coef_, &c) && c < lim && c > -lim) return from_parts(c, scale_);
  }
  const int s = std::max(scale_, o.scale_);
  U256 a(uabs(coef_)), b(uabs(o.coef_));
  scale_up(&a, s - scale_);
  scale_up(&b, s - o.scale_);
  const bool na = coef_ < 0, nb = o.coef_ < 0;
  const int ds = std::max(display_scale(), o.display_scale());
  if (na == nb) return make_numeric(na, ::tandem::add(a, b), s, ds);
  if (b < a) return make_numeric(na, ::tandem::sub(a, b), s, ds);
  return make_numeric(nb, ::tandem::sub(b, a), s, ds);
}

Result<Numeric> Numeric::sub(const Numeric& o) const { return add(o.neg()); }

Result<Numeric> Numeric::mul(const Numeric& o) const {
  if (is_nan() || o.is_nan()) return nan();
  if (!is_finite() || !o.is_finite()) {
    const int s = sign() * o.sign();
    if (s == 0) return nan();
    return infinity(s < 0);
  }
  const bool neg = (coef_ < 0) != (o.coef_ < 0);
  return make_numeric(neg && coef_ != 0 && o.coef_ != 0, mul128(uabs(coef_), uabs(o.coef_)),
                      scale_ + o.scale_, display_scale() + o.display_scale());
}

Result<Numeric> Numeric::div(const Numeric& o) const {
  if (is_nan() || o.is_nan()) return nan();
  if (!is_finite()) {
    if (!o.is_finite()) return nan();
    if (o.sign() == 0) return Status::error(sqlstate::kDivisionByZero, "division by zero");
    return infinity(sign() * o.sign() < 0);
  }
  if (!o.is_finite()) return from_parts(0, 0);
  if (o.coef_ == 0) return Status::error(sqlstate::kDivisionByZero, "division by zero");
  int w1, f1, w2, f2;
  base10000_lead(*this, &w1, &f1);
  base10000_lead(o, &w2, &f2);
  int qweight = w1 - w2;
  if (f1 <= f2) --qweight;
  const int rscale = finish_rscale(kMinSigDigits - qweight * 4, display_scale(), o.display_scale());
  return divide_at_scale(*this, o, rscale);
}

Result<Numeric> Numeric::mod(const Numeric& o) const {
  if (is_nan() || o.is_nan()) return nan();
  if (!is_finite()) return nan();
  if (!o.is_finite()) return *this;
  if (o.coef_ == 0) return Status::error(sqlstate::kDivisionByZero, "division by zero");
  const int s = std::max(scale_, o.scale_);
  U256 a(uabs(coef_)), b(uabs(o.coef_));
  scale_up(&a, s - scale_);
  scale_up(&b, s - o.scale_);
  U256 q, r;
  divmod(a, b, &q, &r);
  return make_numeric(coef_ < 0 && !r.is_zero(), r, s, std::max(display_scale(), o.display_scale()));
}

int Numeric::compare(const Numeric& o) const {
  auto rank = [](Special s) {
    switch (s) {
      case Special::kNegInf: return 0;
      case Special::kFinite: return 1;
      case Special::kPosInf: return 2;
      case Special::kNaN: return 3;
    }
    return 3;
  };
  const int ra = rank(special_), rb = rank(o.special_);
  if (ra != rb || ra != 1) return ra < rb ? -1 : (ra > rb ? 1 : 0);
  if (scale_ == o.scale_) return coef_ < o.coef_ ? -1 : (coef_ > o.coef_ ? 1 : 0);
  const int sa = sign(), sb = o.sign();
  if (sa != sb) return sa < sb ? -1 : 1;
  const int s = std::max(scale_, o.scale_);
  U256 a(uabs(coef_)), b(uabs(o.coef_));
  scale_up(&a, s - scale_);
  scale_up(&b, s - o.scale_);
  const int c = a < b ? -1 : (a == b ? 0 : 1);
  return sa < 0 ? -c : c;
}

Result<Numeric> Numeric::round(int n) const {
  if (!is_finite()) return *this;
  n = std::clamp(n, -1000, 1000);
  const bool neg = coef_ < 0;
  // Digits past the coefficient are zeros: the value is kept, shown at n.
  if (n >= scale_) return make_numeric(neg, U256(uabs(coef_)), scale_, n);
  if (n >= 0) return make_numeric(neg, round_div_pow10(U256(uabs(coef_)), scale_ - n), n);
  U256 m = round_div_pow10(U256(uabs(coef_)), scale_ - n);
  if (m.is_zero()) return from_parts(0, 0);
  if (-n > 76 || !scale_up(&m, -n)) return numeric_overflow();
  return make_numeric(neg, m, 0);
}

Numeric Numeric::trunc(int n) const {
  if (!is_finite()) return *this;
  n = std::clamp(n, -1000, 1000);
  const bool neg = coef_ < 0;
  if (n >= scale_) {
    auto r = make_numeric(neg, U256(uabs(coef_)), scale_, n);
    return r.ok() ? *r : *this;
  }
  if (n >= 0) return make_numeric(neg, trunc_div_pow10(U256(uabs(coef_)), scale_ - n), n).value();
  U256 m = trunc_div_pow10(U256(uabs(coef_)), scale_ - n);
  if (m.is_zero()) return from_parts(0, 0);
  scale_up(&m, -n);  // no larger than the input
  return make_numeric(neg, m, 0).value();
}

Result<Numeric> Numeric::ceil() const {
  if (!is_finite()) return *this;
  Numeric t = trunc(0);
  if (coef_ > 0 && t.compare(*this) != 0) return t.add(from_int(1));
  return t;
}

Result<Numeric> Numeric::floor() const {
  if (!is_finite()) return *this;
  Numeric t = trunc(0);
  if (coef_ < 0 && t.compare(*this) != 0) return t.sub(from_int(1));
  return t;
}

Numeric Numeric::normalized() const {
  if (!is_finite()) return *this;
  i128 c = coef_;
  int s = scale_;
  if (c == 0) return from_parts(0, 0);
  while (s > 0 && c % 10 == 0) {
    c /= 10;
    --s;
  }
  return from_parts(c, s);
}

Result<Numeric> Numeric::apply_typmod(int32_t typmod) const {
  if (typmod < 4 || is_nan()) return *this;
  const int p = numeric_typmod_precision(typmod);
  const int s = numeric_typmod_scale(typmod);
  if (!is_finite()) {
    return Status::error(sqlstate::kNumericValueOutOfRange, "numeric field overflow")
        .with_detail("A field with precision " + std::to_string(p) + ", scale " + std::to_string(s) +
                     " cannot hold an infinite value.");
  }
  TANDEM_ASSIGN_OR_RETURN(Numeric r, round(s));
  const int nd = r.coef_ == 0 ? 0 : decimal_digits(uabs(r.coef_)) - r.scale_;
  if (nd > p - s) {
    const int maxdigits = p - s;
    return Status::error(sqlstate::kNumericValueOutOfRange, "numeric field overflow")
        .with_detail("A field with precision " + std::to_string(p) + ", scale " + std::to_string(s) +
                     " must round to an absolute value less than " +
                     (maxdigits ? "10^" + std::to_string(maxdigits) : std::string("1")) + ".");
  }
  return r;
}

Result<Numeric> Numeric::sqrt() const {
  if (is_nan()) return *this;
  if (sign() < 0) {
    return Status::error(sqlstate::kInvalidArgumentForPowerFunction,
                         "cannot take square root of a negative number");
  }
  if (!is_finite()) return *this;
  int w, f;
  base10000_lead(*this, &w, &f);
  const int sweight = (w + 1) * 4 / 2 - 1;
  return sqrt_at(finish_rscale(kMinSigDigits - sweight, display_scale(), 0));
}

Result<Numeric> Numeric::sqrt_at_own_scale() const {
  if (is_nan()) return *this;
  if (sign() < 0) {
    return Status::error(sqlstate::kInvalidArgumentForPowerFunction,
                         "cannot take square root of a negative number");
  }
  if (!is_finite()) return *this;
  return sqrt_at(display_scale());
}

Result<Numeric> Numeric::sqrt_at(int rscale) const {
  const int int_digits = coef_ == 0 ? 0 : std::max(0, decimal_digits(uabs(coef_)) - scale_);
  rscale = std::min({rscale, static_cast<int>(kMaxScale), (74 - int_digits) / 2});
  // floor(sqrt(floor(N))) == floor(sqrt(N)), so truncating N is exact.
  const int e = 2 * (rscale + 1) - scale_;
  U256 n(uabs(coef_));
  if (e >= 0) scale_up(&n, e);
  else n = trunc_div_pow10(n, -e);
  u128 root = 0;
  for (int bit = 127; bit >= 0; --bit) {
    const u128 cand = root | (u128(1) << bit);
    if (mul128(cand, cand) <= n) root = cand;
  }
  return make_numeric(false, round_div_pow10(U256(root), 1), rscale);
}

Result<Numeric> Numeric::ln() const {
  if (is_nan()) return *this;
  if (sign() <= 0) return log_error(*this);
  if (!is_finite()) return *this;
  const int rscale = finish_rscale(kMinSigDigits - estimate_ln_dweight(*this), display_scale(), 0);
  return from_long_double(std::log(static_cast<long double>(to_double())), rscale);
}

Result<Numeric> Numeric::log(const Numeric& base) const {
  if (is_nan() || base.is_nan()) return nan();
  if (sign() <= 0) return log_error(*this);
  if (base.sign() <= 0) return log_error(base);
  if (base.compare(from_int(1)) == 0) return Status::error(sqlstate::kDivisionByZero, "division by zero");
  const int dweight = estimate_ln_dweight(*this) - estimate_ln_dweight(base);
  const int rscale = finish_rscale(kMinSigDigits - dweight, display_scale(), base.display_scale());
  const long double v = std::log(static_cast<long double>(to_double())) /
                        std::log(static_cast<long double>(base.to_double()));
  return from_long_double(v, rscale);
}

Result<Numeric> Numeric::log10() const { return log(from_int(10)); }

Result<Numeric> Numeric::exp() const {
  if (is_nan()) return *this;
  if (special_ == Special::kPosInf) return *this;
  if (special_ == Special::kNegInf) return from_int(0);
  double val = to_double() * 0.434294481903252;
  val = std::clamp(val, -2000.0, 2000.0);
  const int rscale = finish_rscale(kMinSigDigits - static_cast<int>(val), display_scale(), 0);
  return from_long_double(std::exp(static_cast<long double>(to_double())), rscale);
}

Result<Numeric> Numeric::pow(const Numeric& o) const {
  if (is_nan() || o.is_nan()) {
    if (compare(from_int(1)) == 0 || o.is_zero()) return from_int(1);
    return nan();
  }
  if (is_zero() && o.sign() < 0) {
    return Status::error(sqlstate::kInvalidArgumentForPowerFunction,
                         "zero raised to a negative power is undefined");
  }
  const Numeric oi = o.trunc(0);
  const bool int_exp = o.is_finite() && oi.compare(o) == 0;
  if (sign() < 0 && !int_exp && o.is_finite()) {
    return Status::error(sqlstate::kInvalidArgumentForPowerFunction,
                         "a negative number raised to a non-integer power yields a complex result");
  }
  if (!is_finite() || !o.is_finite()) {
    const long double v = std::pow(static_cast<long double>(to_double()), static_cast<long double>(o.to_double()));
    if (std::isinf(v)) return infinity(v < 0);
    return from_long_double(v, 0);
  }
  const double val = is_zero() ? 0.0 : o.to_double() * std::log10(std::fabs(to_double()));
  if (val > 40) return numeric_overflow();
  const int rscale =
      finish_rscale(kMinSigDigits - static_cast<int>(std::max(val, -2000.0)), display_scale(), o.display_scale());
  if (int_exp) {
    auto e = oi.to_int64();
    if (e.ok() && *e >= -1000 && *e <= 1000) {
      int64_t n = *e < 0 ? -*e : *e;
      Numeric result = from_int(1), base = *this;
      bool ok = true;
      while (n && ok) {
        if (n & 1) {
          auto r = result.mul(base);
          if (!r.ok()) { ok = false; break; }
          result = *r;
        }
        n >>= 1;
        if (n) {
          auto b = base.mul(base);
          if (!b.ok()) { ok = false; break; }
          base = *b;
        }
      }
      if (ok) {
        if (*e < 0) return divide_at_scale(from_int(1), result, rscale);
        return result.round(rscale);
      }
      if (*e < 0) return from_parts(0, clamp_scale(rscale));
      return numeric_overflow();
    }
  }
  const long double v = std::pow(static_cast<long double>(to_double()), static_cast<long double>(o.to_double()));
  return from_long_double(v, rscale);
}

}  // namespace tandem
