// A runaway dataflow (a cross join of large inputs) leaves its worker free:
// its steps are bounded (join and flat-map fuel), so a cancel and a drop
// are applied between them and the cluster answers the next read; a
// dataflow with a heap limit fails its peeks with 53200 once its
// arrangements pass the limit. Results of fueled steps stay exact.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "common/sqlstate.hpp"
#include "compute/testing/harness.hpp"

namespace tandem::compute {
namespace {

using testing::col;
using testing::Harness;
using testing::source;

// Rows (i, i % 7) for i in [0, n) at time 0 of `source`.
void fill(Harness& h, GlobalId source, int n) {
  for (int i = 0; i < n; ++i) h.update(source, testing::row2(i, i % 7), 0, 1);
}

PlanNode cross_join() { return PlanNode{Join{source(1), source(2), {}, {}}}; }

PlanNode count_of(PlanNode input) {
  AggregateExpr count;
  count.func = AggregateFunc::kCountAll;
  count.expr = col(0);
  return PlanNode{Reduce{std::move(input), {}, {count}}};
}

PlanNode tiny_index() { return source(3); }

TEST_CASE("a cross join spread over fueled steps counts every pair", "[runtime][fuel]") {
  for (const std::size_t workers : {1, 2}) {
    Harness h(workers, {1, 2});
    // 700 x 700 pairs: more than one step's join fuel.
    fill(h, 1, 700);
    fill(h, 2, 700);
    h.advance_all(1);
    h.install(count_of(cross_join()), 7);
    const PeekResponse r = h.peek(7, 0, 1);
    REQUIRE(r.kind == PeekResponse::Kind::kRows);
    REQUIRE(r.rows.size() == 1);
    CHECK(r.rows[0].second == 1);
    CHECK(unpack_one(r.rows[0].first).as_int64() == 700 * 700);
  }
}

TEST_CASE("a cancel and a drop end a runaway cross join between its steps", "[runtime][fuel]") {
  for (const std::size_t workers : {1, 2}) {
    INFO("workers " << workers);
    Harness h(workers, {1, 2, 3});
    // 8,000 x 8,000 pairs: tens of seconds of join work in one step.
    fill(h, 1, 8000);
    fill(h, 2, 8000);
    h.update(3, testing::row2(1, 1), 0, 1);
    h.advance_all(1);
    h.install(count_of(cross_join()), 7);
    const PeekId runaway = h.send_peek(7, 0, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto canceled_at = std::chrono::steady_clock::now();
    h.runtime().send(CancelPeek{runaway});
    h.runtime().send(DropDataflow{7});
    CHECK(h.wait_peek(runaway).kind == PeekResponse::Kind::kCanceled);
    // The workers are free for the next dataflow and its read.
    h.install(tiny_index(), 8);
    const PeekResponse next = h.peek(8, 0, 2);
    REQUIRE(next.kind == PeekResponse::Kind::kRows);
    CHECK(next.rows.size() == 1);
    // Generous for a loaded machine; a step holding the whole join would
    // take tens of seconds (and gigabytes).
    CHECK(std::chrono::steady_clock::now() - canceled_at < std::chrono::seconds(10));
  }
}

TEST_CASE("a dataflow past its heap limit fails its peek with 53200", "[runtime][fuel]") {
  for (const std::size_t workers : {1, 2}) {
    INFO("workers " << workers);
    Harness h(workers, {1, 2});
    fill(h, 1, 1000);
    fill(h, 2, 1000);
    h.advance_all(1);
    // The cross join itself is arranged: a million rows, far past 1 MiB.
    h.install(cross_join(), 7, 0, /*heap_limit_bytes=*/1 << 20);
    const PeekResponse r = h.peek(7, 0, 4);
    REQUIRE(r.kind == PeekResponse::Kind::kError);
    CHECK(r.error.sqlstate() == sqlstate::kOutOfMemory);
    CHECK_THAT(r.error.message(), Catch::Contains("max_query_heap_size"));
    // A later peek of it is refused the same way until it is dropped.
    const PeekResponse again = h.peek(7, 0, 4);
    CHECK(again.kind == PeekResponse::Kind::kError);
    h.runtime().send(DropDataflow{7});
    // Under its limit a dataflow answers.
    h.install(count_of(cross_join()), 8, 0, /*heap_limit_bytes=*/1 << 20);
    const PeekResponse counted = h.peek(8, 0, 1);
    REQUIRE(counted.kind == PeekResponse::Kind::kRows);
    CHECK(unpack_one(counted.rows[0].first).as_int64() == 1000 * 1000);
  }
}

}  // namespace
}  // namespace tandem::compute
