#include "compute/arrangement/batcher.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <utility>

#include "compute/arrangement/builder.hpp"
#include "compute/arrangement/cursor.hpp"
#include "compute/arrangement/memory_budget.hpp"
#include "compute/arrangement/merger.hpp"
#include "compute/arrangement/spilled_batch_storage.hpp"

namespace tandem::compute {

namespace {

// Big-endian integer of key bytes [from, from + 8), zero-padded.
std::uint64_t key_prefix(std::string_view key, std::size_t from) {
  std::uint64_t raw = 0;
  if (key.size() > from)
    std::memcpy(&raw, key.data() + from, std::min<std::size_t>(key.size() - from, 8));
  if constexpr (std::endian::native == std::endian::little) raw = __builtin_bswap64(raw);
  return raw;
}

constexpr std::uint32_t kPrefixBytes = 8;

int compare_bytes(const char* a, std::size_t a_len, const char* b, std::size_t b_len) {
  const int c = std::memcmp(a, b, std::min(a_len, b_len));
  if (c != 0) return c;
  return a_len < b_len ? -1 : (a_len > b_len ? 1 : 0);
}

int compare_lengths(std::uint32_t a, std::uint32_t b) { return a < b ? -1 : (a > b ? 1 : 0); }

// Compares (key, val) of two records; time is compared by the callers.
// Zero-padded prefixes that are equal while one string fits in them mean the
// shorter string is a prefix of the longer, so lengths decide without
// touching the arena. See Record for what p0/p1 hold.
int compare_key_val(const char* arena, const Batcher::Record& a, const Batcher::Record& b) {
  if (a.p0 != b.p0) return a.p0 < b.p0 ? -1 : 1;
  const char* pa = arena + a.offset;
  const char* pb = arena + b.offset;
  if (a.key_len <= kPrefixBytes || b.key_len <= kPrefixBytes) {
    if (a.key_len != b.key_len) return compare_lengths(a.key_len, b.key_len);
    // Equal short keys: p1 is the val prefix.
    if (a.p1 != b.p1) return a.p1 < b.p1 ? -1 : 1;
    if (a.val_len <= kPrefixBytes || b.val_len <= kPrefixBytes) return compare_lengths(a.val_len, b.val_len);
    return compare_bytes(pa + a.key_len + kPrefixBytes, a.val_len - kPrefixBytes,
                         pb + b.key_len + kPrefixBytes, b.val_len - kPrefixBytes);
  }
  // Both keys are longer than 8 bytes: p1 is key bytes [8, 16).
  if (a.p1 != b.p1) return a.p1 < b.p1 ? -1 : 1;
  if (a.key_len <= 2 * kPrefixBytes || b.key_len <= 2 * kPrefixBytes) {
    if (a.key_len != b.key_len) return compare_lengths(a.key_len, b.key_len);
  } else {
    const int c = compare_bytes(pa, a.key_len, pb, b.key_len);
    if (c != 0) return c;
  }
  return compare_bytes(pa + a.key_len, a.val_len, pb + b.key_len, b.val_len);
}

bool same_key(const char* arena, const Batcher::Record& a, const Batcher::Record& b) {
  if (a.p0 != b.p0 || a.key_len != b.key_len) return false;
  if (a.key_len <= kPrefixBytes) return true;
  return a.p1 == b.p1 &&
         (a.key_len <= 2 * kPrefixBytes || std::memcmp(arena + a.offset, arena + b.offset, a.key_len) == 0);
}

// REQUIRES same_key(a, b).
bool same_val(const char* arena, const Batcher::Record& a, const Batcher::Record& b) {
  if (a.val_len != b.val_len) return false;
  if (a.key_len <= kPrefixBytes && (a.p1 != b.p1 || a.val_len <= kPrefixBytes)) return a.p1 == b.p1;
  return std::memcmp(arena + a.offset + a.key_len, arena + b.offset + b.key_len, a.val_len) == 0;
}

// Sorts records by (key, val, time): an MSD radix sort on the 128-bit
// prefix (p0, p1), finished by comparison sorts where it cannot decide.
//
// Each pass counts the records by the (up to) 16 most significant bits of
// the current prefix word that differ within the range (so keys sharing
// leading bytes, like packed integers with their tag byte, still spread out)
// and recurses into each bucket. Integer order on p0 is the comparison's
// first criterion, so buckets of p0 are ordered. p1 is the next criterion
// only among records whose p0 and key length are equal (then p1 is the next
// 8 key bytes, or the val's first 8 for keys of at most 8 bytes); a range
// with equal p0 but mixed key lengths, a range whose prefixes all tie, and
// every small range go to std::sort with the full comparison.
using RecordIt = std::vector<Batcher::Record>::iterator;

template <typename Less>
void radix_sort(RecordIt begin, RecordIt end, Batcher::Record* scratch, bool on_p1, const Less& less) {
  constexpr std::ptrdiff_t kRadixMin = 64;
  const std::ptrdiff_t n = end - begin;
  if (n < kRadixMin) {
    std::sort(begin, end, less);
    return;
  }
  auto word = [on_p1](const Batcher::Record& r) { return on_p1 ? r.p1 : r.p0; };
  const std::uint64_t first = word(*begin);
  std::uint64_t differing = 0;
  for (auto it = begin; it != end; ++it) differing |= word(*it) ^ first;
  if (differing == 0) {
    if (!on_p1) {
      bool same_length = true;
      for (auto it = begin; it != end && same_length; ++it) same_length = it->key_len == begin->key_len;
      if (same_length) {
        radix_sort(begin, end, scratch, /*on_p1=*/true, less);
        return;
      }
    }
    std::sort(begin, end, less);
    return;
  }
  const int top = 63 - std::countl_zero(differing);  // highest differing bit
  const int bits = std::min({16, top + 1, std::max(8, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n))))});
  const int shift = top + 1 - bits;
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  auto bucket = [&](const Batcher::Record& r) { return static_cast<std::size_t>((word(r) >> shift) & mask); };
  std::vector<std::size_t> starts((std::size_t{1} << bits) + 1, 0);
  for (auto it = begin; it != end; ++it) ++starts[bucket(*it) + 1];
  for (std::size_t b = 1; b < starts.size(); ++b) starts[b] += starts[b - 1];
  std::vector<std::size_t> next(starts.begin(), starts.end() - 1);
  for (auto it = begin; it != end; ++it) scratch[next[bucket(*it)]++] = *it;
  std::copy(scratch, scratch + n, begin);
  // Buckets are ordered by the bits above `shift`, which agree with the
  // word's order because all higher bits are equal across the range.
  for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
    if (starts[b + 1] - starts[b] > 1) {
      radix_sort(begin + starts[b], begin + starts[b + 1], scratch + starts[b], on_p1, less);
    }
  }
}

