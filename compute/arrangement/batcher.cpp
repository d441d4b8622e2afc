#include "compute/arrangement/batcher.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <utility>

#include "compute/arrangement/builder.hpp"

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

// Sorts records by (key, val, time). A counting sort on the 16 most
// significant bits of p0 that differ between records splits the input into
// cache-sized buckets (keys that share leading bytes, like packed integers
// with their tag byte, still spread out); each bucket is then sorted by the
// full comparison.
void sort_records(const char* arena, std::vector<Batcher::Record>::iterator begin,
                  std::vector<Batcher::Record>::iterator end) {
  auto less = [arena](const Batcher::Record& a, const Batcher::Record& b) {
    const int c = compare_key_val(arena, a, b);
    return c != 0 ? c < 0 : a.time < b.time;
  };
  const std::size_t n = static_cast<std::size_t>(end - begin);
  constexpr std::size_t kRadixMin = 4096;
  if (n < kRadixMin) {
    std::sort(begin, end, less);
    return;
  }
  std::uint64_t differing = 0;
  for (auto it = begin; it != end; ++it) differing |= it->p0 ^ begin->p0;
  if (differing == 0) {
    std::sort(begin, end, less);
    return;
  }
  constexpr int kBits = 16;
  const int top = 63 - std::countl_zero(differing);  // highest differing bit
  const int shift = std::max(0, top + 1 - kBits);
  auto bucket = [shift](const Batcher::Record& r) { return static_cast<std::size_t>((r.p0 >> shift) & 0xffff); };
  std::vector<std::size_t> starts(std::size_t{1} << kBits, 0);
  for (auto it = begin; it != end; ++it) ++starts[bucket(*it)];
  std::size_t sum = 0;
  for (std::size_t& s : starts) {
    const std::size_t count = s;
    s = sum;
    sum += count;
  }
  std::vector<Batcher::Record> scratch(n);
  std::vector<std::size_t> next = starts;
  for (auto it = begin; it != end; ++it) scratch[next[bucket(*it)]++] = *it;
  // Buckets are ordered by the bits above `shift`, which agree with p0 order
  // because all higher bits are equal across records.
  for (std::size_t b = 0; b < starts.size(); ++b) {
    const std::size_t lo = starts[b];
    const std::size_t hi = b + 1 < starts.size() ? starts[b + 1] : n;
    if (hi - lo > 1) std::sort(scratch.begin() + static_cast<std::ptrdiff_t>(lo),
                               scratch.begin() + static_cast<std::ptrdiff_t>(hi), less);
  }
  std::copy(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(n), begin);
}

}  // namespace

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
}

Timestamp Batcher::least_buffered_time() const {
  Timestamp least = kMaxTimestamp;
  for (const Record& r : records_) least = std::min(least, r.time);
  return least;
}

BatchPtr Batcher::seal(Timestamp upper, Timestamp since) {
  assert(upper >= lower_);
  const Description description{lower_, upper, since};
  lower_ = upper;

  const auto ready_end = std::partition(records_.begin(), records_.end(),
                                        [upper](const Record& r) { return r.time < upper; });
  for (auto it = records_.begin(); it != ready_end; ++it) it->time = std::max(it->time, since);

  const char* arena = arena_.data();
  sort_records(arena, records_.begin(), ready_end);

  BatchBuilder builder;
  const std::uint64_t ready = ready_end - records_.begin();
  std::uint64_t key_bytes = 0;
  std::uint64_t val_bytes = 0;
  for (auto it = records_.begin(); it != ready_end; ++it) {
    key_bytes += it->key_len;
    val_bytes += it->val_len;
  }
  builder.reserve(ready, key_bytes, ready, val_bytes, ready);
  const Record* prev = nullptr;  // last record whose key/val was opened
  // Records are sorted but their bytes are scattered in push order, so fetch
  // ahead to hide the cache misses.
  constexpr std::ptrdiff_t kPrefetchDistance = 16;
  for (auto it = records_.begin(); it != ready_end;) {
    if (ready_end - it > kPrefetchDistance)
      __builtin_prefetch(arena + it[kPrefetchDistance].offset);
    // Consolidate the run of equal (key, val, time).
    Diff sum = it->diff;
    auto run_end = it + 1;
    while (run_end != ready_end && run_end->time == it->time &&
           compare_key_val(arena, *run_end, *it) == 0) {
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
  BatchPtr batch = builder.done(description);

  // Keep the not-yet-ready updates, compacting the arena to their bytes.
  std::string kept_arena;
  std::vector<Record> kept;
  kept.reserve(records_.end() - ready_end);
  for (auto it = ready_end; it != records_.end(); ++it) {
    Record r = *it;
    r.offset = kept_arena.size();
    kept_arena.append(arena + it->offset, it->key_len + it->val_len);
    kept.push_back(r);
  }
  arena_ = std::move(kept_arena);
  records_ = std::move(kept);
  return batch;
}

}  // namespace tandem::compute
