// CollectionFrontiers: an index's since follows its upper less the lag,
// never passes a read hold or a table hold, never moves back; dropping the
// hold that kept it back wakes the coordinator; only exported indexes ask
// compute to compact.
#include "frontend/coord/frontiers.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

using tandem::frontend::CollectionFrontiers;

TEST_CASE("an index's since trails its upper by the lag") {
  CollectionFrontiers f;
  f.set_table_upper(1'000'000);  // reads come at times up to here
  f.set_compaction_lag(100);
  f.add_index(7, 1000, /*cluster=*/3, /*exported=*/true);
  CHECK(f.advance_index_sinces().empty());  // upper 1000: nothing to compact yet
  f.advance_index(7, 1500);
  auto allowed = f.advance_index_sinces();
  REQUIRE(allowed.size() == 1);
  CHECK(allowed[0].id == 7);
  CHECK(allowed[0].cluster == 3);
  CHECK(allowed[0].since == 1400);
  CHECK(f.get(7)->since == 1400);
  CHECK(f.advance_index_sinces().empty());  // unchanged: nothing to send
  // An upper report that would move back is ignored.
  f.advance_index(7, 1200);
  CHECK(f.get(7)->upper == 1500);
  // A view's since moves too, but compute is not asked to compact it.
  f.add_index(8, 1000);
  f.advance_index(8, 2000);
  allowed = f.advance_index_sinces();
  CHECK(allowed.empty());
  CHECK(f.get(8)->since == 1900);
}

TEST_CASE("a complete collection's since stays behind the times reads take") {
  // A view of constants is complete at once: its upper is the maximum time.
  CollectionFrontiers f;
  f.set_compaction_lag(100);
  f.set_table_upper(5000);
  f.add_index(9, 1000, /*cluster=*/3, /*exported=*/true);
  f.advance_index(9, tandem::kMaxTimestamp);
  f.advance_index_sinces();
  CHECK(f.get(9)->since == 4900);
  f.set_table_upper(6000);
  f.advance_index_sinces();
  CHECK(f.get(9)->since == 5900);
}

TEST_CASE("a read hold keeps an index's since back until it is dropped") {
  CollectionFrontiers f;
  f.set_table_upper(1'000'000);  // reads come at times up to here
  f.set_compaction_lag(10);
  int woken = 0;
  f.set_release_waker([&] { ++woken; });
  f.add_index(7, 100, 1, true);
  f.add_index(9, 100, 1, true);
  {
    auto hold = f.hold({7, 42}, /*at_least=*/150);  // 42 is unknown: skipped
    CHECK(hold.time(7) == 150);
    CHECK_FALSE(hold.time(42).has_value());
    f.advance_index(7, 1000);
    f.advance_index(9, 1000);
    auto allowed = f.advance_index_sinces();
    REQUIRE(allowed.size() == 2);
    CHECK(f.get(7)->since == 150);  // held
    CHECK(f.get(9)->since == 990);
    // A hold taken now lands at the since, not below it.
    auto late = f.hold({9});
    CHECK(late.time(9) == 990);
    CHECK(woken == 0);
  }
  CHECK(woken == 1);  // the hold kept 7 back: recompute
  auto allowed = f.advance_index_sinces();
  REQUIRE(allowed.size() == 1);
  CHECK(allowed[0].since == 990);
  // A hold above the since keeps nothing back: dropping it wakes no one.
  { auto hold = f.hold({7}, 2000); }
  CHECK(woken == 1);
}

TEST_CASE("a table hold keeps every index's since back") {
  CollectionFrontiers f;
  f.set_table_upper(1'000'000);  // reads come at times up to here
  f.set_compaction_lag(10);
  int woken = 0;
  f.set_release_waker([&] { ++woken; });
  f.add_index(7, 100, 1, true);
  f.advance_index(7, 1000);
  {
    auto hold = f.hold_tables_at(300);
    f.advance_index_sinces();
    CHECK(f.get(7)->since == 300);
    CHECK(f.advance_table_since(900) == 300);
  }
  CHECK(woken == 1);
  f.advance_index_sinces();
  CHECK(f.get(7)->since == 990);
  // A table hold below the since changes nothing and never pulls it back.
  auto hold = f.hold_tables_at(200);
  f.advance_index(7, 2000);
  f.advance_index_sinces();
  CHECK(f.get(7)->since == 990);
}

TEST_CASE("holds are taken and dropped from many threads while the since advances") {
  CollectionFrontiers f;
  f.set_table_upper(1'000'000);  // reads come at times up to here
  f.set_compaction_lag(1);
  f.set_release_waker([] {});
  f.add_index(7, 0, 1, true);
  std::atomic<bool> stop{false};
  std::atomic<int> violations{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 4; ++r) {
    readers.emplace_back([&] {
      while (!stop) {
        auto hold = f.hold({7});
        const auto at = *hold.time(7);
        // Whatever the coordinator does meanwhile, the since stays at or
        // below the hold while it lives.
        if (f.get(7)->since > at) ++violations;
      }
    });
  }
  for (tandem::Timestamp upper = 1; upper < 20000; ++upper) {
    f.advance_index(7, upper);
    f.advance_index_sinces();
  }
  stop = true;
  for (auto& t : readers) t.join();
  CHECK(violations == 0);
}
