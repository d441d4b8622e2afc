// InteractiveAdmission (issue 8 item 8): the bound holds, waiters are
// admitted first come first served as slots free up, a canceled waiter
// leaves the queue (and is never admitted), and the counters say so.
#include <catch2/catch.hpp>

#include <vector>

#include "frontend/coord/interactive_admission.hpp"

namespace tandem::frontend {
namespace {

using Clock = InteractiveAdmission::Clock;
using namespace std::chrono_literals;

catalog::InteractiveAdmissionStatus stats_of(const InteractiveAdmission& a, uint64_t cluster) {
  for (const auto& s : a.stats()) {
    if (s.cluster == cluster) return s;
  }
  FAIL("no stats for cluster " << cluster);
  return {};
}

}  // namespace

TEST_CASE("admission bounds the running dataflows and admits waiters in order", "[admission]") {
  InteractiveAdmission a;
  std::vector<int> admitted;
  const Clock::time_point t0{};
  for (int i = 0; i < 5; ++i) a.acquire(1, 2, [&admitted, i] { admitted.push_back(i); }, t0);
  CHECK(admitted == std::vector<int>{0, 1});  // two free slots: granted at once
  auto s = stats_of(a, 1);
  CHECK(s.limit == 2);
  CHECK(s.active == 2);
  CHECK(s.queued == 3);
  CHECK(s.admitted_total == 2);
  CHECK(s.waited_total == 0);

  a.release(1, t0 + 5ms);
  CHECK(admitted == std::vector<int>{0, 1, 2});
  a.release(1, t0 + 7ms);
  a.release(1, t0 + 10ms);
  CHECK(admitted == std::vector<int>{0, 1, 2, 3, 4});
  s = stats_of(a, 1);
  CHECK(s.active == 2);
  CHECK(s.queued == 0);
  CHECK(s.admitted_total == 5);
  CHECK(s.waited_total == 3);
  CHECK(s.wait_ns_total == std::chrono::nanoseconds(5ms + 7ms + 10ms).count());
  CHECK(s.wait_ns_max == std::chrono::nanoseconds(10ms).count());

  // Clusters are independent.
  bool other = false;
  a.acquire(2, 1, [&] { other = true; }, t0);
  CHECK(other);
  a.release(2);
  a.release(1);
  a.release(1);
  CHECK(stats_of(a, 1).active == 0);
  a.release(1);  // an extra release changes nothing
  CHECK(stats_of(a, 1).active == 0);
}

TEST_CASE("a canceled waiter leaves the queue and is never admitted", "[admission]") {
  InteractiveAdmission a;
  std::vector<int> admitted;
  auto first = a.acquire(7, 1, [&] { admitted.push_back(0); });
  auto second = a.acquire(7, 1, [&] { admitted.push_back(1); });
  auto third = a.acquire(7, 1, [&] { admitted.push_back(2); });
  CHECK_FALSE(a.cancel(first));  // already admitted: its owner releases it
  CHECK(a.cancel(second));
  CHECK_FALSE(a.cancel(second));  // once
  auto s = stats_of(a, 7);
  CHECK(s.queued == 1);
  CHECK(s.canceled_total == 1);
  a.release(7);
  CHECK(admitted == std::vector<int>{0, 2});
  CHECK_FALSE(a.cancel(third));
  a.release(7);
  CHECK(stats_of(a, 7).active == 0);
}

TEST_CASE("lowering the bound keeps new dataflows waiting until enough end", "[admission]") {
  InteractiveAdmission a;
  int admitted = 0;
  for (int i = 0; i < 3; ++i) a.acquire(1, 3, [&] { ++admitted; });
  CHECK(admitted == 3);
  a.acquire(1, 1, [&] { ++admitted; });  // the bound is now 1
  CHECK(admitted == 3);
  a.release(1);
  a.release(1);
  CHECK(admitted == 3);  // still 1 running: at the bound
  a.release(1);
  CHECK(admitted == 4);
  {
    InteractiveAdmission::Slot slot(&a, 1);  // the last one's slot
  }
  CHECK(stats_of(a, 1).active == 0);
}

}  // namespace tandem::frontend
