// Runtime::peek_if_ready (the inline fast path): it answers
// exactly what a Peek command answers once the time is sealed, declines
// (nullopt) before that, below since, over budget and after a drop, and
// stays correct while another thread keeps the index changing; an IndexScan
// over the same sealed snapshots, read in pieces, answers the same rows.
#include <catch2/catch.hpp>

#include <atomic>
#include <set>
#include <thread>

#include "compute/testing/harness.hpp"

namespace tandem::compute {
namespace {

using testing::Harness;
using testing::source;

using testing::row2;
using testing::key;
auto rows_of(const PeekResponse& r) { return testing::row_multiset(r); }

// Waits until peek_if_ready answers `peek` (the workers publish after their
// step), at most 10 s.
std::optional<PeekResponse> wait_inline(Runtime& rt, const Peek& peek, std::size_t budget) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto r = rt.peek_if_ready(peek, budget)) return r;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("an inline peek answers what a Peek command answers, once sealed", "[runtime]") {
  for (const std::size_t workers : {1, 2}) {
    Harness h(workers, {1});
    h.install(source(1), 7);
    for (int a = 0; a < 20; ++a) h.update(1, row2(a, a * 10), 1, 1);
    h.update(1, row2(3, 30), 2, 1);  // a second copy at time 2
    h.advance_all(2);                // time 1 sealed, 2 not yet

    Peek lookup{0, 7, 1, std::vector<Row>{key(3), key(42)}, MapFilterProject::identity(2)};
    auto at1 = wait_inline(h.runtime(), lookup, 0);
    REQUIRE(at1.has_value());
    REQUIRE(at1->kind == PeekResponse::Kind::kRows);
    CHECK(rows_of(*at1) == std::multiset<std::string>{std::string(row2(3, 30).bytes())});

    Peek at2 = lookup;
    at2.time = 2;
    CHECK_FALSE(h.runtime().peek_if_ready(at2, 1024).has_value());  // not sealed: park it instead
    h.advance_all(3);
    auto sealed = wait_inline(h.runtime(), at2, 0);
    REQUIRE(sealed.has_value());
    CHECK(rows_of(*sealed).size() == 2);

    // A full scan agrees with the Peek command's answer, within budget only.
    Peek scan{0, 7, 2, std::nullopt, MapFilterProject::identity(2)};
    CHECK_FALSE(h.runtime().peek_if_ready(scan, 5).has_value());
    auto inline_scan = wait_inline(h.runtime(), scan, 1024);
    REQUIRE(inline_scan.has_value());
    CHECK(rows_of(*inline_scan) == rows_of(h.peek(7, 2, 2)));
    CHECK(rows_of(*inline_scan).size() == 21);
  }
}

TEST_CASE("an inline peek declines unknown, dropped and compacted indexes", "[runtime]") {
  Harness h(2, {1});
  Peek unknown{0, 99, 0, std::nullopt, MapFilterProject::identity(2)};
  CHECK_FALSE(h.runtime().peek_if_ready(unknown, 1024).has_value());
  h.install(source(1), 7, /*as_of=*/5);
  h.update(1, row2(1, 1), 6, 1);
  h.advance_all(10);
  Peek ok{0, 7, 6, std::nullopt, MapFilterProject::identity(2)};
  REQUIRE(wait_inline(h.runtime(), ok, 1024).has_value());
  Peek early{0, 7, 4, std::nullopt, MapFilterProject::identity(2)};
  CHECK_FALSE(h.runtime().peek_if_ready(early, 1024).has_value());  // below since: the Peek command errs
  h.runtime().send(DropDataflow{7});
  CHECK_FALSE(h.runtime().peek_if_ready(ok, 1024).has_value());
}

TEST_CASE("inline peeks from several threads while the index changes", "[runtime][concurrency]") {
  Harness h(2, {1});
  h.install(source(1), 7);
  // Each time t holds the rows (k, t) for k < 8, replacing those of t - 1.
  for (int k = 0; k < 8; ++k) h.update(1, row2(k, 1), 1, 1);
  h.advance_all(2);
  std::atomic<bool> stop{false};
  std::atomic<int> answered{0}, wrong{0};
  std::atomic<Timestamp> sealed{1};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      while (!stop) {
        const Timestamp t = sealed.load();
        Peek p{0, 7, t, std::vector<Row>{key(2), key(5)}, MapFilterProject::identity(2)};
        auto resp = h.runtime().peek_if_ready(p, 0);
        if (!resp) continue;
        ++answered;
        auto rows = rows_of(*resp);
        std::multiset<std::string> want{std::string(row2(2, static_cast<int>(t)).bytes()),
                                        std::string(row2(5, static_cast<int>(t)).bytes())};
        if (resp->kind != PeekResponse::Kind::kRows || rows != want) ++wrong;
      }
    });
  }
  for (int t = 2; t < 200; ++t) {
    for (int k = 0; k < 8; ++k) {
      h.update(1, row2(k, t - 1), t, -1);
      h.update(1, row2(k, t), t, 1);
    }
    h.advance_all(t + 1);
    sealed = static_cast<Timestamp>(t - 1);
  }
  // Readers stop once one of them has answered at the final sealed time
  // (on a loaded machine they may not have run at all before the writer
  // finished); the read of the last time must be answerable.
  const int before = answered.load();
  while (answered.load() <= before) std::this_thread::yield();
  stop = true;
  for (auto& t : readers) t.join();
  CHECK(answered > 0);
  CHECK(wrong == 0);
}

TEST_CASE("an index scan read in small pieces answers what a Peek command answers", "[runtime]") {
  for (const std::size_t workers : {1, 2}) {
    Harness h(workers, {1});
    h.install(source(1), 7);
    for (int a = 0; a < 50; ++a) h.update(1, row2(a, a % 3), 1, 1 + a % 2);
    h.update(1, row2(4, 1), 2, 1);  // a later time, not read at 1
    h.advance_all(3);
    Peek scan_peek{0, 7, 1, std::nullopt, MapFilterProject::identity(2)};
    REQUIRE(wait_inline(h.runtime(), scan_peek, 1 << 20).has_value());  // published and sealed
    Peek lookup = scan_peek;
    lookup.literal_keys = std::vector<Row>{key(1)};
    CHECK_FALSE(h.runtime().scan_if_ready(lookup).has_value());  // lookups are answered whole
    for (const std::size_t fuel : {1, 3, 1000}) {
      auto opened = h.runtime().scan_if_ready(scan_peek);
      REQUIRE(opened.has_value());
      REQUIRE(opened->ok());
      auto& scan = opened->value();
      PeekResponse collected;
      std::size_t pieces = 0;
      while (!scan->done()) {
        auto piece = scan->next(fuel);
        REQUIRE(piece.ok());
        CHECK(piece->size() <= fuel);
        for (auto& r : *piece) collected.rows.push_back(std::move(r));
        ++pieces;
      }
      CHECK(rows_of(collected) == rows_of(h.peek(7, 1, 2)));
      CHECK(rows_of(collected).size() == 75);
      if (fuel == 1) CHECK(pieces >= 50);
    }
    Peek unsealed = scan_peek;
    unsealed.time = 3;
    CHECK_FALSE(h.runtime().scan_if_ready(unsealed).has_value());
  }
}

}  // namespace tandem::compute
