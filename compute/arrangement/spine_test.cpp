#include "compute/arrangement/spine.hpp"

#include <bit>
#include <catch2/catch.hpp>

#include "compute/arrangement/batcher.hpp"
#include "compute/arrangement/test_support.hpp"

namespace tandem::compute {
namespace {

using testing::Contents;
using testing::Update;

Contents spine_as_of(const Spine& spine, Timestamp as_of) {
  CursorList cursor(spine.batches());
  return testing::read_as_of(cursor, as_of);
}

// Batches must tile [lower, upper) in order.
void check_tiling(const Spine& spine, Timestamp lower) {
  Timestamp expect = lower;
  for (const BatchPtr& batch : spine.batches()) {
    REQUIRE(batch->lower() == expect);
    expect = batch->upper();
  }
  REQUIRE(expect == spine.upper());
}

// Drives a spine with random inserts, retractions (many to exactly zero) and
// advancing compaction, mirroring every update in a flat list.
struct Workload {
  std::mt19937_64 rng;
  Spine spine;
  Batcher batcher;
  std::vector<Update> all;
  std::map<std::pair<std::string, std::string>, Diff> live;

  explicit Workload(std::uint64_t seed, SpineOptions options = {}) : rng(seed), spine(0, options) {}

  void push(const std::string& k, const std::string& v, Timestamp t, Diff d) {
    batcher.push(k, v, t, d);
    all.emplace_back(k, v, t, d);
    live[{k, v}] += d;
    if (live[{k, v}] == 0) live.erase({k, v});
  }

