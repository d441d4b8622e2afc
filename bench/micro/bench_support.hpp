// Shared setup for the compute microbenchmarks (tandem-microbench).
//
// Sizes. The arrangement benchmarks use `bench_rows()` records: 10M by
// default, overridden by the TANDEM_BENCH_ROWS environment variable (e.g.
// TANDEM_BENCH_ROWS=1000000 for a quick run). Operator benchmarks scale their
// initial collections from the same number.
//
// Records. An (int, int) record is what an index on column 0 of a two-int4
// table stores: key = the packed key row (common/row.hpp), val = the packed
// second column, plus a time and a diff. `kRawRecordBytes` is that record's
// encoded payload (key + val bytes + 8-byte time + 8-byte diff), the
// denominator of the memory-per-record ratio.
//
// Threading: benchmarks run on the main thread; the shared arrangement is
// built once, lazily, and only read afterwards.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "common/row.hpp"
#include "compute/arrangement/batch.hpp"

namespace tandem::bench {

inline std::uint64_t bench_rows() {
  static const std::uint64_t rows = [] {
    const char* env = std::getenv("TANDEM_BENCH_ROWS");
    const std::uint64_t n = env != nullptr ? std::strtoull(env, nullptr, 10) : 0;
    return n > 0 ? n : std::uint64_t{10'000'000};
  }();
  return rows;
}

inline std::string packed_int(std::int32_t v) {
  const Datum d = Datum::from_int32(v);
  return std::string(Row::pack_one(d).bytes());
}

inline Row int_row(std::int32_t a, std::int32_t b) {
  const Datum d[2] = {Datum::from_int32(a), Datum::from_int32(b)};
  return Row::pack(d);
}

// key + val of an encoded (int, int) record, plus time and diff.
inline std::uint64_t raw_record_bytes() {
  return packed_int(0).size() * 2 + sizeof(compute::Timestamp) + sizeof(compute::Diff);
}

// `n` (key, val) pairs of packed ints, keys uniform in [0, key_range), in
// random order, deterministic for a seed.
struct KeyVals {
  std::vector<std::string> keys;
  std::vector<std::string> vals;
};
inline KeyVals random_key_vals(std::uint64_t n, std::uint64_t key_range, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  KeyVals kv;
  kv.keys.reserve(n);
  kv.vals.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    kv.keys.push_back(packed_int(static_cast<std::int32_t>(rng() % key_range)));
    kv.vals.push_back(packed_int(static_cast<std::int32_t>(rng() % 1'000'000)));
  }
  return kv;
}

// The shared read-only arrangement: bench_rows() records with distinct keys
// 0, 2, 4, ... (so odd keys are misses) in one batch, built once. Sealed by
// the Batcher at upper 1.
const compute::BatchPtr& shared_arrangement();

}  // namespace tandem::bench
