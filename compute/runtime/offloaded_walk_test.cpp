// The offload pool and Runtime::walk_if_ready: the pool
// runs jobs in order, refuses beyond its bound and abandons what it never
// started; a walk cut at the inline budget and finished on the pool answers
// exactly what the whole walk answers inline; a canceled walk answers
// Canceled and gives back its since holds.
#include <catch2/catch.hpp>

#include <set>

#include "compute/testing/harness.hpp"
#include "compute/testing/offload_gate.hpp"

namespace tandem::compute {
namespace {

using testing::answer_of;
using testing::Gate;
using testing::Harness;
using testing::row2;
using testing::source;

using testing::key;
auto rows_of(const PeekResponse& r) { return testing::row_multiset(r); }

// Key 0 holds `skewed` rows (every third twice, and one retracted later),
// keys 1..20 one row each; time 1 is sealed and published.
std::unique_ptr<Harness> skewed_index(RuntimeOptions options, int skewed) {
  auto h = std::make_unique<Harness>(std::move(options), std::vector<GlobalId>{1});
  h->install(source(1), 7);
  for (int v = 0; v < skewed; ++v) h->update(1, row2(0, v), 1, v % 3 == 0 ? 2 : 1);
  for (int k = 1; k <= 20; ++k) h->update(1, row2(k, -k), 1, 1);
  h->update(1, row2(0, 5), 2, -1);  // not visible at time 1
  h->advance_all(3);
  Peek probe{0, 7, 1, std::vector<Row>{key(1)}, MapFilterProject::identity(2)};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!h->runtime().peek_if_ready(probe, 0)) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return h;
}

std::size_t holds_on(Runtime& rt, GlobalId id) {
  auto parts = rt.published(id);
  REQUIRE(parts.has_value());
  std::size_t n = 0;
  for (const auto& p : *parts) n += p.oks->hold_count() + p.errs->hold_count();
  return n;
}

}  // namespace

TEST_CASE("the offload pool runs jobs in order, refuses past its bound, abandons at shutdown", "[offload]") {
  std::vector<int> ran;
  std::mutex ran_mutex;
  Gate gate, second;
  bool abandoned_seen = false;
  auto pool = std::make_unique<OffloadPool>(OffloadPool::Options{1, 2});
  CHECK(pool->threads() == 1);
  OffloadPool::Job blocker = gate.job();
  REQUIRE(pool->try_submit(blocker));
  gate.wait_entered();
  CHECK(pool->running() == 1);
  for (int i = 0; i < 2; ++i) {
    OffloadPool::Job job = [&, i](bool) {
      std::lock_guard lock(ran_mutex);
      ran.push_back(i);
    };
    REQUIRE(pool->try_submit(job));
  }
  CHECK(pool->queued() == 2);
  OffloadPool::Job refused = [](bool) {};
  CHECK_FALSE(pool->try_submit(refused));
  CHECK(refused != nullptr);  // left to the caller
  gate.open();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    {
      std::lock_guard lock(ran_mutex);
      if (ran.size() == 2) break;
    }
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(ran == std::vector<int>{0, 1});

  // A job still queued when the pool stops runs once, abandoned.
  OffloadPool::Job hold = second.job();
  REQUIRE(pool->try_submit(hold));
  second.wait_entered();
  int runs = 0;
  OffloadPool::Job queued = [&](bool abandoned) {
    ++runs;
    abandoned_seen = abandoned;
  };
  REQUIRE(pool->try_submit(queued));
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    second.open();
  });
  pool.reset();  // waits for the held job, which opener lets go
  opener.join();
  CHECK(runs == 1);
  CHECK(abandoned_seen);
}

TEST_CASE("a walk cut at the inline budget and finished on the pool answers the whole walk", "[offload]") {
  auto pool = std::make_shared<OffloadPool>();
  for (const std::size_t workers : {1, 2}) {
    RuntimeOptions options;
    options.workers = workers;
    options.offload_pool = pool;
    auto h = skewed_index(options, 3000);
    const std::size_t holds_before = holds_on(h->runtime(), 7);
    Peek lookup{0, 7, 1, std::vector<Row>{key(0), key(5), key(99)}, MapFilterProject::identity(2)};
    auto whole = h->runtime().peek_if_ready(lookup, 0);  // offload off: walked here to its end
    REQUIRE(whole.has_value());
    REQUIRE(whole->kind == PeekResponse::Kind::kRows);
    CHECK(rows_of(*whole).size() == 3000 + 1000 + 1);
    Peek scan{0, 7, 1, std::nullopt, MapFilterProject::identity(2)};
    const auto full = rows_of(h->peek(7, 1, 2));
    for (const std::size_t budget : {0, 1, 7, 1024, 100000}) {
      INFO("workers " << workers << " budget " << budget);
      auto ready = h->runtime().walk_if_ready(lookup, budget, true);
      REQUIRE(ready.has_value());
      CHECK((ready->offloaded == nullptr) == (budget >= 100000));
      auto got = ready->response ? *ready->response : answer_of(ready->offloaded);
      REQUIRE(got.kind == PeekResponse::Kind::kRows);
      CHECK(rows_of(got) == rows_of(*whole));

      auto scanned = h->runtime().walk_if_ready(scan, budget, true);
      REQUIRE(scanned.has_value());
      auto all = scanned->response ? *scanned->response : answer_of(scanned->offloaded);
      REQUIRE(all.kind == PeekResponse::Kind::kRows);
      CHECK(rows_of(all) == full);
    }
    // Offload off: a lookup is answered here whatever its size.
    auto inline_only = h->runtime().walk_if_ready(lookup, 1, false);
    REQUIRE(inline_only.has_value());
    REQUIRE(inline_only->response.has_value());
    CHECK(rows_of(*inline_only->response) == rows_of(*whole));
    // Every offloaded walk gave its holds back.
    CHECK(holds_on(h->runtime(), 7) == holds_before);
  }
}

TEST_CASE("canceling an offloaded walk answers Canceled and releases its holds", "[offload]") {
  auto pool = std::make_shared<OffloadPool>(OffloadPool::Options{1, 8});
  RuntimeOptions options;
  options.workers = 2;
  options.offload_pool = pool;
  auto h = skewed_index(options, 5000);
  const std::size_t before = holds_on(h->runtime(), 7);
  Peek lookup{0, 7, 1, std::vector<Row>{key(0)}, MapFilterProject::identity(2)};

  SECTION("while queued") {
    Gate gate;
    OffloadPool::Job blocker = gate.job();
    REQUIRE(pool->try_submit(blocker));
    gate.wait_entered();
    auto ready = h->runtime().walk_if_ready(lookup, 16, true);
    REQUIRE(ready.has_value());
    REQUIRE(ready->offloaded != nullptr);
    CHECK(holds_on(h->runtime(), 7) == before + 2 * 2);  // oks and errs of both parts
    ready->offloaded->cancel();
    gate.open();
    auto answer = answer_of(ready->offloaded);
    CHECK(answer.kind == PeekResponse::Kind::kCanceled);
    CHECK(answer.rows.empty());
    CHECK(holds_on(h->runtime(), 7) == before);
  }
  SECTION("while running or done") {
    auto ready = h->runtime().walk_if_ready(lookup, 1, true);
    REQUIRE(ready.has_value());
    REQUIRE(ready->offloaded != nullptr);
    ready->offloaded->cancel();
    auto answer = answer_of(ready->offloaded);
    CHECK((answer.kind == PeekResponse::Kind::kCanceled || answer.kind == PeekResponse::Kind::kRows));
    CHECK(holds_on(h->runtime(), 7) == before);
  }
}

}  // namespace tandem::compute