  void step(int updates) {
    const Timestamp lower = spine.upper();
    const Timestamp upper = lower + 1 + rng() % 4;
    for (int i = 0; i < updates; ++i) {
      const Timestamp t = lower + rng() % (upper - lower);
      if (!live.empty() && rng() % 3 == 0) {
        // Retract an existing record, usually completely.
        auto it = live.begin();
        std::advance(it, rng() % std::min<std::size_t>(live.size(), 64));
        const auto [kv, count] = *it;
        push(kv.first, kv.second, t, rng() % 4 == 0 ? -1 : -count);
      } else {
        push(testing::random_bytes(rng, 300), testing::random_bytes(rng, 3), t,
             1 + static_cast<Diff>(rng() % 2));
      }
    }
    spine.insert(batcher.seal(upper));
  }
};

TEST_CASE("spine answers equal a naive model at every time >= since", "[arrangement][spine]") {
  for (const std::int64_t effort : {std::int64_t{1}, std::int64_t{4}}) {
    Workload w(11 + effort, SpineOptions{effort});
    for (int round = 0; round < 400; ++round) {
      w.step(round % 17 == 0 ? 0 : static_cast<int>(w.rng() % 60));
      if (round % 10 == 9 && w.spine.upper() > 40)
        w.spine.set_logical_compaction(w.spine.upper() - 40);
      if (round % 13 == 0) {
        std::int64_t fuel = 200;
        w.spine.exert(fuel);
      }
      if (round % 40 == 39) {
        check_tiling(w.spine, 0);
        for (Timestamp t = w.spine.since(); t < w.spine.upper(); ++t) {
          CAPTURE(effort, round, t);
          REQUIRE(spine_as_of(w.spine, t) == testing::model_as_of(w.all, t));
        }
      }
    }
    CHECK(w.spine.merge_work() > 0);
  }
}

TEST_CASE("compaction never changes an answer at or after since", "[arrangement][spine]") {
  Workload w(5);
  for (int round = 0; round < 200; ++round) w.step(40);
  const Timestamp since = w.spine.upper() / 2;
  std::vector<Contents> before;
  for (Timestamp t = since; t < w.spine.upper(); ++t) before.push_back(spine_as_of(w.spine, t));
  const std::uint64_t updates_before = w.spine.update_count();

  w.spine.set_logical_compaction(since);
  for (int i = 0; i < 1000 && w.spine.batches().size() > 1; ++i) {
    std::int64_t fuel = 1 << 12;
    w.spine.exert(fuel);
  }
  // Physically compacted: one batch, every time advanced to >= since.
  const auto batches = w.spine.batches();
  REQUIRE(batches.size() == 1);
  for (const auto& [k, v, t, d] : testing::dump(batches.front())) REQUIRE(t >= since);
  CHECK(w.spine.update_count() < updates_before);
  for (Timestamp t = since; t < w.spine.upper(); ++t) {
    REQUIRE(spine_as_of(w.spine, t) == before[t - since]);
  }
}

TEST_CASE("spine merge work per insert is bounded", "[arrangement][spine]") {
  // Same-size batches of distinct keys (no consolidation): merges grow to the
  // whole trace, yet no insert may pay for more than its fuel share.
  const int kBatch = 64;
  const int kInserts = 4000;
  Spine spine;
  std::uint64_t max_work = 0;
  std::uint64_t records = 0;
  for (int i = 0; i < kInserts; ++i) {
    Batcher batcher(spine.upper());
    for (int j = 0; j < kBatch; ++j) {
      batcher.push(std::to_string(static_cast<std::uint64_t>(i) * 7919 + j * 104729), "v",
                   spine.upper(), 1);
    }
    const std::uint64_t before = spine.merge_work();
    spine.insert(batcher.seal(spine.upper() + 1));
    records += kBatch;
    const std::uint64_t work = spine.merge_work() - before;
    max_work = std::max(max_work, work);
    // Each in-progress merge gets kFuelPerUpdate * 2^class, overshooting by
    // at most one (key, val) (one update here).
    const std::uint64_t per_merge = Spine::kFuelPerUpdate << std::bit_width(std::uint64_t{kBatch});
    REQUIRE(work <= (per_merge + 1) * spine.layer_count());
  }
  CHECK(spine.update_count() == records);
  // Without fuelling, the last big merge alone would process ~records/2.
  CHECK(max_work * 16 < records);
  // The merging still keeps the batch count logarithmic.
  CHECK(spine.batches().size() <= 2 * spine.layer_count());
}

TEST_CASE("spine logical compaction only moves forward", "[arrangement][spine]") {
  Spine spine(5);
  CHECK(spine.since() == 5);
  spine.set_logical_compaction(9);
  spine.set_logical_compaction(7);
  CHECK(spine.since() == 9);
  spine.insert(Batch::empty({5, 12, 0}));
  CHECK(spine.upper() == 12);
  CHECK(spine.update_count() == 0);
}

TEST_CASE("an idle spine merged at an old since consolidates once the since advances", "[arrangement][spine]") {
  // One key whose value changes at every time, merged into one batch while
  // nothing allowed compaction: every update is still there.
  Spine spine(0);
  Batcher batcher;
  constexpr int kUpdates = 1000;
  for (int t = 1; t <= kUpdates; ++t) {
    if (t > 1) batcher.push("k", std::to_string(t - 1), static_cast<Timestamp>(t), -1);
    batcher.push("k", std::to_string(t), static_cast<Timestamp>(t), 1);
    spine.insert(batcher.seal(static_cast<Timestamp>(t + 1)));
  }
  for (int i = 0; i < 64; ++i) {
    std::int64_t fuel = 1 << 20;
    spine.exert(fuel);
  }
  REQUIRE(spine.update_count() == 2 * kUpdates - 1);
  // Compaction is allowed and the upper advances with no data (an idle
  // index's upper tick): exert alone consolidates to the live record.
  spine.set_logical_compaction(kUpdates + 1);
  spine.insert(Batch::empty({kUpdates + 1, kUpdates + 2, 0}));
  for (int i = 0; i < 8; ++i) {
    std::int64_t fuel = 1 << 20;
    spine.exert(fuel);
  }
  CHECK(spine.update_count() == 1);
  Contents expected;
  expected[{"k", std::to_string(kUpdates)}] = 1;
  CHECK(spine_as_of(spine, kUpdates + 1) == expected);
  check_tiling(spine, 0);
}

}  // namespace
}  // namespace tandem::compute