void sort_records(const char* arena, RecordIt begin, RecordIt end) {
  auto less = [arena](const Batcher::Record& a, const Batcher::Record& b) {
    const int c = compare_key_val(arena, a, b);
    return c != 0 ? c < 0 : a.time < b.time;
  };
  // Input that arrives in order (a table loaded in key order, one worker)
  // costs one pass; the check stops at the first inversion otherwise.
  if (std::is_sorted(begin, end, less)) return;
  std::vector<Batcher::Record> scratch(static_cast<std::size_t>(end - begin));
  radix_sort(begin, end, scratch.data(), /*on_p1=*/false, less);
}

}  // namespace

bool Batcher::crowded() {
  const std::shared_ptr<MemoryBudget> budget = MemoryBudget::current();
  return budget != nullptr && budget->building_crowded();
}

std::uint64_t Batcher::run_bytes() {
  const std::shared_ptr<MemoryBudget> budget = MemoryBudget::current();
  const std::uint64_t limit = budget != nullptr ? budget->limit() : 0;
  if (limit == 0) return 0;
  return std::max<std::uint64_t>(limit / 8, SpilledBatchStorage::kBlockBytes);
}

void Batcher::reserve(std::size_t updates, std::size_t bytes) {
  if (const std::uint64_t run = run_bytes(); run != 0) {
    // Beyond a run's worth the buffer is cut into runs anyway.
    const std::uint64_t wanted = updates * sizeof(Record) + bytes;
    if (wanted > run) {
      const double scale = static_cast<double>(run) / static_cast<double>(wanted);
      updates = static_cast<std::size_t>(static_cast<double>(updates) * scale);
      bytes = static_cast<std::size_t>(static_cast<double>(bytes) * scale);
    }
  }
  // Grow at least geometrically, so repeated reserves stay amortized O(1).
  if (records_.capacity() < records_.size() + updates)
    records_.reserve(std::max(records_.size() + updates, 2 * records_.capacity()));
  if (arena_.capacity() < arena_.size() + bytes) arena_.reserve(std::max(arena_.size() + bytes, 2 * arena_.capacity()));
}

