// Interactive imports are zero-copy: 48
// concurrent one-shot dataflows, each walking the whole of a published
// index of over 100 MB, move the process's resident set by under 5%.
// Measured with the kernel's peak-RSS counter (VmHWM), reset just before
// the dataflows start (/proc/self/clear_refs), so a transient copy made
// and freed between two samples is caught too.
#include <catch2/catch.hpp>

#include <malloc.h>

#include <fstream>
#include <string>

#include "compute/testing/cluster.hpp"
#include "compute/testing/spill_budget.hpp"

namespace tandem::compute {
namespace {

using testing::Cluster;
using testing::col;
using testing::lit;

// A field of /proc/self/status in bytes ("VmRSS", "VmHWM"); 0 if absent.
std::size_t status_bytes(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stoull(line.substr(field.size() + 1)) * 1024;
  }
  return 0;
}

bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

// A one-shot dataflow at `as_of` reading index `index` (int4, text) with a
// filter no row passes: it walks every update of the import.
void filter_nothing(Cluster& c, GlobalId export_id, GlobalId index, Timestamp as_of) {
  DataflowDescription desc;
  desc.debug_name = "walk";
  desc.index_imports.push_back(IndexImport{index, {col(0)}});
  MapFilterProject mfp = MapFilterProject::identity(2);
  mfp.predicates.push_back(ScalarExpr::binary(BinaryFunc::kLt, col(0), lit(0), ColumnType{TypeId::kBool}));
  desc.objects_to_build.push_back(BuildDesc{1000 + export_id, PlanNode{Mfp{PlanNode{Get{index, Get::Kind::kIndex}}, mfp}}});
  desc.index_exports.push_back(IndexExport{export_id, 1000 + export_id, {col(0)}});
  desc.as_of = as_of;
  desc.until = as_of + 1;
  c.mux().send(CreateDataflow{std::move(desc)});
}

TEST_CASE("48 concurrent interactive dataflows over a 100 MB index barely move the resident set", "[interactive][rss]") {
  // The index stays resident whatever budget the run installed (a binding
  // one makes it born spilled): the test measures copies of resident data.
  testing::SpillBudget unlimited(0);
  Cluster c(1);
  const std::string payload(200, 'x');
  constexpr int kRows = 500'000;
  std::vector<Update> rows;
  rows.reserve(kRows);
  for (int i = 0; i < kRows; ++i) {
    rows.push_back(Update{{}, Row::pack(std::vector<Datum>{Datum::from_int32(i), Datum::from_string(payload)}), 1, 1});
  }
  c.input(1).send_batch(std::move(rows));
  c.input(1).advance_to(2);
  c.index(7, 1);
  {
    // Built and published: a lookup at 1 is answered.
    const PeekId id = 999;
    c.mux().send(Peek{id, 7, 1, std::vector<Row>{Row::pack_one(Datum::from_int32(5))}, MapFilterProject::identity(2)});
    const PeekResponse built = c.wait_peek(id);
    REQUIRE(built.kind == PeekResponse::Kind::kRows);
    REQUIRE(built.rows.size() == 1);
  }
  // 500k rows of over 200 bytes: more than 100 MB of indexed data (resident,
  // or spilled when the compute tests run under a memory budget).
  const auto parts = c.mux().publications().parts(7);
  REQUIRE(parts);
  std::uint64_t updates = 0, resident = 0;
  for (const auto& part : *parts) {
    const auto snapshot = part.oks->snapshot();
    updates += snapshot->update_count();
    for (const auto& batch : snapshot->batches) resident += batch->memory_bytes();
  }
  REQUIRE(updates == static_cast<std::uint64_t>(kRows));
  INFO("index resident bytes " << resident);

  // Freed memory the allocator still holds would absorb (and hide) copies.
  malloc_trim(0);
  REQUIRE(reset_peak_rss());
  const std::size_t baseline = status_bytes("VmRSS");
  std::vector<PeekId> peeks;
  for (GlobalId id = 100; id < 148; ++id) filter_nothing(c, id, 7, 1);
  for (GlobalId id = 100; id < 148; ++id) peeks.push_back(c.send_peek(id, 1, 2));
  for (const PeekId p : peeks) {
    const PeekResponse r = c.wait_peek(p);
    REQUIRE(r.kind == PeekResponse::Kind::kRows);
    CHECK(r.rows.empty());
  }
  const std::size_t peak = status_bytes("VmHWM");
  INFO("baseline RSS " << baseline << ", peak during the dataflows " << peak);
  if (resident >= 100'000'000) {
    CHECK(peak < baseline + baseline / 20);
  } else {
    // Spilled (the compute tests under a tiny budget): each walk holds the
    // blocks its cursors read back, never a batch: under 1 MB a dataflow.
    CHECK(peak < baseline + 48 * (std::size_t{1} << 20));
  }
  for (GlobalId id = 100; id < 148; ++id) c.mux().send(DropDataflow{id});
}

}  // namespace
}  // namespace tandem::compute
