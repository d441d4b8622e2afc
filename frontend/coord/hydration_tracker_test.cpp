// HydrationTracker: hydrated once the output frontier passes the as_of,
// with the time that took; sinks are found by sink id and by export id;
// a drop forgets the export; concurrent readers see consistent entries.
#include "frontend/coord/hydration_tracker.hpp"

#include <catch2/catch.hpp>

#include <thread>

using tandem::frontend::HydrationTracker;

namespace {

const tandem::catalog::ComputeObjectStatus* find(const std::vector<tandem::catalog::ComputeObjectStatus>& all,
                                                 uint64_t id) {
  for (const auto& s : all) {
    if (s.object_id == id) return &s;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("an index is hydrated once its upper passes its as_of") {
  HydrationTracker tracker;
  auto start = HydrationTracker::Clock::now();
  tracker.created(7, 7, 1, 100, start);
  auto s = tracker.statuses();
  REQUIRE(s.size() == 1);
  CHECK_FALSE(s[0].hydrated);
  CHECK_FALSE(s[0].hydration_time_us);
  CHECK(s[0].write_frontier == 100);

  tracker.advanced(7, 100, start + std::chrono::milliseconds(5));  // not past the as_of
  CHECK_FALSE(tracker.statuses()[0].hydrated);
  tracker.advanced(7, 101, start + std::chrono::milliseconds(30));
  s = tracker.statuses();
  CHECK(s[0].hydrated);
  CHECK(s[0].hydration_time_us == 30000);
  CHECK(s[0].write_frontier == 101);
  // Later reports move the frontier, never the hydration time.
  tracker.advanced(7, 200, start + std::chrono::milliseconds(90));
  s = tracker.statuses();
  CHECK(s[0].hydration_time_us == 30000);
  CHECK(s[0].write_frontier == 200);
  tracker.advanced(7, 150, start + std::chrono::milliseconds(95));  // frontiers never regress
  CHECK(tracker.statuses()[0].write_frontier == 200);

  tracker.dropped(7);
  CHECK(tracker.statuses().empty());
}

TEST_CASE("a sink is tracked under its object and reached by either id") {
  HydrationTracker tracker;
  auto start = HydrationTracker::Clock::now();
  tracker.created(/*object=*/20, /*export_id=*/21, 3, 50, start);
  tracker.advanced(21, 51, start + std::chrono::milliseconds(1));  // FrontierUpper of the export
  auto s = tracker.statuses();
  REQUIRE(find(s, 20) != nullptr);
  CHECK(find(s, 20)->hydrated);
  CHECK(find(s, 20)->cluster == 3);
  tracker.advanced(20, 70, start + std::chrono::milliseconds(2));  // SinkBatch of the sink
  CHECK(find(tracker.statuses(), 20)->write_frontier == 70);
  tracker.advanced(99, 1000);  // unknown: ignored
  CHECK(tracker.statuses().size() == 1);
  tracker.dropped(20);  // not an export id: nothing happens
  CHECK(tracker.statuses().size() == 1);
  tracker.dropped(21);
  CHECK(tracker.statuses().empty());
}

TEST_CASE("statuses can be read while the coordinator updates them", "[concurrency]") {
  HydrationTracker tracker;
  std::atomic<bool> done{false};
  std::thread reader([&] {
    while (!done.load()) {
      for (const auto& s : tracker.statuses()) REQUIRE(s.write_frontier >= s.as_of);
    }
  });
  for (uint64_t i = 1; i <= 2000; ++i) {
    tracker.created(i, i, 1, i);
    tracker.advanced(i, i + 1);
    if (i % 2 == 0) tracker.dropped(i);
  }
  done = true;
  reader.join();
  CHECK(tracker.statuses().size() == 1000);
}