void Batcher::push(std::string_view key, std::string_view val, Timestamp time, Diff diff) {
  assert(time >= lower_);
  if (diff == 0) return;
  const std::uint64_t offset = arena_.size();
  arena_.append(key);
  arena_.append(val);
  const std::uint64_t p1 = key.size() <= kPrefixBytes ? key_prefix(val, 0) : key_prefix(key, kPrefixBytes);
  records_.push_back(Record{key_prefix(key, 0), p1, offset,
                            static_cast<std::uint32_t>(key.size()),
                            static_cast<std::uint32_t>(val.size()), time, diff});
  if (buffer_bytes() >= next_check_) {
    // Looking up the budget costs an atomic load: do it once per spill block
    // of growth.
    const std::uint64_t run = run_bytes();
    if (run != 0 && buffer_bytes() >= run) {
      cut_run();
    } else if (run != 0 && buffer_bytes() >= run / 8 && crowded()) {
      // Other batchers and builders hold half the limit already: cut a
      // smaller run and give the buffer back (its capacity stays counted
      // otherwise).
      cut_run();
      std::vector<Record>().swap(records_);
      std::string().swap(arena_);
    }
    next_check_ = buffer_bytes() + SpilledBatchStorage::kBlockBytes;
    if (run != 0) count_held();
  }
}

Timestamp Batcher::least_buffered_time() const {
  Timestamp least = runs_least_time_;
  for (const Record& r : records_) least = std::min(least, r.time);
  return least;
}

BatchPtr Batcher::build(std::vector<Record>::iterator begin, std::vector<Record>::iterator end,
                        Description description) const {
  const char* arena = arena_.data();
  BuildingCount scratch(Building::kSortScratch);  // sort_records' copy of the records
  if (run_bytes() != 0) scratch.set(static_cast<std::uint64_t>(end - begin) * sizeof(Record));
  sort_records(arena, begin, end);
  scratch.set(0);

  BatchBuilder builder;
  const std::uint64_t ready = end - begin;
  std::uint64_t key_bytes = 0;
  std::uint64_t val_bytes = 0;
  for (auto it = begin; it != end; ++it) {
    key_bytes += it->key_len;
    val_bytes += it->val_len;
  }
  builder.reserve(ready, key_bytes, ready, val_bytes, ready);
  const Record* prev = nullptr;  // last record whose key/val was opened
  // Records are sorted but their bytes are scattered in push order, so fetch
  // ahead to hide the cache misses.
  constexpr std::ptrdiff_t kPrefetchDistance = 16;
  for (auto it = begin; it != end;) {
    if (end - it > kPrefetchDistance) __builtin_prefetch(arena + it[kPrefetchDistance].offset);
    // Consolidate the run of equal (key, val, time).
    Diff sum = it->diff;
    auto run_end = it + 1;
    while (run_end != end && run_end->time == it->time && compare_key_val(arena, *run_end, *it) == 0) {
      sum += run_end->diff;
      ++run_end;
    }
    if (sum != 0) {
      const char* bytes = arena + it->offset;
      if (prev == nullptr || !same_key(arena, *prev, *it)) {
        builder.push_key({bytes, it->key_len});
        builder.push_val({bytes + it->key_len, it->val_len});
      } else if (!same_val(arena, *prev, *it)) {
        builder.push_val({bytes + it->key_len, it->val_len});
      }
      builder.push_update(it->time, sum);
      prev = &*it;
    }
    it = run_end;
  }
  return builder.done(description);
}

