// Reads of spilled arrangements run off the worker: a
// fast-path walk that would read spilled blocks back goes to the offload
// pool before it begins and answers what the resident walk answered, while
// one over cached blocks stays inline; a worker answering a peek over
// spilled batches leaves the walk to the pool and goes on answering other
// reads meanwhile; a CancelPeek reaches the walk on the pool.
#include <catch2/catch.hpp>


#include "compute/arrangement/spill_probe.hpp"
#include "compute/testing/harness.hpp"
#include "compute/testing/offload_gate.hpp"
#include "compute/testing/spill_budget.hpp"

namespace tandem::compute {
namespace {

using testing::answer_of;
using testing::Gate;
using testing::Harness;
using testing::key;
using testing::row2;
using testing::source;
auto rows_of(const PeekResponse& r) { return testing::row_multiset(r); }

constexpr int kRows = 20000;

// Index `index` over (k, -k) for k < kRows, sealed and published at time 1.
void install_index(Harness& h, GlobalId index) {
  h.install(source(1), index);
  Peek probe{0, index, 1, std::vector<Row>{key(1)}, MapFilterProject::identity(2)};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!h.runtime().peek_if_ready(probe, 0)) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

std::unique_ptr<Harness> spillable(std::shared_ptr<OffloadPool> pool) {
  RuntimeOptions options;
  options.workers = 2;
  options.offload_pool = std::move(pool);
  auto h = std::make_unique<Harness>(std::move(options), std::vector<GlobalId>{1});
  for (int k = 0; k < kRows; ++k) h->update(1, row2(k, -k), 1, 1);
  h->advance_all(2);
  install_index(*h, 7);
  return h;
}

bool spilled_everywhere(Runtime& rt, GlobalId id) {
  auto parts = rt.published(id);
  REQUIRE(parts.has_value());
  for (const auto& part : *parts) {
    for (const BatchPtr& batch : part.oks->snapshot()->batches) {
      if (!batch->is_empty() && !batch->storage()->spilled()) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("a fast-path walk that would page spilled blocks goes to the pool at once", "[offload][spill]") {
  testing::SpillBudget spill(0);  // unlimited until the test lowers it
  auto pool = std::make_shared<OffloadPool>(OffloadPool::Options{1, 8});
  auto h = spillable(pool);
  const Peek lookup{0, 7, 1, std::vector<Row>{key(5), key(12345), key(kRows + 9)}, MapFilterProject::identity(2)};
  const Peek scan{0, 7, 1, std::nullopt, MapFilterProject::identity(2)};
  const std::size_t budget = 100000;  // more than the index: resident reads stay inline
  auto resident_lookup = h->runtime().walk_if_ready(lookup, budget, true);
  auto resident_scan = h->runtime().walk_if_ready(scan, budget, true);
  REQUIRE(resident_lookup.has_value());
  REQUIRE(resident_scan.has_value());
  REQUIRE(resident_lookup->response.has_value());
  REQUIRE(resident_scan->response.has_value());
  CHECK(rows_of(*resident_lookup->response).size() == 2);
  CHECK(rows_of(*resident_scan->response).size() == kRows);

  spill.budget().set_limit(1);  // every batch spilled, none of its blocks cached
  REQUIRE(spilled_everywhere(h->runtime(), 7));

  for (const Peek* peek : {&lookup, &scan}) {
    INFO((peek->literal_keys ? "lookup" : "scan"));
    const auto& resident = peek->literal_keys ? *resident_lookup->response : *resident_scan->response;
    const std::uint64_t misses = spill.budget().stats().cache.misses;
    auto cold = h->runtime().walk_if_ready(*peek, budget, true);
    REQUIRE(cold.has_value());
    REQUIRE(cold->offloaded != nullptr);  // not a block read on this thread
    CHECK_FALSE(cold->response.has_value());
    auto answer = answer_of(cold->offloaded);
    REQUIRE(answer.kind == PeekResponse::Kind::kRows);
    CHECK(rows_of(answer) == rows_of(resident));
    CHECK(spill.budget().stats().cache.misses > misses);  // the pool read them back
    // Its blocks are cached now: the same read walks inline, without I/O.
    auto warm = h->runtime().walk_if_ready(*peek, budget, true);
    REQUIRE(warm.has_value());
    REQUIRE(warm->response.has_value());
    CHECK(rows_of(*warm->response) == rows_of(resident));
  }
}

TEST_CASE("a worker leaves a walk over spilled batches to the pool and keeps answering", "[offload][spill]") {
  // A cache smaller than the index: a full scan never stays cached.
  testing::SpillBudget spill(0, 64 * 1024);
  auto pool = std::make_shared<OffloadPool>(OffloadPool::Options{1, 8});
  auto h = spillable(pool);
  const auto resident = rows_of(h->peek(7, 1, 2));
  REQUIRE(resident.size() == kRows);
  spill.budget().set_limit(1);
  REQUIRE(spilled_everywhere(h->runtime(), 7));
  spill.budget().set_limit(0);
  install_index(*h, 8);  // resident: built after the limit was lifted
  REQUIRE_FALSE(spilled_everywhere(h->runtime(), 8));

  SECTION("answered from the pool while the workers answer another read") {
    Gate gate;
    gate.close(*pool);
    const PeekId spilled_read = h->send_peek(7, 1, 2);
    // The workers are free: a read of the resident index answers now.
    CHECK(rows_of(h->peek(8, 1, 2)) == resident);
    CHECK_FALSE(h->answered(spilled_read));  // its walk waits behind the gate
    gate.open();
    auto answer = h->wait_peek(spilled_read);
    REQUIRE(answer.kind == PeekResponse::Kind::kRows);
    CHECK(rows_of(answer) == resident);
  }
  SECTION("canceled on the pool") {
    Gate gate;
    gate.close(*pool);
    const PeekId spilled_read = h->send_peek(7, 1, 2);
    h->runtime().send(CancelPeek{spilled_read});
    CHECK(rows_of(h->peek(8, 1, 2)) == resident);  // the cancel was processed
    gate.open();
    CHECK(h->wait_peek(spilled_read).kind == PeekResponse::Kind::kCanceled);
  }
}

TEST_CASE("would_page looks at the blocks a walk reads, from fences and the cache only", "[spill]") {
  testing::SpillBudget spill(0);
  auto h = spillable(nullptr);
  auto parts = h->runtime().published(7);
  REQUIRE(parts.has_value());
  std::vector<BatchPtr> batches;  // every worker's part
  for (const auto& part : *parts) {
    for (const BatchPtr& b : part.oks->snapshot()->batches) batches.push_back(b);
  }
  const std::string low(key(0).bytes());
  std::vector<std::string_view> keys{low};
  CHECK_FALSE(would_page(batches, nullptr));  // resident
  spill.budget().set_limit(1);
  spill.budget().set_limit(0);
  const std::uint64_t lookups = spill.budget().stats().cache.hits + spill.budget().stats().cache.misses;
  CHECK(would_page(batches, nullptr));
  CHECK(would_page(batches, &keys));
  CHECK(spill.budget().stats().cache.hits + spill.budget().stats().cache.misses == lookups);  // nothing counted
  // Read the lowest key's block in: a lookup of it no longer pages, a scan still does.
  Peek lookup{0, 7, 1, std::vector<Row>{key(0)}, MapFilterProject::identity(2)};
  REQUIRE(h->runtime().peek_if_ready(lookup, 0).has_value());
  CHECK_FALSE(would_page(batches, &keys));
  CHECK(would_page(batches, nullptr));
}

}  // namespace tandem::compute
