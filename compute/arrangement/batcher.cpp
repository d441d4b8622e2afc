#include "compute/arrangement/batcher.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <utility>

#include "compute/arrangement/builder.hpp"

namespace tandem::compute {

namespace {

std::uint64_t key_prefix(std::string_view key) {
  unsigned char bytes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  std::memcpy(bytes, key.data(), std::min<std::size_t>(key.size(), 8));
  std::uint64_t prefix = 0;
  for (const unsigned char b : bytes) prefix = (prefix << 8) | b;
  return prefix;
}

int compare_bytes(const char* a, std::size_t a_len, const char* b, std::size_t b_len) {
  const int c = std::memcmp(a, b, std::min(a_len, b_len));
  if (c != 0) return c;
  return a_len < b_len ? -1 : (a_len > b_len ? 1 : 0);
}

// Compares (key, val) of two records; time is compared by the callers.
int compare_key_val(const char* arena, const Batcher::Record& a, const Batcher::Record& b) {
  if (a.prefix != b.prefix) return a.prefix < b.prefix ? -1 : 1;
  const char* pa = arena + a.offset;
  const char* pb = arena + b.offset;
  // Equal prefixes of short keys still differ in length ("a" vs "a\0").
  int c = compare_bytes(pa, a.key_len, pb, b.key_len);
  if (c != 0) return c;
  return compare_bytes(pa + a.key_len, a.val_len, pb + b.key_len, b.val_len);
}

bool same_key(const char* arena, const Batcher::Record& a, const Batcher::Record& b) {
  return a.prefix == b.prefix && a.key_len == b.key_len &&
         std::memcmp(arena + a.offset, arena + b.offset, a.key_len) == 0;
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
  records_.push_back(Record{key_prefix(key), offset, static_cast<std::uint32_t>(key.size()),
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
  builder.reserve(ready, 0, ready, 0, ready);
  const Record* prev = nullptr;  // last record whose key/val was opened
  for (auto it = records_.begin(); it != ready_end;) {
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
