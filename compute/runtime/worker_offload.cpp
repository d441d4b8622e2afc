// Worker: a parked peek's walk that would read spilled blocks back goes to
// the offload pool instead of running on this worker's thread
// (spill_probe.hpp): the worker goes on stepping and answering other
// reads while the pool pages the blocks in. The walk holds its snapshots and
// copies of the peek's since holds until it ends, and answers through the
// runtime's OffloadedAnswers (the PeekTracker until the runtime stops).
// CancelPeek reaches it through its ticket. See worker.hpp.
#include "compute/runtime/offloaded_walk.hpp"
#include "compute/runtime/worker.hpp"

namespace tandem::compute {
namespace {

// Positions a pool thread walks between two checks for cancellation.
constexpr std::size_t kSlice = 1024;

}  // namespace

bool Worker::offload_answer(const Parked& parked, const std::shared_ptr<const TraceSnapshot>& oks,
                            const std::shared_ptr<const TraceSnapshot>& errs) {
  if (offload_pool_ == nullptr || offloaded_answers_ == nullptr) return false;
  std::vector<IndexScan::Part> parts;
  parts.emplace_back(oks, errs);
  if (!IndexScan::would_page(parked.peek, parts)) return false;
  auto walk = std::make_shared<OffloadedWalk>();
  walk->peek = parked.peek;
  walk->parts = std::move(parts);
  walk->response.uuid = parked.peek.uuid;
  walk->holds = {parked.oks_hold, parked.errs_hold};
  auto ticket = submit_walk(*offload_pool_, walk, kSlice);
  if (ticket == nullptr) return false;  // the pool is full: answered here
  std::erase_if(offloaded_, [](const auto& entry) { return entry.second.expired(); });
  offloaded_[parked.peek.uuid] = ticket;
  ticket->on_done([answers = offloaded_answers_, id = parked.peek.uuid](PeekResponse response) {
    answers->deliver(id, std::move(response));
  });
  return true;
}

bool Worker::cancel_offloaded(PeekId id) {
  auto it = offloaded_.find(id);
  if (it == offloaded_.end()) return false;
  if (auto ticket = it->second.lock()) ticket->cancel();
  offloaded_.erase(it);
  return true;
}

}  // namespace tandem::compute
