#include "compute/arrangement/batcher.hpp"

#include <catch2/catch.hpp>

#include "compute/arrangement/builder.hpp"
#include "compute/arrangement/test_support.hpp"

namespace tandem::compute {
namespace {

using testing::Update;

TEST_CASE("batcher consolidates duplicates and drops cancellations", "[arrangement][batcher]") {
  Batcher batcher(10);
  batcher.push("b", "x", 12, 1);
  batcher.push("a", "y", 11, 2);
  batcher.push("a", "y", 11, 3);  // same (key, val, time): summed
  batcher.push("a", "x", 10, 1);
  batcher.push("b", "x", 12, -1);  // cancels to zero: dropped
  batcher.push("a", "x", 13, -1);
  batcher.push("c", "z", 25, 4);  // beyond upper: stays buffered
  batcher.push("a", "x", 10, 0);  // zero diff: ignored

  BatchPtr batch = batcher.seal(20);
  CHECK(batch->description() == Description{10, 20, 0});
  CHECK(testing::dump(batch) ==
        std::vector<Update>{{"a", "x", 10, 1}, {"a", "x", 13, -1}, {"a", "y", 11, 5}});
  CHECK(batch->key_count() == 1);  // "b" vanished entirely
  CHECK(batch->val_count() == 2);
  CHECK(batch->update_count() == 3);
  CHECK(batch->memory_bytes() > 0);
  CHECK(batcher.lower() == 20);
  CHECK(batcher.buffered() == 1);

  BatchPtr next = batcher.seal(30);
  CHECK(next->description() == Description{20, 30, 0});
  CHECK(testing::dump(next) == std::vector<Update>{{"c", "z", 25, 4}});
  CHECK(batcher.buffered() == 0);

  BatchPtr empty = batcher.seal(40);
  CHECK(empty->is_empty());
  CHECK(empty->description() == Description{30, 40, 0});
}

TEST_CASE("batcher orders keys by unsigned bytes, including prefix ties",
          "[arrangement][batcher]") {
  Batcher batcher;
  const std::vector<std::string> keys = {
      std::string("a\0", 2),       "a", "\xff", "\x7f", "abcdefgh", "abcdefghi", "abcdefgg\xff", "",
      std::string("abcdefgh\0", 9)};
  for (const auto& k : keys) batcher.push(k, "v", 0, 1);
  BatchPtr batch = batcher.seal(1);
  std::vector<std::string> sorted = keys;
  std::sort(sorted.begin(), sorted.end());  // std::string compares as unsigned char
  std::vector<std::string> got;
  for (const auto& [k, v, t, d] : testing::dump(batch)) got.push_back(k);
  CHECK(got == sorted);
}

TEST_CASE("batcher seal with since advances times before consolidating", "[arrangement][batcher]") {
  Batcher batcher;
  batcher.push("k", "v", 1, 1);
  batcher.push("k", "v", 3, 2);
  batcher.push("k", "v", 7, 1);
  batcher.push("k", "w", 2, 1);
  batcher.push("k", "w", 4, -1);
  BatchPtr batch = batcher.seal(10, 5);
  CHECK(batch->description() == Description{0, 10, 5});
  CHECK(testing::dump(batch) == std::vector<Update>{{"k", "v", 5, 3}, {"k", "v", 7, 1}});
}

TEST_CASE("batcher matches a naive consolidation on random input", "[arrangement][batcher]") {
  std::mt19937_64 rng(42);
  Batcher batcher;
  std::vector<Update> pending;
  Timestamp lower = 0;
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 2000; ++i) {
      const Timestamp t = lower + rng() % 40;
      const Diff d = static_cast<Diff>(rng() % 5) - 2;
      std::string k = testing::random_bytes(rng, 50);
      std::string v = testing::random_bytes(rng, 4);
      batcher.push(k, v, t, d);
      pending.emplace_back(k, v, t, d);
    }
    const Timestamp upper = lower + 10 + rng() % 20;
    std::vector<Update> ready;
    std::vector<Update> later;
    for (auto& u : pending) (std::get<2>(u) < upper ? ready : later).push_back(u);
    BatchPtr batch = batcher.seal(upper);
    REQUIRE(batch->lower() == lower);
    REQUIRE(batch->upper() == upper);
    REQUIRE(testing::dump(batch) == testing::consolidate(ready));
    pending = std::move(later);
    lower = upper;
  }
}