void Batcher::cut_run() {
  if (records_.empty()) return;
  for (const Record& r : records_) {
    runs_least_time_ = std::min(runs_least_time_, r.time);
    runs_greatest_time_ = std::max(runs_greatest_time_, r.time);
  }
  run_updates_ += records_.size();
  BatchPtr run = build(records_.begin(), records_.end(), Description{lower_, lower_, kMinTimestamp});
  records_.clear();
  arena_.clear();
  append_merging(runs_, std::move(run));
}

BatchPtr Batcher::merge_runs(Timestamp since) {
  if (runs_.empty()) return nullptr;
  BatchPtr merged = std::move(runs_.back());
  runs_.pop_back();
  while (!runs_.empty()) {
    merged = merge_now(std::move(runs_.back()), std::move(merged), since);
    runs_.pop_back();
  }
  if (since > kMinTimestamp && merged->since() < since) {
    // A single run: advance its times by merging with an empty batch.
    merged = merge_now(std::move(merged), Batch::empty(Description{lower_, lower_, kMinTimestamp}), since);
  }
  run_updates_ = 0;
  runs_least_time_ = kMaxTimestamp;
  runs_greatest_time_ = kMinTimestamp;
  return merged;
}

BatchPtr Batcher::seal(Timestamp upper, Timestamp since) {
  assert(upper >= lower_);
  const Description description{lower_, upper, since};
  if (!runs_.empty()) {
    const bool split = runs_greatest_time_ >= upper;
    cut_run();
    // Nothing is buffered now: free the run-sized buffer.
    std::vector<Record>().swap(records_);
    std::string().swap(arena_);
    held_.set(0);
    BatchPtr merged = merge_runs(since);
    lower_ = upper;
    if (!split) return merged->with_description(description);
    // Updates at or after upper were cut into runs: they go back to the
    // buffer (bounded again by runs as they are pushed).
    BatchBuilder builder;
    BatchCursor cursor(merged);
    for (; cursor.key_valid(); cursor.step_key()) {
      for (; cursor.val_valid(); cursor.step_val()) {
        cursor.for_each_time([&](Timestamp t, Diff d) {
          if (t < upper) {
            builder.push(cursor.key(), cursor.val(), t, d);
          } else {
            push(cursor.key(), cursor.val(), t, d);
          }
        });
      }
    }
    return builder.done(description);
  }
  lower_ = upper;

  const auto ready_end = std::partition(records_.begin(), records_.end(),
                                        [upper](const Record& r) { return r.time < upper; });
  for (auto it = records_.begin(); it != ready_end; ++it) it->time = std::max(it->time, since);
  BatchPtr batch = build(records_.begin(), ready_end, description);

  // Keep the not-yet-ready updates, compacting the arena to their bytes.
  const char* arena = arena_.data();
  std::string kept_arena;
  std::vector<Record> kept;
  kept.reserve(records_.end() - ready_end);
  for (auto it = ready_end; it != records_.end(); ++it) {
    Record r = *it;
    r.offset = kept_arena.size();
    kept_arena.append(arena + it->offset, it->key_len + it->val_len);
    kept.push_back(r);
  }
  // swap, not move-assign: a string moved from an empty (inline) one keeps
  // its own buffer.
  arena_.swap(kept_arena);
  records_.swap(kept);
  next_check_ = 0;
  if (records_.empty()) {
    held_.set(0);
  } else if (held_.bytes() != 0) {
    count_held();
  }
  return batch;
}

}  // namespace tandem::compute
