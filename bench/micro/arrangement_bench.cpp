// Arrangement microbenchmarks: sort-based build (Batcher), hydration through
// a Spine, merging, point lookups, full scans, memory per record and the
// worst single spine insert. See bench/HISTORY.md for how to read them.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>

#include "bench/micro/bench_support.hpp"
#include "compute/arrangement/batcher.hpp"
#include "compute/arrangement/cursor.hpp"
#include "compute/arrangement/cursor_list.hpp"
#include "compute/arrangement/merger.hpp"
#include "compute/arrangement/spine.hpp"

namespace tandem::bench {

using compute::Batch;
using compute::BatchCursor;
using compute::Batcher;
using compute::BatchPtr;
using compute::CursorList;
using compute::Diff;
using compute::Merger;
using compute::Spine;
using compute::Timestamp;

const BatchPtr& shared_arrangement() {
  static const BatchPtr batch = [] {
    const std::uint64_t n = bench_rows();
    std::vector<std::uint32_t> order(n);
    for (std::uint64_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
    std::shuffle(order.begin(), order.end(), std::mt19937_64(7));
    Batcher batcher(0);
    for (const std::uint32_t i : order)
      batcher.push(packed_int(static_cast<std::int32_t>(2 * i)), packed_int(static_cast<std::int32_t>(i)), 0, 1);
    return batcher.seal(1);
  }();
  return batch;
}

namespace {

void set_memory_counters(benchmark::State& state, const Batch& batch) {
  const double per_record = static_cast<double>(batch.memory_bytes()) / static_cast<double>(batch.update_count());
  state.counters["bytes_per_record"] = per_record;
  state.counters["raw_bytes_per_record"] = static_cast<double>(raw_record_bytes());
  state.counters["memory_ratio"] = per_record / static_cast<double>(raw_record_bytes());
}

// Sort-based build: push `range(0)` updates in random order and seal them
// into one batch. Keys are uniform over [0, n), so about a third of the
// records share a key with another (ties are resolved on the val).
void BM_BatcherSeal(benchmark::State& state) {
  const std::uint64_t n = static_cast<std::uint64_t>(state.range(0));
  const KeyVals kv = random_key_vals(n, n, 1);
  BatchPtr last;
  for (auto _ : state) {
    Batcher batcher(0);
    for (std::uint64_t i = 0; i < n; ++i) batcher.push(kv.keys[i], kv.vals[i], 0, 1);
    last = batcher.seal(1);
    benchmark::DoNotOptimize(last);
    state.PauseTiming();
    last.reset();  // freeing the batch is not part of the build
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}

// Hydration: bench_rows() updates sealed every `range(0)` records (one time
// per seal) and inserted into a spine, then merged down to one batch, as an
// index export hydrates from a snapshot.
void BM_Hydrate(benchmark::State& state) {
  const std::uint64_t n = bench_rows();
  const std::uint64_t per_seal = static_cast<std::uint64_t>(state.range(0));
  const KeyVals kv = random_key_vals(n, n, 2);
  std::uint64_t merge_work = 0;
  for (auto _ : state) {
    Spine spine(0);
    Batcher batcher(0);
    Timestamp time = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      batcher.push(kv.keys[i], kv.vals[i], time, 1);
      if ((i + 1) % per_seal == 0 || i + 1 == n) spine.insert(batcher.seal(++time));
    }
    std::int64_t fuel = static_cast<std::int64_t>(n);
    while (spine.batches().size() > 1) {
      fuel = static_cast<std::int64_t>(n);
      spine.exert(fuel);
    }
    merge_work = spine.merge_work();
    benchmark::DoNotOptimize(spine.update_count());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
  state.counters["merge_work_per_row"] = static_cast<double>(merge_work) / static_cast<double>(n);
}

// Merging two batches of range(0)/2 records each (disjoint key sets), with
// the memory of the merged result.
void BM_Merge(benchmark::State& state) {
  const std::uint64_t n = static_cast<std::uint64_t>(state.range(0));
  const KeyVals kv = random_key_vals(n, n, 3);
  Batcher batcher(0);
  for (std::uint64_t i = 0; i < n / 2; ++i) batcher.push(kv.keys[i], kv.vals[i], 0, 1);
  const BatchPtr older = batcher.seal(1);
  for (std::uint64_t i = n / 2; i < n; ++i) batcher.push(kv.keys[i], kv.vals[i], 1, 1);
  const BatchPtr newer = batcher.seal(2);
  BatchPtr merged;
  for (auto _ : state) {
    Merger merger(older, newer, 0);
    std::int64_t fuel = std::numeric_limits<std::int64_t>::max();
    merger.work(fuel);
    merged = merger.finish();
    benchmark::DoNotOptimize(merged);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
  set_memory_counters(state, *merged);
}

// Memory of the shared bench_rows()-record arrangement as sealed by the
// Batcher (the timed loop only reads its size).
void BM_MemoryPerRecord(benchmark::State& state) {
  const BatchPtr& batch = shared_arrangement();
  for (auto _ : state) benchmark::DoNotOptimize(batch->memory_bytes());
  set_memory_counters(state, *batch);
  state.counters["records"] = static_cast<double>(batch->update_count());
}

// Point lookup: a fresh cursor per lookup (as a peek makes), seek_key to a
// random present key, read its val and diff. Time per iteration = ns/seek.
template <typename Cursor>
void point_lookup(benchmark::State& state) {
  const BatchPtr& batch = shared_arrangement();
  const std::vector<BatchPtr> batches{batch};
  const std::uint64_t n = batch->update_count();
  std::mt19937_64 rng(11);
  std::vector<std::string> targets;
  for (int i = 0; i < 1 << 16; ++i) targets.push_back(packed_int(static_cast<std::int32_t>(2 * (rng() % n))));
  std::size_t next = 0;
  std::uint64_t found = 0;
  for (auto _ : state) {
    const std::string& target = targets[next++ & 0xffff];
    Cursor cursor = [&] {
      if constexpr (std::is_same_v<Cursor, BatchCursor>) {
        return BatchCursor(batch);
      } else {
        return CursorList(batches);
      }
    }();
    cursor.seek_key(target);
    if (cursor.key_valid() && cursor.key() == target && cursor.val_valid()) {
      Diff sum = 0;
      cursor.for_each_time([&](Timestamp, Diff d) { sum += d; });
      found += static_cast<std::uint64_t>(sum);
      benchmark::DoNotOptimize(cursor.val());
    }
  }
  if (found != static_cast<std::uint64_t>(state.iterations())) state.SkipWithError("a present key was not found");
}
void BM_PointLookup_BatchCursor(benchmark::State& state) { point_lookup<BatchCursor>(state); }
void BM_PointLookup_CursorList(benchmark::State& state) { point_lookup<CursorList>(state); }

// Full scan: every (key, val) with its accumulated diff, as of time 1.
template <typename Cursor>
void full_scan(benchmark::State& state) {
  const BatchPtr& batch = shared_arrangement();
  const std::vector<BatchPtr> batches{batch};
  std::uint64_t rows = 0;
  for (auto _ : state) {
    Cursor cursor = [&] {
      if constexpr (std::is_same_v<Cursor, BatchCursor>) {
        return BatchCursor(batch);
      } else {
        return CursorList(batches);
      }
    }();
    std::uint64_t seen = 0;
    compute::for_each_as_of(cursor, 1, [&](std::string_view key, std::string_view val, Diff diff) {
      benchmark::DoNotOptimize(key.data());
      benchmark::DoNotOptimize(val.data());
      seen += static_cast<std::uint64_t>(diff);
    });
    rows += seen;
  }
  if (rows != static_cast<std::uint64_t>(state.iterations()) * batch->update_count()) state.SkipWithError("scan missed rows");
  state.SetItemsProcessed(static_cast<std::int64_t>(rows));
}
void BM_FullScan_BatchCursor(benchmark::State& state) { full_scan<BatchCursor>(state); }
void BM_FullScan_CursorList(benchmark::State& state) { full_scan<CursorList>(state); }

// The worst single insert: bench_rows() updates inserted into a spine as
// batches of range(0) records (one time each). Reports the largest wall time
// and merge work (input records) of one insert beside the mean, the fuel one
// insert hands each merge, and the largest batch the spine formed: a single
// insert paying for a whole merge would show max_work near largest_batch.
void BM_SpineInsertWorst(benchmark::State& state) {
  const std::uint64_t n = bench_rows();
  const std::uint64_t per_insert = static_cast<std::uint64_t>(state.range(0));
  const KeyVals kv = random_key_vals(n, n, 4);
  // Seal the batches up front: only spine.insert is measured.
  std::vector<BatchPtr> batches;
  Batcher batcher(0);
  Timestamp time = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    batcher.push(kv.keys[i], kv.vals[i], time, 1);
    if ((i + 1) % per_insert == 0 || i + 1 == n) batches.push_back(batcher.seal(++time));
  }
  double max_us = 0, total_us = 0;
  std::uint64_t max_work = 0, largest = 0, layers = 0;
  for (auto _ : state) {
    Spine spine(0);
    max_us = total_us = 0;
    max_work = largest = 0;
    for (const BatchPtr& b : batches) {
      const std::uint64_t work_before = spine.merge_work();
      const auto start = std::chrono::steady_clock::now();
      spine.insert(b);
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
      max_us = std::max(max_us, us);
      total_us += us;
      max_work = std::max(max_work, spine.merge_work() - work_before);
      for (const BatchPtr& held : spine.batches()) largest = std::max(largest, held->update_count());
    }
    layers = spine.layer_count();
    benchmark::DoNotOptimize(spine.update_count());
  }
  const double inserts = static_cast<double>(batches.size());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
  state.counters["inserts"] = inserts;
  state.counters["max_insert_us"] = max_us;
  state.counters["mean_insert_us"] = total_us / inserts;
  state.counters["max_work_per_insert"] = static_cast<double>(max_work);
  state.counters["fuel_per_merge"] =
      static_cast<double>(Spine::kFuelPerUpdate << std::bit_width(per_insert));
  state.counters["layers"] = static_cast<double>(layers);
  state.counters["largest_batch"] = static_cast<double>(largest);
}

std::int64_t rows_arg() { return static_cast<std::int64_t>(bench_rows()); }

}  // namespace

BENCHMARK(BM_BatcherSeal)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Arg(rows_arg())
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Hydrate)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_Merge)->Arg(1'000'000)->Arg(rows_arg())->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemoryPerRecord)->Iterations(1);
BENCHMARK(BM_PointLookup_BatchCursor);
BENCHMARK(BM_PointLookup_CursorList);
BENCHMARK(BM_FullScan_BatchCursor)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FullScan_CursorList)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SpineInsertWorst)->Arg(1'000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace tandem::bench
