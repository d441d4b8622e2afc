#pragma once
// Rng: the one source of randomness of a difftest round. A round is a pure
// function of its seed, so `--seed N --rounds 1` replays round N exactly.

#include <cstdint>
#include <random>
#include <vector>

namespace tandem::difftest {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed * 0x9E3779B97F4A7C15ULL + 1) {}

  // Uniform in [lo, hi].
  int range(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(engine_); }
  // True with probability p.
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(engine_) < p; }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[static_cast<std::size_t>(range(0, static_cast<int>(v.size()) - 1))];
  }
  // An index drawn with the given relative weights.
  std::size_t weighted(const std::vector<int>& weights) {
    int total = 0;
    for (int w : weights) total += w;
    int x = range(0, total - 1);
    for (std::size_t i = 0; i < weights.size(); ++i) {
      if (x < weights[i]) return i;
      x -= weights[i];
    }
    return weights.size() - 1;
  }
  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace tandem::difftest
