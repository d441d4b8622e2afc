// InputHandle: released updates reach live and late subscribers exactly
// once, by time, and chunks shared between inputs are never modified.

#include "compute/runtime/input_handle.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace tandem;
using namespace tandem::compute;

namespace {

Update update(int v, Timestamp t, Diff d = 1) { return Update{{}, Row::pack_one(Datum::from_int32(v)), t, d}; }

// Everything the feeds of one subscription hold: (row, time) -> diff, and
// the lowest frontier.
struct Drained {
  std::map<std::pair<std::string, Timestamp>, Diff> updates;
  Timestamp frontier = kMaxTimestamp;
};

Drained drain(const std::vector<std::shared_ptr<SourceFeed>>& feeds) {
  Drained out;
  for (const auto& feed : feeds) {
    std::vector<UpdateChunk> oks, errs;
    out.frontier = std::min(out.frontier, feed->drain(&oks, &errs));
    for (const auto& chunk : oks) {
      if (!chunk) continue;
      for (const Update& u : *chunk) out.updates[{std::string(u.val.bytes()), u.time}] += u.diff;
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
