#pragma once
// U256: a minimal unsigned 256-bit integer, the scratch width for exact
// NUMERIC arithmetic on 38-digit (< 10^38) coefficients: products and
// scale-aligned dividends stay below 10^77 < 2^256. Not a general bignum:
// only the operations numeric.cpp needs. Threading: plain value.

#include <cstdint>

namespace tandem {

using u128 = unsigned __int128;
using i128 = __int128;

struct U256 {
  u128 hi = 0;
  u128 lo = 0;

  U256() = default;
  U256(u128 v) : hi(0), lo(v) {}  // NOLINT: implicit widening is intended

  bool fits128() const { return hi == 0; }
  bool is_zero() const { return hi == 0 && lo == 0; }
  bool bit(int i) const { return i >= 128 ? ((hi >> (i - 128)) & 1) : ((lo >> i) & 1); }
  void set_bit(int i) {
    if (i >= 128) hi |= u128(1) << (i - 128);
    else lo |= u128(1) << i;
  }
  int bit_length() const;

  friend bool operator==(const U256& a, const U256& b) { return a.hi == b.hi && a.lo == b.lo; }
  friend bool operator<(const U256& a, const U256& b) { return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo; }
  friend bool operator<=(const U256& a, const U256& b) { return !(b < a); }
};

// Wrapping arithmetic (mod 2^256); callers keep values in range.
U256 add(const U256& a, const U256& b);
U256 sub(const U256& a, const U256& b);
U256 shl1(const U256& a);
// Full 128x128 -> 256 product.
U256 mul128(u128 a, u128 b);
// a * b; returns false on overflow past 2^256.
bool mul(const U256& a, u128 b, U256* out);
// REQUIRES: d != 0.
void divmod(const U256& n, const U256& d, U256* q, U256* r);
// 10^k for 0 <= k <= 76.
U256 pow10_256(int k);
u128 pow10_128(int k);  // 0 <= k <= 38
// Number of decimal digits (0 for zero).
int decimal_digits(const U256& v);
int decimal_digits(u128 v);

}  // namespace tandem
