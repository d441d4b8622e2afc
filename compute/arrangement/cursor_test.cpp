#include "compute/arrangement/cursor.hpp"

#include <catch2/catch.hpp>

#include "compute/arrangement/batcher.hpp"
#include "compute/arrangement/cursor_list.hpp"
#include "compute/arrangement/test_support.hpp"

namespace tandem::compute {
namespace {

std::string key_of(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "k%05d", i);
  return buf;
}

TEST_CASE("batch cursor seeks forward to the first key >= target", "[arrangement][cursor]") {
  Batcher batcher;
  for (int i = 0; i < 1000; i += 2) {
    for (const char* v : {"v0", "v1", "v2"}) batcher.push(key_of(i), v, 1, 1);
  }
  BatchCursor cursor(batcher.seal(2));
  REQUIRE(cursor.key_valid());
  CHECK(cursor.key() == key_of(0));

  cursor.seek_key(key_of(10));  // exact
  CHECK(cursor.key() == key_of(10));
  cursor.seek_key(key_of(11));  // absent: next key
  CHECK(cursor.key() == key_of(12));
  cursor.seek_key(key_of(12));  // current: stays
  CHECK(cursor.key() == key_of(12));
  cursor.seek_key(key_of(4));  // backward target: no move
  CHECK(cursor.key() == key_of(12));
  cursor.seek_key(key_of(777));  // long gallop
  CHECK(cursor.key() == key_of(778));

  // Vals of the current key.
  REQUIRE(cursor.val_valid());
  CHECK(cursor.val() == "v0");
  cursor.seek_val("v1");
  CHECK(cursor.val() == "v1");
  cursor.seek_val("v15");
  CHECK(cursor.val() == "v2");
  cursor.step_val();
  CHECK_FALSE(cursor.val_valid());
  cursor.rewind_vals();
  CHECK(cursor.val() == "v0");
  cursor.seek_val("w");
  CHECK_FALSE(cursor.val_valid());

  cursor.step_key();
  CHECK(cursor.key() == key_of(780));
  CHECK(cursor.val() == "v0");  // moving keys resets vals

  cursor.seek_key("z");
  CHECK_FALSE(cursor.key_valid());
  cursor.rewind_keys();
  CHECK(cursor.key() == key_of(0));

  // Every target in turn lands on the right key.
  cursor.rewind_keys();
  for (int i = 0; i < 1000; ++i) {
    cursor.seek_key(key_of(i));
    REQUIRE(cursor.key_valid() == (i <= 998));
    if (i <= 998) REQUIRE(cursor.key() == key_of(i % 2 == 0 ? i : i + 1));
  }
}

TEST_CASE("cursor list merges keys and vals across batches", "[arrangement][cursor]") {
  Batcher batcher;
  batcher.push("a", "1", 0, 1);
  batcher.push("c", "1", 0, 1);
  const BatchPtr b1 = batcher.seal(10);
  batcher.push("a", "1", 10, -1);
  batcher.push("a", "2", 11, 1);
  batcher.push("b", "1", 12, 1);
  const BatchPtr b2 = batcher.seal(20);
  batcher.push("c", "0", 20, 2);
  batcher.push("c", "1", 21, 5);
  const BatchPtr b3 = batcher.seal(30);
  const BatchPtr gap = batcher.seal(40);  // empty

  CursorList list({b1, b2, gap, b3});
  std::vector<std::pair<std::string, std::string>> seen;
  Diff total = 0;
  for (; list.key_valid(); list.step_key()) {
    for (; list.val_valid(); list.step_val()) {
      seen.emplace_back(list.key(), list.val());
      list.for_each_time([&](Timestamp, Diff d) { total += d; });
    }
  }
  using P = std::pair<std::string, std::string>;
  CHECK(seen == std::vector<P>{{"a", "1"}, {"a", "2"}, {"b", "1"}, {"c", "0"}, {"c", "1"}});
  CHECK(total == 1 + 1 - 1 + 1 + 1 + 2 + 5);

  list.rewind_keys();
  list.seek_key("b");
  CHECK(list.key() == "b");
  list.seek_key("bb");
  CHECK(list.key() == "c");
  list.seek_val("1");
  REQUIRE(list.val_valid());
  CHECK(list.val() == "1");
  Diff c1 = 0;
  list.for_each_time([&](Timestamp, Diff d) { c1 += d; });
  CHECK(c1 == 6);
  list.rewind_vals();
  CHECK(list.val() == "0");

  list.rewind_keys();
  CHECK(testing::read_as_of(list, 9) == testing::Contents{{{"a", "1"}, 1}, {{"c", "1"}, 1}});
  list.rewind_keys();
  CHECK(testing::read_as_of(list, 25) ==
        testing::Contents{{{"a", "2"}, 1}, {{"b", "1"}, 1}, {{"c", "0"}, 2}, {{"c", "1"}, 6}});
}

}  // namespace
}  // namespace tandem::compute
