// Reads of spilled arrangements run off the worker (issue 9 item 5): a
// fast-path walk that would read spilled blocks back goes to the offload
// pool before it begins and answers what the resident walk answered, while
// one over cached blocks stays inline.
#include <catch2/catch.hpp>

#include <condition_variable>
#include <future>

#include "compute/arrangement/spill_probe.hpp"
#include "compute/testing/harness.hpp"
#include "compute/testing/spill_budget.hpp"

namespace tandem::compute {
namespace {

using testing::Harness;
using testing::key;
using testing::row2;
using testing::source;
auto rows_of(const PeekResponse& r) { return testing::row_multiset(r); }

constexpr int kRows = 20000;

// Holds the pool's one thread until open().
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool is_open = false;
  bool entered = false;
  OffloadPool::Job job() {
    return [this](bool) {
      std::unique_lock lock(m);
      entered = true;
      cv.notify_all();
      cv.wait(lock, [this] { return is_open; });
    };
  }
  void close(OffloadPool& pool) {
    OffloadPool::Job blocker = job();
    REQUIRE(pool.try_submit(blocker));
    std::unique_lock lock(m);
    cv.wait(lock, [this] { return entered; });
  }
  void open() {
    std::lock_guard lock(m);
    is_open = true;
    cv.notify_all();
  }
};

PeekResponse answer_of(const std::shared_ptr<OffloadedPeek>& ticket) {
  std::promise<PeekResponse> promise;
  auto future = promise.get_future();
  ticket->on_done([&promise](PeekResponse r) { promise.set_value(std::move(r)); });
  REQUIRE(future.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  return future.get();
}

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
