#include "compute/dataflow/exact_float_sum.hpp"

#include <cmath>

namespace tandem::compute {
namespace {

using u128 = unsigned __int128;
constexpr int kUnitExponent = -1074;  // the unit: 2^-1074
constexpr std::uint64_t kOnes = ~std::uint64_t{0};

bool negative_limb(std::uint64_t limb) { return (limb >> 63) != 0; }

}  // namespace

void ExactFloatSum::cover(std::size_t lo, std::size_t hi) {
  if (limbs_.empty()) {
    base_ = lo;
    limbs_.assign(hi - lo, 0);
    return;
  }
  if (lo < base_) {
    limbs_.insert(limbs_.begin(), base_ - lo, 0);
    base_ = lo;
  }
  const std::uint64_t sign = negative_limb(limbs_.back()) ? kOnes : 0;
  if (hi > base_ + limbs_.size()) limbs_.resize(hi - base_, sign);
}

void ExactFloatSum::trim() {
  // A top limb that only repeats the sign of the one below it is redundant.
  while (limbs_.size() >= 2) {
    const std::uint64_t top = limbs_.back();
    const bool below_negative = negative_limb(limbs_[limbs_.size() - 2]);
    if (top != (below_negative ? kOnes : 0)) break;
    limbs_.pop_back();
  }
  if (limbs_.size() == 1 && limbs_[0] == 0) limbs_.clear();
  std::size_t zeros = 0;
  while (zeros + 1 < limbs_.size() && limbs_[zeros] == 0) ++zeros;
  if (zeros > 0) {
    limbs_.erase(limbs_.begin(), limbs_.begin() + static_cast<std::ptrdiff_t>(zeros));
    base_ += zeros;
  }
}

void ExactFloatSum::add_limbs(std::size_t at, const std::uint64_t (&term)[3], bool negative) {
  // Two sign limbs above the term and above the current top: the true sum
  // of two values that fit below them fits with one to spare.
  std::size_t top = at + 4;
  if (!limbs_.empty()) top = std::max(top, base_ + limbs_.size() + 1);
  cover(at, top);
  const std::uint64_t extension = negative ? kOnes : 0;
  std::uint64_t carry = 0;
  for (std::size_t i = at - base_; i < limbs_.size(); ++i) {
    const std::size_t k = i - (at - base_);
    const std::uint64_t t = k < 3 ? term[k] : extension;
    const u128 sum = static_cast<u128>(limbs_[i]) + t + carry;
    limbs_[i] = static_cast<std::uint64_t>(sum);
    carry = static_cast<std::uint64_t>(sum >> 64);
  }
  trim();
}

void ExactFloatSum::add(double v, std::int64_t diff) {
  if (v == 0 || diff == 0) return;
  // v = m · 2^e with m an integer below 2^53.
  int exponent = 0;
  const double fraction = std::frexp(std::fabs(v), &exponent);
  std::uint64_t m = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  int bit = exponent - 53 - kUnitExponent;  // the position of m's bit 0 in units
  if (bit < 0) {
    m >>= -bit;  // a subnormal: exact, v is a multiple of the unit
    bit = 0;
  }
  const bool negative = (v < 0) != (diff < 0);
  const std::uint64_t count = diff < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(diff) : static_cast<std::uint64_t>(diff);
  const u128 product = static_cast<u128>(m) * count;  // < 2^116
  const std::uint64_t x0 = static_cast<std::uint64_t>(product);
  const std::uint64_t x1 = static_cast<std::uint64_t>(product >> 64);
  const int shift = bit % 64;
  std::uint64_t term[3] = {x0, x1, 0};
  if (shift != 0) {
    term[0] = x0 << shift;
    term[1] = (x1 << shift) | (x0 >> (64 - shift));
    term[2] = x1 >> (64 - shift);
  }
  if (negative) {  // two's complement of the 3-limb magnitude (below 2^180)
    std::uint64_t carry = 1;
    for (std::uint64_t& limb : term) {
      const u128 sum = static_cast<u128>(~limb) + carry;
      limb = static_cast<std::uint64_t>(sum);
      carry = static_cast<std::uint64_t>(sum >> 64);
    }
  }
  add_limbs(static_cast<std::size_t>(bit / 64), term, negative);
}

void ExactFloatSum::merge(const ExactFloatSum& other) {
  // Limb by limb, each as a one-limb term with the other's sign above it
  // only at its top: add the other's value as unsigned limbs, then its sign.
  if (other.limbs_.empty()) return;
  const bool negative = negative_limb(other.limbs_.back());
  std::size_t top = other.base_ + other.limbs_.size() + 1;
  if (!limbs_.empty()) top = std::max(top, base_ + limbs_.size() + 1);
  cover(other.base_, top);
  const std::uint64_t extension = negative ? kOnes : 0;
  std::uint64_t carry = 0;
  for (std::size_t i = other.base_ - base_; i < limbs_.size(); ++i) {
    const std::size_t k = i - (other.base_ - base_);
    const std::uint64_t t = k < other.limbs_.size() ? other.limbs_[k] : extension;
    const u128 sum = static_cast<u128>(limbs_[i]) + t + carry;
    limbs_[i] = static_cast<std::uint64_t>(sum);
    carry = static_cast<std::uint64_t>(sum >> 64);
  }
  trim();
}

double ExactFloatSum::value() const {
  if (limbs_.empty()) return 0.0;
  const bool negative = negative_limb(limbs_.back());
  std::vector<std::uint64_t> magnitude = limbs_;
  if (negative) {
    std::uint64_t carry = 1;
    for (std::uint64_t& limb : magnitude) {
      const u128 sum = static_cast<u128>(~limb) + carry;
      limb = static_cast<std::uint64_t>(sum);
      carry = static_cast<std::uint64_t>(sum >> 64);
    }
  }
  std::size_t h = magnitude.size();
  while (h > 0 && magnitude[h - 1] == 0) --h;
  if (h == 0) return 0.0;
  --h;
  // The magnitude's highest set bit, in units.
  const std::size_t top_bit = (base_ + h) * 64 + 63 - static_cast<std::size_t>(__builtin_clzll(magnitude[h]));
  const double sign = negative ? -1.0 : 1.0;
  if (top_bit < 64) {
    // Below 2^64 units (so base_ is 0): the conversion rounds the whole
    // value, and scaling by the unit is exact (a normal result, or one
    // below 2^53 units, exact as a subnormal or the least normals).
    return sign * std::ldexp(static_cast<double>(magnitude[0]), kUnitExponent);
  }
  // The 64 bits from top_bit down, with bit 0 set if any bit below them is
  // (sticky): converting that rounds like the whole magnitude, since a
  // double keeps 53 bits and the rounding position is far above bit 0.
  const std::size_t low_bit = top_bit - 63;  // in units
  auto limb_at = [&](std::size_t index) -> std::uint64_t {  // absolute limb index
    return index >= base_ && index - base_ < magnitude.size() ? magnitude[index - base_] : 0;
  };
  const std::size_t low_limb = low_bit / 64;
  const unsigned shift = static_cast<unsigned>(low_bit % 64);
  const u128 pair = (static_cast<u128>(limb_at(low_limb + 1)) << 64) | limb_at(low_limb);
  std::uint64_t top = static_cast<std::uint64_t>(pair >> shift);
  bool sticky = shift != 0 && (limb_at(low_limb) & ((std::uint64_t{1} << shift) - 1)) != 0;
  for (std::size_t i = base_; i < low_limb && !sticky; ++i) sticky = limb_at(i) != 0;
  if (sticky) top |= 1;
  const double result = std::ldexp(static_cast<double>(top), static_cast<int>(low_bit) + kUnitExponent);
  return sign * result;
}

}  // namespace tandem::compute
