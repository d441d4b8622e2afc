#include "compute/arrangement/merger.hpp"

#include <catch2/catch.hpp>

#include "compute/arrangement/batcher.hpp"
#include "compute/arrangement/test_support.hpp"

namespace tandem::compute {
namespace {

using testing::Update;

// Random updates at times in [lower, upper), with many retractions.
std::vector<Update> random_updates(std::mt19937_64& rng, int n, Timestamp lower, Timestamp upper,
                                   int keys) {
  std::vector<Update> out;
  for (int i = 0; i < n; ++i) {
    out.emplace_back(testing::random_bytes(rng, keys), testing::random_bytes(rng, 3),
                     lower + rng() % (upper - lower), rng() % 2 == 0 ? 1 : -1);
  }
  return out;
}

BatchPtr make_batch(const std::vector<Update>& updates, Timestamp lower, Timestamp upper) {
  Batcher batcher(lower);
  for (const auto& [k, v, t, d] : updates) batcher.push(k, v, t, d);
  return batcher.seal(upper);
}

BatchPtr run_merge(const BatchPtr& a, const BatchPtr& b, Timestamp since, std::int64_t step,
                   int* calls) {
  Merger merger(a, b, since);
  *calls = 0;
  while (!merger.done()) {
    std::int64_t fuel = step;
    merger.work(fuel);
    ++(*calls);
    // Never more than one (key, val) of overshoot; here a val has few updates.
    REQUIRE(fuel > -64);
    REQUIRE(*calls < 1'000'000);
  }
  return merger.finish();
}

TEST_CASE("merger equals a naive merge at every fuel granularity", "[arrangement][merger]") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 12; ++trial) {
    const int keys = trial % 2 == 0 ? 20 : 400;
    const auto ua = random_updates(rng, 1500, 0, 50, keys);
    const auto ub = random_updates(rng, 900, 50, 100, keys);
    const BatchPtr a = make_batch(ua, 0, 50);
    const BatchPtr b = make_batch(ub, 50, 100);
    std::vector<Update> all = ua;
    all.insert(all.end(), ub.begin(), ub.end());
    for (const Timestamp since : {Timestamp{0}, Timestamp{30}, Timestamp{50}, Timestamp{75},
                                  Timestamp{100}, Timestamp{500}}) {
      const auto expected = testing::consolidate(all, since);
      int calls_small = 0;
      for (const std::int64_t step : {std::int64_t{1}, std::int64_t{7}, std::int64_t{1} << 40}) {
        int calls = 0;
        const BatchPtr merged = run_merge(a, b, since, step, &calls);
        CAPTURE(trial, since, step);
        REQUIRE(merged->description() == Description{0, 100, since});
        REQUIRE(testing::dump(merged) == expected);
        REQUIRE(merged->update_count() == expected.size());
        if (step == 1) calls_small = calls;
        if (step == (std::int64_t{1} << 40)) CHECK(calls == 1);
      }
      // Small fuel really splits the work.
      CHECK(calls_small > 100);
    }
  }
}

TEST_CASE("merger with an empty input reuses the other when nothing advances",
          "[arrangement][merger]") {
  std::mt19937_64 rng(3);
  const BatchPtr a = make_batch(random_updates(rng, 100, 0, 10, 10), 0, 10);
  const BatchPtr empty = Batch::empty({10, 20, 0});
  Merger reuse(a, empty, 0);
  CHECK(reuse.done());
  const BatchPtr same = reuse.finish();
  CHECK(same->storage() == a->storage());
  CHECK(same->description() == Description{0, 20, 0});

  // With since past some times, the columns must be rewritten.
  Merger advance(a, empty, 5);
  std::int64_t fuel = 1'000'000;
  advance.work(fuel);
  REQUIRE(advance.done());
  const BatchPtr compacted = advance.finish();
  CHECK(compacted->storage() != a->storage());
  CHECK(testing::dump(compacted) == testing::consolidate(testing::dump(a), 5));
  CHECK(fuel == 1'000'000 - static_cast<std::int64_t>(a->update_count()));
}

}  // namespace
}  // namespace tandem::compute
