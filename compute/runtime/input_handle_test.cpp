// InputHandle: released updates reach live and late subscribers exactly
// once, by time, and chunks shared between inputs are never modified.

#include "compute/runtime/input_handle.hpp"

#include <catch2/catch.hpp>

#include <map>

#include "compute/arrangement/cursor.hpp"

using namespace tandem;
using namespace tandem::compute;

namespace {

Update update(int v, Timestamp t, Diff d = 1) { return Update{{}, Row::pack_one(Datum::from_int32(v)), t, d}; }

// Everything the feeds of one subscription hold: (row, time) -> diff, and
// the lowest frontier.
struct Drained {
  std::map<std::pair<std::string, Timestamp>, Diff> updates;
  Timestamp frontier = kMaxTimestamp;
  std::size_t history_batches = 0;
};

Drained drain(const std::vector<std::shared_ptr<SourceFeed>>& feeds) {
  Drained out;
  for (const auto& feed : feeds) {
    std::vector<UpdateChunk> oks, errs;
    std::vector<BatchPtr> history;
    out.frontier = std::min(out.frontier, feed->drain(&oks, &errs, &history));
    for (const auto& chunk : oks) {
      if (!chunk) continue;
      for (const Update& u : *chunk) out.updates[{std::string(u.val.bytes()), u.time}] += u.diff;
    }
    for (const BatchPtr& batch : history) {
      ++out.history_batches;
      for (BatchCursor c(batch); c.key_valid(); c.step_key()) {
        for (; c.val_valid(); c.step_val())
          c.for_each_time([&](Timestamp t, Diff d) { out.updates[{std::string(c.key()), t}] += d; });
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("a chunk shared by inputs of one and of two workers reaches each once, by time") {
  std::vector<std::size_t> wakes(2, 0);
  InputHandle one(1, [&](std::size_t) { ++wakes[0]; });
  InputHandle two(2, [&](std::size_t) { ++wakes[1]; });
  // Nothing subscribed yet: releases wake no worker.
  auto early = std::make_shared<const std::vector<Update>>(std::vector<Update>{update(1, 5), update(2, 5)});
  one.send_shared(early);
  two.send_shared(early);
  one.advance_to(6);
  two.advance_to(6);
  CHECK(wakes == std::vector<std::size_t>{0, 0});
  auto live_one = one.subscribe();
  auto live_two = two.subscribe();
  CHECK(drain(live_one).updates.size() == 2);
  CHECK(drain(live_two).updates.size() == 2);

  // A chunk that straddles the next frontier is released by time.
  auto straddling = std::make_shared<const std::vector<Update>>(
      std::vector<Update>{update(3, 6), update(4, 9), update(5, 6, -1)});
  one.send_shared(straddling);
  two.send_shared(straddling);
  one.send(Row::pack_one(Datum::from_int32(6)), 7, 1);
  one.advance_to(8);
  two.advance_to(8);
  CHECK(wakes[0] == 1);
  CHECK(wakes[1] == 2);  // one wake per worker with a live feed
  Drained a = drain(live_one);
  CHECK(a.frontier == 8);
  CHECK(a.updates.size() == 3);  // 3@6, -5@6, 6@7; not 4@9
  Drained b = drain(live_two);
  CHECK(b.updates.size() == 2);
  one.advance_to(10);
  two.advance_to(10);
  CHECK(drain(live_one).updates.size() == 1);
  CHECK(drain(live_two).updates.size() == 1);
  // The shared chunks are as they were sent.
  CHECK(early->size() == 2);
  CHECK(straddling->size() == 3);
  CHECK((*straddling)[1].time == 9);

  // A late subscriber gets the whole history once.
  Drained late = drain(one.subscribe());
  CHECK(late.frontier == 10);
  CHECK(late.updates.size() == 6);
  Drained late_two = drain(two.subscribe());
  CHECK(late_two.updates.size() == 5);
}

TEST_CASE("a large history is kept as batches and reaches a late subscriber whole") {
  for (const std::size_t workers : {std::size_t{1}, std::size_t{2}}) {
    InputHandle input(workers, [](std::size_t) {});
    std::map<std::pair<std::string, Timestamp>, Diff> expected;
    const int n = static_cast<int>(3 * workers * InputHandle::kHistoryBatchUpdates);
    for (Timestamp t = 1; t <= 6; ++t) {
      std::vector<Update> updates;
      for (int i = 0; i < n / 6; ++i) {
        // Some rows are retracted later: consolidation must keep the times.
        const int v = i % 2 == 0 ? i : i + static_cast<int>(t) * n;
        updates.push_back(update(v, t, t == 6 && i % 4 == 0 ? -1 : 1));
      }
      for (const Update& u : updates) expected[{std::string(u.val.bytes()), u.time}] += u.diff;
      input.send_batch(std::move(updates));
      input.advance_to(t + 1);
    }
    input.send(update(-1, 7).val, 7, 1);
    input.advance_to(8);
    expected[{std::string(update(-1, 7).val.bytes()), 7}] += 1;
    Drained late = drain(input.subscribe());
    CHECK(late.history_batches > 0);
    CHECK(late.frontier == 8);
    std::erase_if(late.updates, [](const auto& e) { return e.second == 0; });
    CHECK(late.updates == expected);
  }
}

TEST_CASE("a snapshot loaded in pieces becomes one history batch per worker at its time") {
  for (const std::size_t workers : {std::size_t{1}, std::size_t{2}}) {
    InputHandle input(workers, [](std::size_t) {});
    std::map<std::pair<std::string, Timestamp>, Diff> expected;
    {
      SnapshotLoader loader = input.load_snapshot(9);
      // Repeated and retracted rows, in no order: the batch consolidates.
      for (int i = 0; i < 5000; ++i) {
        const Row row = update((i * 7919) % 3000, 0).val;
        const Diff diff = i % 5 == 4 ? -1 : 1;
        loader.push(row.ref(), diff);
        expected[{std::string(row.bytes()), 9}] += diff;
      }
      loader.finish();
    }
    std::erase_if(expected, [](const auto& e) { return e.second == 0; });
    CHECK(input.frontier() == 10);
    // Later writes follow the snapshot as usual.
    input.send(update(-1, 12).val, 12, 1);
    input.advance_to(13);
    expected[{std::string(update(-1, 12).val.bytes()), 12}] += 1;
    Drained late = drain(input.subscribe());
    CHECK(late.history_batches == workers);
    CHECK(late.frontier == 13);
    CHECK(late.updates == expected);
  }
}

TEST_CASE("a write loaded in pieces into a live input reaches its subscribers and later ones once, at its time") {
  for (const std::size_t workers : {std::size_t{1}, std::size_t{2}}) {
    std::size_t wakes = 0;
    InputHandle input(workers, [&](std::size_t) { ++wakes; });
    std::map<std::pair<std::string, Timestamp>, Diff> expected;
    // Small writes before: released as chunks, not yet history batches.
    for (Timestamp t = 3; t < 6; ++t) {
      input.send(update(-static_cast<int>(t), t).val, t, 1);
      expected[{std::string(update(-static_cast<int>(t), t).val.bytes()), t}] += 1;
      input.advance_to(t + 1);
    }
    auto live = input.subscribe();
    Drained before = drain(live);
    CHECK(before.frontier == 6);
    wakes = 0;
    input.advance_to(9);
    {
      SnapshotLoader loader = input.load_snapshot(9);
      for (int i = 0; i < 5000; ++i) {
        const Row row = update(i, 0).val;
        loader.push(row.ref(), 1);
        expected[{std::string(row.bytes()), 9}] += 1;
      }
      loader.finish();
    }
    CHECK(input.frontier() == 10);
    CHECK(wakes >= 1);
    // The live subscriber gets the write (and only it) as history batches.
    Drained after = drain(live);
    CHECK(after.frontier == 10);
    CHECK(after.history_batches == workers);
    CHECK(after.updates.size() == 5000);
    for (const auto& [key, diff] : after.updates) CHECK(key.second == 9);
    // Later writes follow; a late subscriber reads everything once.
    input.send(update(-1, 12).val, 12, 1);
    input.advance_to(13);
    expected[{std::string(update(-1, 12).val.bytes()), 12}] += 1;
    Drained late = drain(input.subscribe());
    CHECK(late.frontier == 13);
    CHECK(late.updates == expected);
  }
}