TEST_CASE("batcher sorts short keys and vals with prefix ties like a naive sort",
          "[arrangement][batcher]") {
  // Keys and vals of 0..12 bytes over a tiny alphabet (with 0x00) tie on
  // their 8-byte prefixes often; enough records to take the bucketed sort.
  std::mt19937_64 rng(7);
  auto short_bytes = [&](std::size_t max_len) {
    std::string s(rng() % (max_len + 1), '\0');
    for (char& c : s) c = "\0a\xff"[rng() % 3];
    return s;
  };
  for (int round = 0; round < 3; ++round) {
    Batcher batcher(0);
    std::vector<Update> pushed;
    for (int i = 0; i < 20000; ++i) {
      std::string k = short_bytes(round == 2 ? 20 : 12);
      std::string v = short_bytes(12);
      const Timestamp t = rng() % 3;
      const Diff d = static_cast<Diff>(rng() % 3) - 1;
      batcher.push(k, v, t, d);
      pushed.emplace_back(std::move(k), std::move(v), t, d);
    }
    REQUIRE(testing::dump(batcher.seal(3)) == testing::consolidate(pushed));
  }
}

TEST_CASE("batcher radix sort agrees with a naive sort on packed-integer-like keys",
          "[arrangement][batcher]") {
  // Exercises the radix passes over the second prefix word: equal-length
  // keys whose first 8 bytes tie (9-byte "tag + big-endian int" keys, and
  // 8-byte keys, where the second word is the val's prefix), keys of mixed
  // lengths sharing their first 8 bytes (comparison fallback), and input
  // that is already sorted, or sorted but for one pair.
  std::mt19937_64 rng(11);
  auto be_int = [](std::uint64_t v, std::size_t len) {
    std::string s(len, '\0');
    for (std::size_t i = 0; i < len; ++i) s[len - 1 - i] = static_cast<char>(v >> (8 * i));
    return s;
  };
  for (int round = 0; round < 5; ++round) {
    Batcher batcher(0);
    std::vector<Update> pushed;
    for (int i = 0; i < 30000; ++i) {
      std::string k;
      std::string v = testing::random_bytes(rng, 12);
      switch (round) {
        case 0: k = "\x14" + be_int(rng() % 70000, 8); break;
        case 1: k = be_int(rng() % 3, 8); v = std::string(rng() % 10, 'x') + be_int(rng() % 300, 2); break;
        case 2: k = "common!!" + std::string(rng() % 3, static_cast<char>(rng() % 2)); break;
        default: k = "\x14" + be_int(static_cast<std::uint64_t>(i), 8); v = "v"; break;
      }
      const Timestamp t = rng() % 3;
      const Diff d = static_cast<Diff>(rng() % 3) - 1;
      pushed.emplace_back(std::move(k), std::move(v), t, d);
    }
    if (round == 4) std::swap(pushed[100], pushed[29000]);
    for (const auto& [k, v, t, d] : pushed) batcher.push(k, v, t, d);
    REQUIRE(testing::dump(batcher.seal(3)) == testing::consolidate(pushed));
  }
}

TEST_CASE("builder drops keys and vals that receive no update", "[arrangement][builder]") {
  BatchBuilder builder;
  builder.push_key("a");
  builder.push_val("1");  // no update: dropped
  builder.push_val("2");
  builder.push_update(3, 1);
  builder.push_key("b");  // no val: dropped
  builder.push_key("c");
  builder.push_val("1");  // no update: dropped, so "c" is dropped too
  builder.push_key("d");
  builder.push_val("9");
  builder.push_update(1, -2);
  builder.push_update(4, 2);
  BatchPtr batch = builder.done({0, 5, 0});
  CHECK(testing::dump(batch) ==
        std::vector<Update>{{"a", "2", 3, 1}, {"d", "9", 1, -2}, {"d", "9", 4, 2}});
  CHECK(batch->key_count() == 2);
  CHECK(batch->val_count() == 2);
}

}  // namespace
}  // namespace tandem::compute
