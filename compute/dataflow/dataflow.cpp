#include "compute/dataflow/dataflow.hpp"

#include <cassert>
#include <chrono>

namespace tandem::compute {

std::size_t Dataflow::find(const Operator* op) const {
  for (std::size_t i = 0; i < operators_.size(); ++i)
    if (operators_[i].get() == op) return i;
  assert(false && "input operator not in this dataflow");
  return 0;
}

namespace {

void append(std::vector<Update>& to, std::vector<Update>& from, bool move) {
  if (move && to.empty()) {
    to.swap(from);
    return;
  }
  to.reserve(to.size() + from.size());
  if (move) {
    for (Update& u : from) to.push_back(std::move(u));
  } else {
    to.insert(to.end(), from.begin(), from.end());
  }
}

// Drained buffers keep at most this many updates' capacity between steps,
// so an idle or finished dataflow holds no chunk-sized memory (48
// concurrent peek dataflows walking a large index must not each keep a
// chunk's worth of buffers).
constexpr std::size_t kRetainedCapacity = 1024;

void release_if_drained(std::vector<Update>& updates) {
  if (updates.empty() && updates.capacity() > kRetainedCapacity) std::vector<Update>().swap(updates);
}

}  // namespace

bool Dataflow::step() {
  bool moved = false;
  for (std::size_t i = 0; i < operators_.size(); ++i) {
    Operator& op = *operators_[i];
    if (timed_) {
      const auto start = std::chrono::steady_clock::now();
      op.step();
      elapsed_ns_[i] += static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    } else {
      op.step();
    }
    for (std::size_t p = 0; p < op.input_count(); ++p) {
      release_if_drained(op.input(p).pending.oks);
      release_if_drained(op.input(p).pending.errs);
    }
    Stream& out = op.output();
    moved |= !out.empty();
    const auto& consumers = consumers_[i];
    for (std::size_t c = 0; c < consumers.size(); ++c) {
      InputPort& port = operators_[consumers[c].op]->input(consumers[c].port);
      const bool last = c + 1 == consumers.size();
      append(port.pending.oks, out.oks, last);
      append(port.pending.errs, out.errs, last);
      port.frontier = std::max(port.frontier, op.frontier());
    }
    out.oks.clear();
    out.errs.clear();
    release_if_drained(out.oks);
    release_if_drained(out.errs);
  }
  return moved;
}

}  // namespace tandem::compute
