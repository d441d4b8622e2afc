// `stream` peeks: compute answers them with each worker's
// sealed snapshots of the index instead of rows, and an IndexScan over those
// parts, read in small pieces after the answer, yields exactly what a Peek
// answered with rows yields; the parts stay exact at the peek's time while
// the index changes and compacts, and after its dataflow is dropped (a peek
// dataflow's one-shot index); the index's errors fail the scan's open; a
// cancel still answers a parked stream peek Canceled.
#include <catch2/catch.hpp>

#include <set>

#include "compute/dataflow/error_row.hpp"
#include "compute/testing/harness.hpp"

namespace tandem::compute {
namespace {

using testing::col;
using testing::Harness;
using testing::source;

using testing::row2;

Peek stream_peek(PeekId id, GlobalId index, Timestamp time) {
  Peek p{id, index, time, std::nullopt, MapFilterProject::identity(2)};
  p.stream = true;
  return p;
}

std::multiset<std::string> bag(const std::vector<std::pair<Row, Diff>>& rows) {
  std::multiset<std::string> out;
  for (const auto& [row, diff] : rows) {
    for (Diff d = 0; d < diff; ++d) out.insert(std::string(row.bytes()));
  }
  return out;
}

// Reads every row of `response`'s parts, a few positions at a time.
std::multiset<std::string> scan_all(const Peek& peek, PeekResponse response) {
  REQUIRE(response.kind == PeekResponse::Kind::kSnapshots);
  auto scan = IndexScan::open(peek, std::move(response.parts));
  REQUIRE(scan.ok());
  std::vector<std::pair<Row, Diff>> rows;
  while (!(*scan)->done()) {
    auto piece = (*scan)->next(3);
    REQUIRE(piece.ok());
    for (auto& r : *piece) rows.push_back(std::move(r));
  }
  return bag(rows);
}

}  // namespace

TEST_CASE("a parked stream peek is answered with sealed snapshots, one part per worker", "[runtime]") {
  for (const std::size_t workers : {1, 2, 3}) {
    Harness h(workers, {1});
    h.install(source(1), 7);
    for (int a = 0; a < 40; ++a) h.update(1, row2(a, a), 4, 1);
    h.update(1, row2(5, 5), 5, -1);  // after the peek's time: not seen
    h.update(1, row2(6, 6), 4, 1);   // a second copy
    const Peek peek = stream_peek(100, 7, 4);
    h.runtime().send(peek);
    h.advance_all(4);  // not sealed yet: parked
    h.update(1, row2(7, 7), 5, -1);
    h.advance_all(6);
    PeekResponse streamed = h.wait_peek(100);
    CHECK(streamed.parts.size() == workers);
    CHECK(streamed.rows.empty());
    // The index moves on and compacts past the peek's time; the parts do not.
    for (int a = 0; a < 40; ++a) {
      if (a != 5 && a != 7) h.update(1, row2(a, a), 7, -1);
    }
    h.advance_all(9);
    h.runtime().send(AllowCompaction{7, 8});
    const PeekResponse collected = h.peek(7, 8, 2);
    CHECK(collected.rows.size() == 1);  // only the second copy of (6, 6) is left at 8

    std::multiset<std::string> expected;
    for (int a = 0; a < 40; ++a) expected.insert(std::string(row2(a, a).bytes()));
    expected.insert(std::string(row2(6, 6).bytes()));
    CHECK(scan_all(peek, std::move(streamed)) == expected);
  }
}

TEST_CASE("a stream peek's parts outlive the dropped dataflow they came from", "[runtime]") {
  Harness h(2, {1});
  h.install(source(1), 7);
  for (int a = 0; a < 100; ++a) h.update(1, row2(a, -a), 1, 1);
  h.advance_all(2);
  const Peek peek = stream_peek(100, 7, 1);
  h.runtime().send(peek);
  PeekResponse streamed = h.wait_peek(100);
  // As the coordinator drops a peek dataflow once its peek is answered.
  h.runtime().send(DropDataflow{7});
  CHECK(h.peek(7, 1, 2).kind == PeekResponse::Kind::kError);  // the index is gone
  CHECK(scan_all(peek, std::move(streamed)).size() == 100);   // its batches are not
}

TEST_CASE("a stream peek's parts carry the index's errors to the scan", "[runtime]") {
  Runtime rt(RuntimeOptions{2});
  auto input = rt.create_input(1);
  DataflowDescription desc;
  desc.debug_name = "errors";
  desc.source_imports.push_back(SourceImport{1});
  desc.objects_to_build.push_back(BuildDesc{100, source(1)});
  desc.index_exports.push_back(IndexExport{7, 100, {col(0)}});
  rt.send(CreateDataflow{desc});
  input->send(row2(1, 1), 1, 1);
  std::vector<Update> errors;
  errors.push_back(Update{{}, error_row(Status::error(sqlstate::kDivisionByZero, "division by zero")), 1, 1});
  input->send_errors(std::move(errors));
  input->advance_to(2);
  const Peek peek = stream_peek(100, 7, 1);
  rt.send(peek);
  std::optional<PeekResponse> answer;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!answer && std::chrono::steady_clock::now() < deadline) {
    if (auto r = rt.recv(std::chrono::milliseconds(100))) {
      if (auto* p = std::get_if<PeekResponse>(&*r)) answer = std::move(*p);
    }
  }
  REQUIRE(answer.has_value());
  REQUIRE(answer->kind == PeekResponse::Kind::kSnapshots);
  auto scan = IndexScan::open(peek, std::move(answer->parts));
  REQUIRE_FALSE(scan.ok());
  CHECK(scan.status().message() == "Evaluation error: division by zero");
}

TEST_CASE("cancel answers a parked stream peek Canceled, once", "[runtime]") {
  Harness h(2, {1});
  h.install(source(1), 7);
  h.runtime().send(stream_peek(100, 7, 10));
  h.runtime().send(CancelPeek{100});
  CHECK(h.wait_peek(100).kind == PeekResponse::Kind::kCanceled);
  h.advance_all(20);
  // Literal-key lookups are never streamed: they answer rows.
  Peek lookup{101, 7, 10, std::vector<Row>{Row::pack_one(Datum::from_int32(1))}, MapFilterProject::identity(2)};
  lookup.stream = true;
  h.runtime().send(lookup);
  CHECK(h.wait_peek(101).kind == PeekResponse::Kind::kRows);
}

}  // namespace tandem::compute
