// Worker: an interactive worker's reads of the indexes its publisher
// exports: standing holds, parked peeks woken by dirty ids, and
// the shared imports of one-shot dataflows. See worker.hpp.
#include <string>

#include "compute/logging/log_variant.hpp"
#include "compute/runtime/worker.hpp"

namespace tandem::compute {
namespace {

Status compacted(Timestamp since, Timestamp time) {
  return Status::error(sqlstate::kSnapshotTooOld, "Arrangement compaction frontier (" + std::to_string(since) +
                                                      ") is beyond the time of the attempted read (" +
                                                      std::to_string(time) + ")");
}

bool is_log(GlobalId id) { return logging::log_variant_of(id).has_value(); }

}  // namespace

void Worker::hold_published(HoldPublished& hold) {
  if (!hold.oks.valid() || !hold.errs.valid()) return;  // the publisher dropped it first
  published_[hold.id] = Published{std::move(hold.oks), std::move(hold.errs)};
}

void Worker::release_published(GlobalId id) {
  published_.erase(id);
  auto p = parked_published_.find(id);
  if (p == parked_published_.end()) return;
  for (Parked& parked : p->second) {
    peer_->registry->unwatch(id, index_);
    peeks_->error(parked.peek.uuid,
                  Status::error(sqlstate::kUndefinedObject, "index " + std::to_string(id) + " was dropped"));
  }
  parked_published_.erase(p);
}

// Handles on this worker's part of published index `id`, held at `as_of`:
// copies of the standing hold, or (a log index, which the publisher
// compacts itself) a new hold where the publisher has not compacted past.
std::optional<SharedIndex> Worker::shared_index(GlobalId id, Timestamp as_of) {
  SharedIndex shared;
  if (auto it = published_.find(id); it != published_.end()) {
    if (as_of < it->second.oks.since()) return std::nullopt;
    shared.oks = it->second.oks;
    shared.errs = it->second.errs;
    shared.oks.set_logical_compaction(as_of);
    shared.errs.set_logical_compaction(as_of);
    return shared;
  }
  if (!is_log(id)) return std::nullopt;
  auto parts = peer_->registry->placeholders(id);
  if (!parts || index_ >= parts->size()) return std::nullopt;
  shared.oks = TraceHandle::try_acquire((*parts)[index_].oks, as_of);
  shared.errs = TraceHandle::try_acquire((*parts)[index_].errs, as_of);
  if (!shared.oks.valid() || !shared.errs.valid()) return std::nullopt;
  // Logs are complete only up to the publisher's last flush: ask for one
  // past as_of now, and read what is there if the publisher is busy.
  peer_->request_logs(index_, as_of);
  shared.read_unsealed = [this, as_of] { return stale_log_read_ok(as_of); };
  return shared;
}

void Worker::peek_published(Peek peek) {
  const GlobalId target = peek.target;
  auto held = shared_index(target, peek.time);
  if (!held) {
    auto it = published_.find(target);
    if (it != published_.end()) {
      peeks_->error(peek.uuid, compacted(it->second.oks.since(), peek.time));
    } else if (peer_->registry->placeholders(target)) {
      peeks_->error(peek.uuid, compacted(peer_->registry->placeholders(target)->at(index_).oks->snapshot()->since,
                                         peek.time));
    } else {
      peeks_->error(peek.uuid,
                    Status::error(sqlstate::kUndefinedObject, "index " + std::to_string(target) + " does not exist"));
    }
    return;
  }
  Parked parked{std::move(peek), std::move(held->oks), std::move(held->errs)};
  // Watch before looking, so an advance in between is not missed.
  peer_->registry->watch(target, index_);
  if (try_answer_published(parked)) {
    peer_->registry->unwatch(target, index_);
    return;
  }
  parked_published_[target].push_back(std::move(parked));
}

bool Worker::try_answer_published(Parked& parked) {
  auto oks = parked.oks_hold.snapshot();
  auto errs = parked.errs_hold.snapshot();
  const Timestamp t = parked.peek.time;
  const bool sealed = oks->upper > t && errs->upper > t;
  // An unsealed log read waits for the flush it asked for, unless the
  // publisher is inside a step: then it reads the last completed one.
  if (!sealed && !(is_log(parked.peek.target) && stale_log_read_ok(t))) return false;
  answer(parked, std::move(oks), std::move(errs));
  return true;
}

bool Worker::stale_log_read_ok(Timestamp time) {
  const StepStart started = peer_->request_logs(index_, time);
  if (!started) return false;  // the publisher flushes at its next step boundary, soon
  const auto at = *started + kStaleLogReadAfter;
  if (std::chrono::steady_clock::now() >= at) return true;
  if (!recheck_at_ || at < *recheck_at_) recheck_at_ = at;
  return false;
}

void Worker::recheck_dirty(const std::vector<GlobalId>& dirty) {
  for (const GlobalId id : dirty) {
    auto p = parked_published_.find(id);
    if (p == parked_published_.end()) continue;
    std::erase_if(p->second, [&](Parked& parked) {
      if (!try_answer_published(parked)) return false;
      peer_->registry->unwatch(id, index_);
      return true;
    });
    if (p->second.empty()) parked_published_.erase(p);
  }
}

void Worker::unwatch_done_imports(Installed& installed) {
  std::erase_if(installed.shared_imports, [&](const auto& import) {
    if (!import.second->done()) return false;
    peer_->registry->unwatch(import.first, index_);
    return true;
  });
}

}  // namespace tandem::compute
