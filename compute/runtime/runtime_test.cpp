// Runtime behaviour through the compute controller interface: peeks park
// until the frontier passes, reads below since fail, cancel and drop answer
// parked peeks, exactly one response per peek, index imports, late
// dataflows, and multi-worker runs ([concurrency], run under TSan in CI).
#include <catch2/catch.hpp>

#include <thread>

#include "compute/testing/harness.hpp"

namespace tandem::compute {
namespace {

using testing::col;
using testing::Harness;
using testing::source;

using testing::row2;

// Drains responses for a while, returning the peek responses seen.
std::vector<PeekResponse> drain(Runtime& rt, std::chrono::milliseconds wait) {
  std::vector<PeekResponse> out;
  while (auto r = rt.recv(wait)) {
    if (auto* p = std::get_if<PeekResponse>(&*r)) out.push_back(std::move(*p));
  }
  return out;
}

TEST_CASE("peek parks until the index frontier passes its time", "[runtime]") {
  for (const std::size_t workers : {1, 2}) {
    Harness h(workers, {1});
    h.install(source(1), 7);
    h.update(1, row2(1, 2), 5, 1);
    const PeekId id = h.send_peek(7, 5, 2);
    h.advance_all(5);  // time 5 not sealed yet
    CHECK(drain(h.runtime(), std::chrono::milliseconds(50)).empty());
    h.advance_all(6);
    const PeekResponse r = h.wait_peek(id);
    REQUIRE(r.kind == PeekResponse::Kind::kRows);
    REQUIRE(r.rows.size() == 1);
    CHECK(r.rows[0].first == row2(1, 2));
  }
}

TEST_CASE("frontier reports advance per export", "[runtime]") {
  Harness h(2, {1});
  h.install(source(1), 7);
  h.advance_all(3);
  Timestamp seen = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (seen < 3 && std::chrono::steady_clock::now() < deadline) {
    if (auto r = h.runtime().recv(std::chrono::milliseconds(100))) {
      if (auto* f = std::get_if<FrontierUpper>(&*r)) {
        CHECK(f->id == 7);
        CHECK(f->upper > seen);
        seen = f->upper;
      }
    }
  }
  CHECK(seen == 3);
}

TEST_CASE("a peek below since is an error", "[runtime]") {
  Harness h(2, {1});
  h.install(source(1), 7);
  h.update(1, row2(1, 1), 1, 1);
  h.advance_all(10);
  h.runtime().send(AllowCompaction{7, 8});
  const PeekResponse r = h.peek(7, 4, 2);
  REQUIRE(r.kind == PeekResponse::Kind::kError);
  CHECK(r.error.message() == "Arrangement compaction frontier (8) is beyond the time of the attempted read (4)");
  const PeekResponse ok = h.peek(7, 8, 2);
  CHECK(ok.kind == PeekResponse::Kind::kRows);
}

TEST_CASE("a parked peek holds its time against compaction", "[runtime]") {
  Harness h(1, {1});
  h.install(source(1), 7);
  h.update(1, row2(1, 1), 2, 1);
  h.update(1, row2(1, 1), 4, -1);
  const PeekId id = h.send_peek(7, 3, 2);  // parked: upper is 0
  h.runtime().send(AllowCompaction{7, 100});
  h.advance_all(50);
  const PeekResponse r = h.wait_peek(id);
  REQUIRE(r.kind == PeekResponse::Kind::kRows);
  REQUIRE(r.rows.size() == 1);  // as of 3 the row exists, although since moved to 100
}

TEST_CASE("cancel answers a parked peek exactly once", "[runtime]") {
  Harness h(2, {1});
  h.install(source(1), 7);
  const PeekId parked = h.send_peek(7, 10, 2);
  h.runtime().send(CancelPeek{parked});
  CHECK(h.wait_peek(parked).kind == PeekResponse::Kind::kCanceled);
  // Canceling an answered peek produces nothing more.
  h.advance_all(20);
  const PeekId done = h.send_peek(7, 10, 2);
  CHECK(h.wait_peek(done).kind == PeekResponse::Kind::kRows);
  h.runtime().send(CancelPeek{done});
  CHECK(drain(h.runtime(), std::chrono::milliseconds(50)).empty());
}

TEST_CASE("unknown and dropped indexes answer peeks with errors", "[runtime]") {
  Harness h(2, {1});
  CHECK(h.peek(99, 0, 2).kind == PeekResponse::Kind::kError);
  h.install(source(1), 7);
  const PeekId parked = h.send_peek(7, 10, 2);
  h.runtime().send(DropDataflow{7});
  const PeekResponse r = h.wait_peek(parked);
  CHECK(r.kind == PeekResponse::Kind::kError);
  CHECK(h.peek(7, 0, 2).kind == PeekResponse::Kind::kError);
}

TEST_CASE("literal-key peeks and peek MFPs", "[runtime]") {
  Harness h(2, {1});
  h.install(source(1), 7);
  for (int a = 0; a < 10; ++a) h.update(1, row2(a, a * 10), 1, 1);
  h.advance_all(2);
  Peek p{1, 7, 1, std::vector<Row>{Row::pack_one(Datum::from_int32(3)), Row::pack_one(Datum::from_int32(42))},
         MapFilterProject::identity(2)};
  p.mfp.projection = {1};
  h.runtime().send(p);
  const PeekResponse r = h.wait_peek(1);
  REQUIRE(r.kind == PeekResponse::Kind::kRows);
  REQUIRE(r.rows.size() == 1);
  CHECK(r.rows[0].first == Row::pack_one(Datum::from_int32(30)));
}

TEST_CASE("a dataflow created late reads the history, and index imports", "[runtime]") {
  for (const std::size_t workers : {1, 2}) {
    std::mt19937_64 rng(5);
    Harness h(workers, {1, 2});
    for (Timestamp t = 1; t < 20; ++t) h.random_update(1, t, rng);
    h.advance_all(20);
    h.install(source(1), 7);
    // A second dataflow importing index 7 and reducing it.
    DataflowDescription desc;
    desc.index_imports.push_back(IndexImport{7});
    AggregateExpr count;
    count.func = AggregateFunc::kCountAll;
    PlanNode reduce{Reduce{PlanNode{Get{7, Get::Kind::kIndex}}, {col(0)}, {count}}};
    desc.objects_to_build.push_back(BuildDesc{500, reduce});
    desc.index_exports.push_back(IndexExport{8, 500, {col(0)}});
    h.runtime().send(CreateDataflow{desc});
    for (Timestamp t = 20; t < 60; ++t) {
      h.random_update(1, t, rng);
      h.advance_all(t + 1);
      testing::RefInputs objects;
      objects.objects[7] = testing::RefCollection{h.model().sources.at(1), {}};
      const auto want = testing::reference_eval(reduce, objects);
      const PeekResponse r = h.peek(8, t, 2);
      REQUIRE(r.kind == PeekResponse::Kind::kRows);
      CHECK(testing::to_multiset(r.rows) == want.oks);
    }
  }
}

TEST_CASE("concurrent feeding, peeking and canceling across workers", "[runtime][concurrency]") {
  Harness h(2, {1, 2});
  PlanNode join{Join{source(1), source(2), {col(0)}, {col(0)}}};
  h.install(PlanNode{Reduce{join, {col(1)}, {AggregateExpr{}}}}, 7);
  std::mt19937_64 rng(9);
  std::vector<PeekId> peeks;
  std::thread feeder([&] {
    std::mt19937_64 frng(3);
    for (Timestamp t = 1; t <= 200; ++t) {
      for (int i = 0; i < 5; ++i) {
        h.update(1, testing::random_row(frng), t, 1);
        h.update(2, testing::random_row(frng), t, 1);
      }
      h.advance_all(t + 1);
    }
  });
  for (Timestamp t = 1; t <= 200; t += 3) {
    const PeekId id = h.send_peek(7, t, 2);
    peeks.push_back(id);
    if (rng() % 4 == 0) h.runtime().send(CancelPeek{id});
    if (rng() % 8 == 0) h.runtime().send(AllowCompaction{7, t > 20 ? t - 20 : 0});
  }
  feeder.join();
  for (const PeekId id : peeks) {
    const PeekResponse r = h.wait_peek(id);
    CHECK(r.kind != PeekResponse::Kind::kError);
  }
  CHECK(drain(h.runtime(), std::chrono::milliseconds(50)).empty());
}

namespace sink_test {

// Collects SinkBatch responses for `sink` until its upper reaches `until`.
std::vector<SinkBatch> collect_sink(Runtime& rt, GlobalId sink, Timestamp until) {
  std::vector<SinkBatch> out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while ((out.empty() || out.back().upper < until) && std::chrono::steady_clock::now() < deadline) {
    if (auto r = rt.recv(std::chrono::milliseconds(100))) {
      if (auto* b = std::get_if<SinkBatch>(&*r); b && b->sink_id == sink) out.push_back(std::move(*b));
    }
  }
  return out;
}

}  // namespace sink_test

TEST_CASE("a sink reports each sealed update once, complete over workers, in upper order",
          "[runtime][concurrency]") {
  for (const std::size_t workers : {1, 2, 3}) {
    Runtime rt(RuntimeOptions{workers});
    auto input = rt.create_input(1);
    DataflowDescription desc;
    desc.debug_name = "sink";
    desc.source_imports.push_back(SourceImport{1});
    desc.objects_to_build.push_back(BuildDesc{100, testing::source(1)});
    desc.index_exports.push_back(IndexExport{7, 100, {col(0), col(1)}});
    desc.sink_exports.push_back(SinkExport{55, 7});
    rt.send(CreateDataflow{desc});

    std::mt19937_64 rng(workers);
    std::map<std::pair<std::string, Timestamp>, Diff> expected;
    for (Timestamp t = 0; t < 20; ++t) {
      for (int i = 0; i < 30; ++i) {
        Row r = row2(static_cast<int>(rng() % 50), static_cast<int>(rng() % 3));
        const Diff d = rng() % 5 == 0 ? -1 : 1;
        expected[{std::string(r.bytes()), t}] += d;
        input->send(std::move(r), t, d);
      }
      input->advance_to(t + 1);
    }
    std::vector<Update> errors;
    errors.push_back(Update{{}, error_row(Status::error(sqlstate::kDivisionByZero, "division by zero")), 20, 1});
    input->send_errors(std::move(errors));
    input->advance_to(21);

    const std::vector<SinkBatch> batches = sink_test::collect_sink(rt, 55, 21);
    REQUIRE(!batches.empty());
    CHECK(batches.back().upper == 21);
    std::map<std::pair<std::string, Timestamp>, Diff> seen;
    Timestamp lower = 0;
    size_t error_count = 0;
    for (const SinkBatch& b : batches) {
      CHECK(b.upper > lower);
      for (const SinkUpdate& u : b.oks) {
        CHECK(u.time >= lower);
        CHECK(u.time < b.upper);
        seen[{std::string(u.row.bytes()), u.time}] += u.diff;
      }
      for (const SinkUpdate& u : b.errs) {
        CHECK(u.time == 20);
        CHECK(status_from_error_row(u.row.ref()).message() == "division by zero");
        ++error_count;
      }
      lower = b.upper;
    }
    std::erase_if(expected, [](const auto& e) { return e.second == 0; });
    std::erase_if(seen, [](const auto& e) { return e.second == 0; });
    CHECK(seen == expected);
    CHECK(error_count == 1);
  }
}

}  // namespace
}  // namespace tandem::compute
