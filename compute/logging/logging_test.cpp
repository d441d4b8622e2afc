// Logging: a worker's state becomes the right
// raw log rows, a flush publishes only differences (a dropped dataflow's
// rows are retracted, a changed measure is one retraction and one
// insertion), the PeekLog's histogram and recent window agree, and a
// runtime's logging dataflows maintain introspection indexes that a Peek
// reads like any index, on one worker and on two; an arrangement's spilled
// bytes show once a memory budget spills it.
#include <catch2/catch.hpp>

#include <map>
#include <thread>

#include "common/row_arena.hpp"
#include "compute/logging/log_variant.hpp"
#include "compute/logging/peek_log.hpp"
#include "compute/logging/worker_logger.hpp"
#include "compute/testing/harness.hpp"
#include "compute/testing/spill_budget.hpp"

namespace tandem::compute::logging {
namespace {

std::string plain_id(GlobalId id) { return "u" + std::to_string(id); }

LoggedDataflow sample_dataflow(std::int64_t records) {
  LoggedDataflow df;
  df.id = 1;
  df.name = "Dataflow: t_idx";
  df.operators.push_back(LoggedOperator{2, "Source", 100, std::nullopt});
  df.operators.push_back(LoggedOperator{3, "Arrange", 50, ArrangementSize{records, 2, 800, 800, 2}});
  df.exports.push_back(LoggedExport{7, 5, 0});
  df.imports.push_back(LoggedImport{1, 5});
  return df;
}

std::size_t count(const LogRows& rows, LogSource s) { return rows[static_cast<std::size_t>(s)].size(); }
const std::vector<Update>& updates_of(const std::array<std::vector<Update>, kLogSourceCount>& u, LogSource s) {
  return u[static_cast<std::size_t>(s)];
}

std::vector<Datum> datums(const Row& row, RowArena* arena) { return unpack(row.ref(), arena); }

std::size_t variant_named(const std::string& name) {
  const auto& all = log_variants();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (name == all[i].name) return i;
  FAIL("no log variant " << name);
  return 0;
}

}  // namespace

TEST_CASE("log rows describe a worker's dataflows, one row per logged thing", "[logging]") {
  LogState state;
  state.dataflows.push_back(sample_dataflow(10));
  StepHistogram steps{};
  steps[duration_bucket_index(1500)] = 3;
  state.steps = &steps;
  LogRows rows = log_rows(state, 1, "maintenance", plain_id);
  CHECK(count(rows, LogSource::kDataflows) == 1);
  CHECK(count(rows, LogSource::kOperators) == 2);
  CHECK(count(rows, LogSource::kScheduling) == 2);
  CHECK(count(rows, LogSource::kArrangements) == 1);
  CHECK(count(rows, LogSource::kExports) == 1);
  CHECK(count(rows, LogSource::kFrontiers) == 1);
  CHECK(count(rows, LogSource::kImportFrontiers) == 1);
  CHECK(count(rows, LogSource::kErrorCounts) == 1);
  CHECK(count(rows, LogSource::kActivePeeks) == 0);  // worker 0 logs peeks
  REQUIRE(count(rows, LogSource::kStepDurations) == 1);

  RowArena arena;
  auto step = datums(rows[static_cast<std::size_t>(LogSource::kStepDurations)][0], &arena);
  CHECK(step[0].as_string() == "maintenance");
  CHECK(step[1].as_int64() == 1);     // worker id
  CHECK(step[2].as_int64() == 2048);  // 1500 ns falls in the (1024, 2048] bucket
  CHECK(step[3].as_int64() == 3);
  auto arrangement = datums(rows[static_cast<std::size_t>(LogSource::kArrangements)][0], &arena);
  CHECK(arrangement[0].as_int64() == 3);
  CHECK(arrangement[3].as_string() == "Dataflow: t_idx");
  CHECK(arrangement[4].as_int64() == 10);
  auto exported = datums(rows[static_cast<std::size_t>(LogSource::kExports)][0], &arena);
  CHECK(exported[0].as_string() == "u7");
}

TEST_CASE("a flush publishes differences and retracts a dropped dataflow", "[logging]") {
  LogPublisher publisher;
  LogState a;
  a.dataflows.push_back(sample_dataflow(10));
  auto first = publisher.publish(log_rows(a, 0, "maintenance", plain_id), 100);
  REQUIRE(updates_of(first, LogSource::kArrangements).size() == 1);
  CHECK(updates_of(first, LogSource::kArrangements)[0].diff == 1);
  CHECK(updates_of(first, LogSource::kArrangements)[0].time == 100);

  // Nothing changed: nothing published.
  auto same = publisher.publish(log_rows(a, 0, "maintenance", plain_id), 101);
  for (const auto& u : same) CHECK(u.empty());

  // The arrangement grew: one retraction, one insertion; the rest unchanged.
  LogState b;
  b.dataflows.push_back(sample_dataflow(25));
  auto grown = publisher.publish(log_rows(b, 0, "maintenance", plain_id), 102);
  const auto& changes = updates_of(grown, LogSource::kArrangements);
  REQUIRE(changes.size() == 2);
  Diff total = 0;
  for (const Update& u : changes) total += u.diff;
  CHECK(total == 0);
  CHECK(updates_of(grown, LogSource::kOperators).empty());

  // Dropped: every row it had is retracted.
  auto dropped = publisher.publish(log_rows(LogState{}, 0, "maintenance", plain_id), 103);
  CHECK(updates_of(dropped, LogSource::kDataflows).size() == 1);
  CHECK(updates_of(dropped, LogSource::kOperators).size() == 2);
  for (const auto& source : dropped)
    for (const Update& u : source) CHECK(u.diff == -1);
}

TEST_CASE("the peek log's histogram adds up to its recent window, which stays bounded", "[logging]") {
  PeekLog log(3);
  const auto start = std::chrono::steady_clock::now();
  log.served(7, ReadPath::kFastPath, "maintenance", start);
  log.begin(42, 8, 1000, ReadPath::kDataflow, "maintenance");
  auto mid = log.snapshot();
  REQUIRE(mid.active.size() == 1);
  CHECK(mid.active[0].target == 8);
  CHECK(mid.recent.size() == 1);
  log.finish(42);
  log.finish(42);  // a second answer is not logged twice
  auto after = log.snapshot();
  CHECK(after.active.empty());
  REQUIRE(after.recent.size() == 2);
  CHECK(after.recent[1].path == ReadPath::kDataflow);
  std::uint64_t histogram = 0;
  for (auto c : after.histogram) histogram += c;
  CHECK(histogram == 2);
  for (int i = 0; i < 5; ++i) log.served(7, ReadPath::kOffloaded, "maintenance", start);
  CHECK(log.snapshot().recent.size() == 3);
  // Every read counts in its runtime's and path's histogram, beyond the window.
  log.served(7, ReadPath::kFastPath, "interactive", start);
  auto by_path = log.path_histograms();
  std::map<std::pair<std::string, ReadPath>, std::uint64_t> counts;
  for (const auto& h : by_path) {
    std::uint64_t sum = 0;
    for (auto c : h.histogram) sum += c;
    CHECK(sum == h.count);
    counts[{h.runtime, h.path}] = h.count;
  }
  CHECK(counts == std::map<std::pair<std::string, ReadPath>, std::uint64_t>{
                      {{"maintenance", ReadPath::kFastPath}, 1},
                      {{"maintenance", ReadPath::kDataflow}, 1},
                      {{"maintenance", ReadPath::kOffloaded}, 5},
                      {{"interactive", ReadPath::kFastPath}, 1}});
  CHECK(duration_bucket(0) == 1);
  CHECK(duration_bucket(1024) == 1024);
  CHECK(duration_bucket(1025) == 2048);
}

TEST_CASE("logging dataflows maintain introspection indexes read by a Peek", "[logging][runtime]") {
  for (const std::size_t workers : {1, 2}) {
    INFO("workers " << workers);
    testing::Harness h(workers, {1});
    h.install(testing::source(1), 7);
    for (int a = 0; a < 100; ++a) {
      h.update(1, Row::pack(std::vector<Datum>{Datum::from_int32(a), Datum::from_int32(a)}), 1, 1);
    }
    h.advance_all(2);
    // A read at t sees what was logged at times <= t: the flush for t
    // happens in a later millisecond than whatever the test did before.
    auto settle = [] { std::this_thread::sleep_for(std::chrono::milliseconds(3)); };
    Timestamp at = 0;
    auto read = [&](const std::string& name) {
      const std::size_t v = variant_named(name);
      auto r = h.peek(log_index_id(v), at, log_variants()[v].columns.size());
      REQUIRE(r.kind == PeekResponse::Kind::kRows);
      return r.rows;
    };
    RowArena arena;
    // The data peek settles the index (its upper passes 1) before the logs are read.
    REQUIRE(h.peek(7, 1, 2).rows.size() == 100);
    settle();
    at = wall_clock_ms();

    auto dataflows = read("mz_dataflows");
    REQUIRE(dataflows.size() == 1);  // logging dataflows are not logged
    CHECK(datums(dataflows[0].first, &arena)[1].as_string() == "test");
    auto exports = read("mz_compute_exports");
    REQUIRE(exports.size() == 1);
    CHECK(datums(exports[0].first, &arena)[0].as_string() == "7");
    std::int64_t records = 0;
    for (const auto& [row, diff] : read("mz_arrangement_sizes")) records += datums(row, &arena)[1].as_int64() * diff;
    CHECK(records == 100);
    CHECK(read("mz_dataflow_operators").size() == read("mz_scheduling_elapsed").size());
    CHECK(read("mz_dataflows_per_worker").size() == workers);
    CHECK_FALSE(read("mz_runtime_step_durations_histogram").empty());
    // Read at one later time, the histogram counts every finished read in
    // the recent window: the data peek and the 7 log reads above.
    settle();
    at = wall_clock_ms();
    std::int64_t histogram = 0;
    for (const auto& [row, diff] : read("mz_peek_durations_histogram")) histogram += datums(row, &arena)[2].as_int64();
    CHECK(histogram == 8);
    auto recent = read("mz_recent_peeks");
    CHECK(static_cast<std::int64_t>(recent.size()) == histogram);
    std::map<std::string, int> paths;
    for (const auto& [row, diff] : recent) ++paths[std::string(datums(row, &arena)[3].as_string())];
    CHECK(paths == std::map<std::string, int>{{"fast_path", 8}});

    h.runtime().send(DropDataflow{7});
    settle();
    at = wall_clock_ms();
    CHECK(read("mz_dataflows").empty());
    CHECK(read("mz_compute_exports").empty());
    CHECK(read("mz_arrangement_sizes").empty());
  }
}

TEST_CASE("mz_arrangement_sizes splits an arrangement's size into resident and spilled bytes", "[logging][spill]") {
  testing::SpillBudget spill(0);  // unlimited until the test lowers it
  testing::Harness h(1, {1});
  h.install(testing::source(1), 7);
  for (int a = 0; a < 1000; ++a) {
    h.update(1, Row::pack(std::vector<Datum>{Datum::from_int32(a), Datum::from_int32(a)}), 1, 1);
  }
  h.advance_all(2);
  REQUIRE(h.peek(7, 1, 2).rows.size() == 1000);
  struct Sizes {
    std::int64_t records = 0, size = 0, resident = 0, spilled = 0;
  };
  // The index's arrangement: the row with 1000 records (columns: operator_id,
  // records, batches, size, capacity, allocations, resident_bytes, spilled_bytes).
  auto sizes = [&h] {
    std::this_thread::sleep_for(std::chrono::milliseconds(3));  // a later log time
    const std::size_t v = variant_named("mz_arrangement_sizes");
    REQUIRE(log_variants()[v].columns.size() == 8);
    CHECK(std::string(log_variants()[v].columns[6].name) == "resident_bytes");
    CHECK(std::string(log_variants()[v].columns[7].name) == "spilled_bytes");
    auto r = h.peek(log_index_id(v), wall_clock_ms(), 8);
    REQUIRE(r.kind == PeekResponse::Kind::kRows);
    RowArena arena;
    Sizes out;
    for (const auto& [row, diff] : r.rows) {
      auto d = datums(row, &arena);
      if (d[1].as_int64() != 1000) continue;
      out = Sizes{d[1].as_int64(), d[3].as_int64(), d[6].as_int64(), d[7].as_int64()};
    }
    return out;
  };
  const Sizes resident = sizes();
  REQUIRE(resident.records == 1000);
  CHECK(resident.spilled == 0);
  CHECK(resident.resident > 0);
  CHECK(resident.size == resident.resident);

  spill.budget().set_limit(1);  // spills every batch at once
  REQUIRE(spill.budget().stats().spilled_bytes > 0);
  const Sizes spilled = sizes();
  REQUIRE(spilled.records == 1000);
  CHECK(spilled.spilled > 0);
  CHECK(spilled.size == spilled.resident + spilled.spilled);
  // What stays resident is the batches' headers and fences.
  CHECK(spilled.resident < resident.resident / 4);
  CHECK(spilled.spilled <= static_cast<std::int64_t>(spill.budget().stats().spilled_bytes));
  CHECK(h.peek(7, 1, 2).rows.size() == 1000);
}

}  // namespace tandem::compute::logging
