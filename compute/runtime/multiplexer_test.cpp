// The interactive runtime behind the Multiplexer: peeks of a
// maintenance index served from its publication (parked until sealed, woken
// by the publisher), one-shot dataflows importing published indexes (joins
// reuse them in place) checked against a from-scratch answer, compaction
// racing reads (the standing hold), holds that do not pin, and
// introspection answered while maintenance is inside a long step.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <thread>

#include "compute/logging/log_variant.hpp"
#include "compute/runtime/multiplexer.hpp"
#include "compute/testing/cluster.hpp"
#include "compute/testing/harness.hpp"

namespace tandem::compute {
namespace {

using testing::Cluster;
using testing::row2;

using testing::Multiset;

Multiset rows_of(const PeekResponse& r) {
  INFO((r.kind == PeekResponse::Kind::kError ? r.error.to_string() : std::string("rows")));
  REQUIRE(r.kind == PeekResponse::Kind::kRows);
  return testing::to_multiset(r.rows);
}

TEST_CASE("interactive peeks of a maintenance index park until sealed", "[interactive]") {
  for (const std::size_t workers : {1, 2}) {
    Cluster c(workers);
    c.index(7, 1);
    c.input(1).send(row2(1, 2), 5, 1);
    const PeekId id = c.send_peek(7, 5, 2);
    c.input(1).advance_to(5);  // time 5 not sealed yet
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    c.record(c.mux().try_recv());
    c.input(1).advance_to(6);
    const PeekResponse r = c.wait_peek(id);
    CHECK(rows_of(r) == Multiset{{std::string(row2(1, 2).bytes()), 1}});
  }
}

TEST_CASE("one-shot joins on interactive import published indexes", "[interactive][random]") {
  for (const std::size_t workers : {1, 2}) {
    for (const bool interactive : {true, false}) {
      Cluster c(workers, interactive);
      c.index(11, 1);
      c.index(12, 2);
      std::mt19937_64 rng(workers * 7 + (interactive ? 1 : 0));
      std::map<std::pair<int, int>, Diff> a;
      std::map<std::pair<int, int>, Diff> b;
      GlobalId next_export = 100;
      for (Timestamp t = 1; t <= 20; ++t) {
        for (int i = 0; i < 8; ++i) {
          const int k = static_cast<int>(rng() % 4), v = static_cast<int>(rng() % 5);
          auto& side = rng() % 2 == 0 ? a : b;
          const GlobalId src = &side == &a ? 1 : 2;
          const Diff d = side[{k, v}] > 0 && rng() % 3 == 0 ? -1 : 1;
          side[{k, v}] += d;
          c.input(src).send(row2(k, v), t, d);
        }
        // The dataflow may be created before its time is sealed: it waits.
        const GlobalId exp = next_export++;
        c.one_shot_join(exp, 11, 12, t);
        const PeekId id = c.send_peek(exp, t, 4);
        c.input(1).advance_to(t + 1);
        c.input(2).advance_to(t + 1);
        Multiset want;
        for (const auto& [ra, da] : a)
          for (const auto& [rb, db] : b)
            if (ra.first == rb.first && da * db != 0) {
              Row row = Row::pack(std::vector<Datum>{Datum::from_int32(ra.first), Datum::from_int32(ra.second),
                                                     Datum::from_int32(rb.first), Datum::from_int32(rb.second)});
              want[std::string(row.bytes())] += da * db;
            }
        std::erase_if(want, [](const auto& e) { return e.second == 0; });
        const Multiset got = rows_of(c.wait_peek(id));
        INFO("workers " << workers << " interactive " << interactive << " t " << t << " got " << got.size()
                        << " want " << want.size());
        Diff got_total = 0, want_total = 0;
        for (const auto& [r, d] : got) got_total += d;
        for (const auto& [r, d] : want) want_total += d;
        INFO("totals " << got_total << " " << want_total);
        CHECK(got == want);
        c.mux().send(DropDataflow{exp});
      }
    }
  }
}

TEST_CASE("a read racing a compaction never fails, and holds do not pin", "[interactive][concurrency]") {
  Cluster c(2);
  c.index(7, 1);
  std::vector<PeekId> peeks;
  for (Timestamp t = 1; t <= 300; ++t) {
    c.input(1).send(row2(static_cast<int>(t % 5), 1), t, 1);
    c.input(1).advance_to(t + 1);
    // Queued on interactive before the compaction that passes its time;
    // maintenance may see the compaction first.
    peeks.push_back(c.send_peek(7, t, 2));
    c.mux().send(AllowCompaction{7, t + 1});
  }
  for (std::size_t i = 0; i < peeks.size(); ++i) {
    const PeekResponse r = c.wait_peek(peeks[i]);
    INFO(r.error.to_string());
    REQUIRE(r.kind == PeekResponse::Kind::kRows);
    Diff total = 0;
    for (const auto& [row, d] : r.rows) total += d;
    CHECK(total == static_cast<Diff>(i + 1));
  }
  // Every hold released or advanced: the published since reaches 301 once
  // the traces take in another batch.
  c.input(1).send(row2(9, 9), 301, 1);
  c.input(1).advance_to(302);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  bool compacted = false;
  while (!compacted && std::chrono::steady_clock::now() < deadline) {
    c.record(c.mux().recv(std::chrono::milliseconds(20)));
    auto parts = c.mux().publications().parts(7);
    REQUIRE(parts);
    compacted = true;
    for (const auto& p : *parts) compacted = compacted && p.oks->snapshot()->since == 301;
  }
  CHECK(compacted);
  // Below the standing hold a peek is an error, never a wrong answer.
  const PeekResponse old = c.wait_peek(c.send_peek(7, 5, 2));
  CHECK(old.kind == PeekResponse::Kind::kError);
}

TEST_CASE("introspection answers while maintenance is inside a long step", "[interactive]") {
  Cluster c(1);
  const GlobalId dataflows_log = logging::log_index_id(1);
  REQUIRE(std::string(logging::log_variants()[1].name) == "mz_dataflows_per_worker");
  c.index(7, 1);
  CHECK(rows_of(c.wait_peek(c.send_peek(dataflows_log, 10, 3))).size() >= 1);
  // A hydration of about a second in one step.
  std::vector<Update> rows;
  for (int i = 0; i < 1'500'000; ++i) rows.push_back(Update{{}, row2(i, i), 20, 1});
  c.input(2).send_batch(std::move(rows));
  c.input(2).advance_to(21);
  const auto started = std::chrono::steady_clock::now();
  c.index(8, 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const PeekId during = c.send_peek(dataflows_log, 30, 3);
  const PeekResponse r = c.wait_peek(during);
  INFO("answered after " << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count() << " ms");
  CHECK(rows_of(r).size() >= 1);  // index 7's dataflow, as of the last completed step
  // Answered before the hydration's frontier was reported.
  const auto& ev = c.events();
  const auto answered = std::find(ev.begin(), ev.end(), "peek " + std::to_string(during));
  CHECK(std::find(ev.begin(), answered, "upper 8") == answered);
}

}  // namespace
}  // namespace tandem::compute
