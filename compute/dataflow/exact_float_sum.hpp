// ExactFloatSum: the exact sum of finite doubles times integer
// multiplicities, so a float sum's terms commute and a retraction subtracts
// exactly what its insertion added, and the answer is the true sum rounded
// once (to nearest, ties to even). PostgreSQL adds doubles in input order,
// rounding at each step: for two terms the answers are the same (0.1 + 0.2
// is 0.30000000000000004 in both); for more they can differ in the last
// place, and where PostgreSQL's running sum absorbs a small term
// (1e20 + 1 - 1e20 is 0 there) this gives the true sum (1).
//
// Representation (a Kulisch accumulator): a two's complement integer in
// units of 2^-1074, the least subnormal double, so every finite double is an
// integer multiple of the unit. Only the window of 64-bit limbs in use is
// kept: values of similar magnitude need a few limbs, and the widest sum
// (2^1024 · 2^63) fits in 35.
// Threading: a plain value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tandem::compute {

class ExactFloatSum {
 public:
  // Adds v · diff. REQUIRES std::isfinite(v).
  void add(double v, std::int64_t diff);
  void merge(const ExactFloatSum& other);
  bool is_zero() const { return limbs_.empty(); }
  // The sum rounded to nearest (ties to even); ±HUGE_VAL when its magnitude
  // is beyond the largest double.
  double value() const;

 private:
  // Adds the signed value whose two's complement limbs are `term` (the
  // limbs above them copies of its sign) at limb index `at`.
  void add_limbs(std::size_t at, const std::uint64_t (&term)[3], bool negative);
  // Widens the window to cover limb indexes [lo, hi).
  void cover(std::size_t lo, std::size_t hi);
  // Drops zero limbs below and redundant sign limbs above.
  void trim();

  std::size_t base_ = 0;             // limb index of limbs_[0]
  std::vector<std::uint64_t> limbs_; // little endian; the top limb's top bit is the sign
};

}  // namespace tandem::compute
