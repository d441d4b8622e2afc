#include "common/u256.hpp"

#include <cassert>

namespace tandem {

int U256::bit_length() const {
  auto bl = [](u128 v) {
    const uint64_t h = static_cast<uint64_t>(v >> 64);
    if (h) return 128 - __builtin_clzll(h);
    const uint64_t l = static_cast<uint64_t>(v);
    return l ? 64 - __builtin_clzll(l) : 0;
  };
  return hi ? 128 + bl(hi) : bl(lo);
}

U256 add(const U256& a, const U256& b) {
  U256 r;
  r.lo = a.lo + b.lo;
  r.hi = a.hi + b.hi + (r.lo < a.lo ? 1 : 0);
  return r;
}

U256 sub(const U256& a, const U256& b) {
  U256 r;
  r.lo = a.lo - b.lo;
  r.hi = a.hi - b.hi - (a.lo < b.lo ? 1 : 0);
  return r;
}

U256 shl1(const U256& a) {
  U256 r;
  r.hi = (a.hi << 1) | (a.lo >> 127);
  r.lo = a.lo << 1;
  return r;
}

U256 mul128(u128 a, u128 b) {
  const u128 mask = ~uint64_t(0);
  const u128 a0 = a & mask, a1 = a >> 64, b0 = b & mask, b1 = b >> 64;
  const u128 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const u128 mid = (p00 >> 64) + (p01 & mask) + (p10 & mask);
  U256 r;
  r.lo = (p00 & mask) | (mid << 64);
  r.hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
  return r;
}

bool mul(const U256& a, u128 b, U256* out) {
  U256 lo = mul128(a.lo, b);
  if (a.hi == 0) {
    *out = lo;
    return true;
  }
  U256 hi = mul128(a.hi, b);
  if (hi.hi != 0) return false;
  const u128 top = lo.hi + hi.lo;
  if (top < lo.hi) return false;
  out->lo = lo.lo;
  out->hi = top;
  return true;
}

void divmod(const U256& n, const U256& d, U256* q, U256* r) {
  assert(!d.is_zero());
  if (n.hi == 0 && d.hi == 0) {
    *q = U256(n.lo / d.lo);
    *r = U256(n.lo % d.lo);
    return;
  }
  U256 quot, rem;
  for (int i = n.bit_length() - 1; i >= 0; --i) {
    const bool carry = rem.bit(255);
    rem = shl1(rem);
    if (n.bit(i)) rem.lo |= 1;
    if (carry || d <= rem) {
      rem = sub(rem, d);
      quot.set_bit(i);
    }
  }
  *q = quot;
  *r = rem;
}

u128 pow10_128(int k) {
  assert(k >= 0 && k <= 38);
  static const auto table = [] {
    struct T { u128 v[39]; } t{};
    t.v[0] = 1;
    for (int i = 1; i <= 38; ++i) t.v[i] = t.v[i - 1] * 10;
    return t;
  }();
  return table.v[k];
}

U256 pow10_256(int k) {
  assert(k >= 0 && k <= 76);
  if (k <= 38) return U256(pow10_128(k));
  U256 out;
  mul(U256(pow10_128(38)), pow10_128(k - 38), &out);
  return out;
}

int decimal_digits(u128 v) {
  int n = 0;
  // Skip quickly past 19 digits at a time.
  while (v >= pow10_128(19)) {
    v /= pow10_128(19);
    n += 19;
  }
  uint64_t s = static_cast<uint64_t>(v);
  while (s) {
    s /= 10;
    ++n;
  }
  return n;
}

int decimal_digits(const U256& v) {
  if (v.hi == 0) return decimal_digits(v.lo);
  int lo = 39, hi = 77;  // callers keep v < 10^77
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (v < pow10_256(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

}  // namespace tandem
