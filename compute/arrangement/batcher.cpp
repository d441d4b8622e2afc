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

constexpr std::uint32_t kInlineKeyBytes = 16;

int compare_bytes(const char* a, std::size_t a_len, const char* b, std::size_t b_len) {
  const int c = std::memcmp(a, b, std::min(a_len, b_len));
  if (c != 0) return c;
  return a_len < b_len ? -1 : (a_len > b_len ? 1 : 0);
}

// Compares (key, val) of two records; time is compared by the callers.
int compare_key_val(const char* arena, const Batcher::Record& a, const Batcher::Record& b) {
  if (a.prefix_hi != b.prefix_hi) return a.prefix_hi < b.prefix_hi ? -1 : 1;
  if (a.prefix_lo != b.prefix_lo) return a.prefix_lo < b.prefix_lo ? -1 : 1;
  const char* pa = arena + a.offset;
  const char* pb = arena + b.offset;
  if (a.key_len <= kInlineKeyBytes && b.key_len <= kInlineKeyBytes) {
    // Equal zero-padded prefixes: the keys differ at most in length
    // ("a" < "a\0"), which needs no arena access.
    if (a.key_len != b.key_len) return a.key_len < b.key_len ? -1 : 1;
  } else {
    const int c = compare_bytes(pa, a.key_len, pb, b.key_len);
    if (c != 0) return c;
  }
  return compare_bytes(pa + a.key_len, a.val_len, pb + b.key_len, b.val_len);
}

bool same_key(const char* arena, const Batcher::Record& a, const Batcher::Record& b) {
  return a.prefix_hi == b.prefix_hi && a.prefix_lo == b.prefix_lo && a.key_len == b.key_len &&
         (a.key_len <= kInlineKeyBytes ||
          std::memcmp(arena + a.offset, arena + b.offset, a.key_len) == 0);
}

bool same_val(const char* arena, const Batcher::Record& a, const Batcher::Record& b) {
  return a.val_len == b.val_len &&
         std::memcmp(arena + a.offset + a.key_len, arena + b.offset + b.key_len, a.val_len) == 0;
}

}  // namespace

void Batcher::push(std::string_view key, std::string_view val, Timestamp time, Diff diff) {
  assert(time >= lower_);
  if (diff == 0) return;
  const std::uint64_t offset = arena_.size();
  arena_.append(key);
  arena_.append(val);
  records_.push_back(Record{key_prefix(key, 0), key_prefix(key, 8), offset,
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
  std::sort(records_.begin(), ready_end, [arena](const Record& a, const Record& b) {
    const int c = compare_key_val(arena, a, b);
    return c != 0 ? c < 0 : a.time < b.time;
  });

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
