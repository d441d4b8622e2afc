#include "compute/arrangement/trace.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <mutex>
#include <thread>

#include "compute/arrangement/batcher.hpp"
#include "compute/arrangement/test_support.hpp"

namespace tandem::compute {
namespace {

using testing::Contents;
using testing::Update;

Contents snapshot_as_of(const TraceSnapshot& snapshot, Timestamp as_of) {
  CursorList cursor(snapshot.batches);
  return testing::read_as_of(cursor, as_of);
}

// Inserts `rounds` single-time batches of random churn, mirrored in `all`.
void churn(Trace& trace, std::vector<Update>& all, std::mt19937_64& rng, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    Batcher batcher(trace.upper());
    const Timestamp t = trace.upper();
    for (int i = 0; i < 30; ++i) {
      Update u{testing::random_bytes(rng, 40), "v", t, rng() % 3 == 0 ? -1 : 1};
      batcher.push(std::get<0>(u), std::get<1>(u), t, std::get<3>(u));
      all.push_back(u);
    }
    trace.insert(batcher.seal(t + 1));
  }
}

TEST_CASE("trace handles hold compaction at the least since", "[arrangement][trace]") {
  std::mt19937_64 rng(1);
  std::vector<Update> all;
  Trace trace;
  TraceHandle h1 = trace.handle();
  TraceHandle h2 = h1;  // a second hold at the same since
  churn(trace, all, rng, 100);
  CHECK(trace.since() == 0);

  h1.set_logical_compaction(60);
  h2.set_logical_compaction(30);
  h1.set_logical_compaction(10);  // never moves a hold back
  CHECK(h1.since() == 60);
  trace.refresh();
  CHECK(trace.since() == 30);  // bounded by h2
  CHECK(h1.snapshot()->since == 30);

  // A read at h2's as_of, from a snapshot taken under the hold...
  const auto held = h2.snapshot();
  const Contents at30 = testing::model_as_of(all, 30);
  REQUIRE(snapshot_as_of(*held, 30) == at30);

  // ...survives compaction past it once the hold is released.
  h2.release();
  CHECK_FALSE(h2.valid());
  churn(trace, all, rng, 50);
  CHECK(trace.since() == 60);
  for (int i = 0; i < 1000 && trace.spine().batches().size() > 1; ++i) {
    std::int64_t fuel = 1 << 12;
    trace.exert(fuel);
  }
  const auto compacted = h1.snapshot();
  REQUIRE(compacted->batches.size() == 1);
  for (const auto& [k, v, t, d] : testing::dump(compacted->batches.front())) REQUIRE(t >= 60);
  CHECK(snapshot_as_of(*held, 30) == at30);
  for (Timestamp t = 60; t < compacted->upper; ++t) {
    REQUIRE(snapshot_as_of(*compacted, t) == testing::model_as_of(all, t));
  }

  // With no live handle the frontier stays put.
  { TraceHandle moved = std::move(h1); }
  CHECK(trace.publication()->hold_count() == 0);
  trace.advance_upper(trace.upper() + 10);
  CHECK(trace.since() == 60);
  CHECK(trace.upper() == 160);
}

// Owner and readers agree on a deterministic workload: at time t the owner
// inserts kPerTime records tagged t and retracts those tagged t - kLifetime.
// As of T, the collection is exactly the records tagged (T - kLifetime, T].
constexpr int kPerTime = 8;
constexpr Timestamp kLifetime = 10;

std::string record_key(Timestamp t, int j) {
  // Spread keys so merges interleave: reversed-ish hash first, tag after.
  const std::uint64_t h = (t * 0x9E3779B97F4A7C15ULL) ^ static_cast<std::uint64_t>(j);
  std::string key(8, '\0');
  for (int i = 0; i < 8; ++i) key[i] = static_cast<char>(h >> (8 * i));
  key.append(std::to_string(t)).append("/").append(std::to_string(j));
  return key;
}

// Checks sortedness and consolidation of every batch, then the contents as
// of `as_of`. Returns a description of the first violation, or "". (Catch2
// assertions are not thread-safe, so reader threads report through this.)
std::string check_snapshot(const TraceSnapshot& snapshot, Timestamp as_of) {
  for (const BatchPtr& batch : snapshot.batches) {
    BatchCursor c(batch);
    std::string prev_key;
    for (bool first_key = true; c.key_valid(); c.step_key(), first_key = false) {
      if (!first_key && !(prev_key < c.key())) return "keys not ascending";
      prev_key = c.key();
      std::string prev_val;
      for (bool first_val = true; c.val_valid(); c.step_val(), first_val = false) {
        if (!first_val && !(prev_val < c.val())) return "vals not ascending";
        prev_val = c.val();
        std::string error;
        Timestamp prev_time = 0;
        bool first_time = true;
        c.for_each_time([&](Timestamp t, Diff d) {
          if (d == 0) error = "zero diff";
          if (!first_time && prev_time >= t) error = "times not ascending";
          if (t < batch->lower() && t < batch->since()) error = "time below batch";
          first_time = false;
          prev_time = t;
        });
        if (!error.empty()) return error;
      }
    }
  }
  CursorList cursor(snapshot.batches);
  std::size_t count = 0;
  std::string error;
  for_each_as_of(cursor, as_of, [&](std::string_view key, std::string_view val, Diff diff) {
    const auto tag = key.substr(8);
    const Timestamp t = std::stoull(std::string(tag.substr(0, tag.find('/'))));
    if (diff != 1 || val != "v" || t > as_of || t + kLifetime <= as_of) {
      error = "unexpected record tagged " + std::to_string(t) + " as of " + std::to_string(as_of);
    }
    ++count;
  });
  if (!error.empty()) return error;
  if (count != kPerTime * std::min<Timestamp>(as_of + 1, kLifetime)) {
    return "count " + std::to_string(count) + " as of " + std::to_string(as_of);
  }
  return "";
}

TEST_CASE("readers walk snapshots while the owner inserts and merges", "[arrangement][trace][concurrency]") {
  constexpr Timestamp kTimes = 3000;
  constexpr int kReaders = 3;
  Trace trace;
  TraceHandle owner_hold = trace.handle();
  std::vector<TraceHandle> reader_handles;
  for (int i = 0; i < kReaders; ++i) reader_handles.push_back(trace.handle());
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> checks{0};
  std::mutex errors_mutex;
  std::vector<std::string> errors;

  std::vector<std::thread> readers;
  for (int r = 0; r < kReaders; ++r) {
    readers.emplace_back([&, r, handle = std::move(reader_handles[r])]() mutable {
      std::mt19937_64 rng(r);
      while (!stop.load(std::memory_order_acquire)) {
        const auto snapshot = handle.snapshot();
        std::string error;
        if (snapshot->since > handle.since()) error = "snapshot compacted past the hold";
        // Any as_of this handle's hold keeps exact and the snapshot covers.
        const Timestamp lo = handle.since();
        const Timestamp hi = snapshot->upper - 1;
        if (snapshot->upper == 0 || lo > hi) continue;
        if (error.empty()) error = check_snapshot(*snapshot, lo + rng() % (hi - lo + 1));
        if (!error.empty()) {
          std::lock_guard lock(errors_mutex);
          errors.push_back(error);
        }
        checks.fetch_add(1, std::memory_order_relaxed);
        if (hi > 20) handle.set_logical_compaction(hi - 20);
      }
    });
  }

  for (Timestamp t = 0; t < kTimes; ++t) {
    Batcher batcher(t);
    for (int j = 0; j < kPerTime; ++j) {
      batcher.push(record_key(t, j), "v", t, 1);
      if (t >= kLifetime) batcher.push(record_key(t - kLifetime, j), "v", t, -1);
    }
    trace.insert(batcher.seal(t + 1));
    if (t % 7 == 0) {
      std::int64_t fuel = 256;
      trace.exert(fuel);
    }
    if (t > 50) owner_hold.set_logical_compaction(t - 50);
  }
  // A few more reader checks, some of them against the final state.
  const std::uint64_t target = checks.load() + kReaders;
  while (checks.load() < target) std::this_thread::yield();
  stop.store(true, std::memory_order_release);
  for (auto& reader : readers) reader.join();

  CHECK(errors == std::vector<std::string>{});
  CHECK(checks.load() > 0);
  CHECK(trace.since() <= kTimes - 50);
  CHECK(check_snapshot(*owner_hold.snapshot(), kTimes - 1) == "");
}

}  // namespace
}  // namespace tandem::compute
