// PeekStash: rows come back exactly as written, in order, across many
// blocks and whatever read sizes; a dropped stash leaves no key behind,
// also one dropped before it was read (a canceled statement); what a
// previous process left is discarded when the stash is opened.
#include "storage/peek_stash.hpp"

#include <catch2/catch.hpp>

#include <rocksdb/db.h>

#include "storage/test_support.hpp"

using tandem::Datum;
using tandem::Row;
using tandem::storage::Family;
using tandem::storage::PeekStash;
using tandem::storage::testing::ScratchDir;
using tandem::storage::testing::open_durable;

namespace {

Row row_of(int64_t i) {
  const std::string text(static_cast<std::size_t>((i < 0 ? -i : i) % 300), 'r');
  Datum d[2] = {Datum::from_int64(i), Datum::from_string(text)};
  return Row::pack(d);
}

}  // namespace

TEST_CASE("a stash returns its rows in order and leaves nothing when dropped") {
  ScratchDir dir;
  auto store = open_durable(dir.path(), false);
  auto stash = PeekStash::open(*store);
  REQUIRE(stash.ok());
  constexpr int64_t kRows = 50000;  // ~8 MB: well over a hundred blocks
  auto rows = (*stash)->begin();
  int64_t bytes = 0;
  for (int64_t i = 0; i < kRows; ++i) {
    Row r = row_of(i);
    bytes += static_cast<int64_t>(r.size());
    REQUIRE(rows->append(r).is_ok());
  }
  REQUIRE(rows->seal().is_ok());
  CHECK(rows->rows() == kRows);
  CHECK(rows->bytes() == bytes);
  CHECK((*stash)->stats().live == 1);
  CHECK((*stash)->stats().live_bytes == bytes);
  auto blocks = PeekStash::count_blocks(*store);
  REQUIRE(blocks.ok());
  CHECK(*blocks > 100);
  CHECK(*blocks < 200);

  // Odd read sizes, across block boundaries.
  int64_t next = 0;
  const std::size_t sizes[] = {1, 7, 0, 1000, 3};
  for (int k = 0;; ++k) {
    auto got = rows->read(sizes[k % 5]);
    REQUIRE(got.ok());
    if (got->empty()) break;
    if (sizes[k % 5] != 0) CHECK(got->size() <= sizes[k % 5]);
    for (const Row& r : *got) {
      INFO("row " << next << " read size " << sizes[k % 5]);
      REQUIRE(r == row_of(next++));
    }
  }
  CHECK(next == kRows);
  REQUIRE(rows->read(0).ok());
  CHECK(rows->read(0)->empty());

  rows.reset();
  CHECK((*stash)->stats().live == 0);
  CHECK((*stash)->stats().live_bytes == 0);
  CHECK((*stash)->stats().created == 1);
  CHECK(*PeekStash::count_blocks(*store) == 0);
}

TEST_CASE("a stash dropped before it is read, and stashes of several results at once") {
  ScratchDir dir;
  auto store = open_durable(dir.path(), false);
  auto stash = *PeekStash::open(*store);
  auto a = stash->begin();
  auto b = stash->begin();
  CHECK(a->id() != b->id());
  for (int64_t i = 0; i < 20000; ++i) {
    REQUIRE(a->append(row_of(i)).is_ok());
    REQUIRE(b->append(row_of(-i)).is_ok());
  }
  REQUIRE(a->seal().is_ok());
  REQUIRE(b->seal().is_ok());
  a.reset();  // never read: canceled
  CHECK(stash->stats().live == 1);
  int64_t n = 0;
  for (;;) {
    auto got = b->read(0);
    REQUIRE(got.ok());
    if (got->empty()) break;
    for (const Row& r : *got) REQUIRE(r == row_of(-(n++)));
  }
  CHECK(n == 20000);
  // An empty stash writes nothing.
  auto empty = stash->begin();
  REQUIRE(empty->seal().is_ok());
  CHECK(empty->read(5)->empty());
  empty.reset();
  b.reset();
  CHECK(*PeekStash::count_blocks(*store) == 0);
}

TEST_CASE("opening the stash discards what a previous process left") {
  ScratchDir dir;
  {
    // A process that died while a statement had stashed rows: its blocks
    // were flushed to disk and never deleted.
    auto store = open_durable(dir.path(), false);
    for (char block = 0; block < 3; ++block) {
      std::string key(16, '\0');
      key[7] = 9;
      key[15] = block;
      REQUIRE(store->db()->Put(rocksdb::WriteOptions(), store->handle(Family::kStash), key, "left").ok());
    }
    REQUIRE(store->close().is_ok());
  }
  auto store = open_durable(dir.path(), false);
  CHECK(*PeekStash::count_blocks(*store) == 3);
  auto stash = *PeekStash::open(*store);
  CHECK(stash->stats().discarded == 3);
  CHECK(*PeekStash::count_blocks(*store) == 0);
  CHECK(stash->stats().live == 0);
}
