// PublicationRegistry: a runtime's arrangement registry:
// for every index export, each worker's publication of its part of the
// arrangement (oks and errs), readable from any thread.
//
// Lifecycle. expect() makes the export's publications before any worker
// sees its CreateDataflow: empty placeholders, which readers (the
// interactive runtime's standing holds and imports) may hold at once. Each
// worker's trace adopts its part in place when it renders the dataflow and
// then publish()es it; retract() (before any worker sees the drop) forgets
// the export, so a part published late for a dropped export is ignored.
//
// Reading. parts() returns every worker's publication once all have
// adopted theirs (nullopt before); placeholders() returns them at once. The
// registry holds publications, not read holds: a reader takes immutable
// TraceSnapshots and reads one only where since <= t < upper, which is
// exact however the owner compacts afterwards, or takes a hold of its own.
//
// Wakeups. A reader on another runtime
// watch()es an (export, worker) it waits on; the owning worker calls
// advanced() after a step moved the export's published upper, and the
// registry calls the watcher's callback (outside its lock) only if someone
// watches. A watcher registers before it checks the upper, and the owner
// publishes before it calls advanced(), so no advance is missed.
//
// Threading: any thread; one mutex, held to copy or update an entry.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "compute/arrangement/trace_handle.hpp"
#include "compute/arrangement/trace_publication.hpp"
#include "compute/plan/global_id.hpp"

namespace tandem::compute {

class PublicationRegistry {
 public:
  struct Part {
    std::shared_ptr<TracePublication> oks;
    std::shared_ptr<TracePublication> errs;
  };
  // Since holds at `time` on the data and error trace of every part: what a
  // read walked off the runtime's thread keeps while it reads.
  static std::vector<TraceHandle> hold_all(const std::vector<Part>& parts, Timestamp time) {
    std::vector<TraceHandle> holds;
    holds.reserve(parts.size() * 2);
    for (const Part& part : parts) {
      holds.push_back(TraceHandle::hold(part.oks, time));
      holds.push_back(TraceHandle::hold(part.errs, time));
    }
    return holds;
  }
  using Watcher = std::function<void(std::size_t worker, GlobalId id)>;

  // `workers` parts are expected; a second expect of the same id keeps the
  // first's placeholders.
  void expect(GlobalId id, std::size_t workers) {
    std::lock_guard lock(mutex_);
    if (entries_.count(id) != 0) return;
    Entry entry;
    for (std::size_t w = 0; w < workers; ++w) {
      entry.parts.push_back(Part{placeholder(), placeholder()});
      entry.adopted.push_back(false);
      entry.watchers.push_back(0);
    }
    entries_.emplace(id, std::move(entry));
  }
  // Worker `worker`'s trace adopted its placeholders.
  void publish(GlobalId id, std::size_t worker) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(id);
    if (it == entries_.end() || worker >= it->second.parts.size() || it->second.adopted[worker]) return;
    it->second.adopted[worker] = true;
    ++it->second.published;
  }
  void retract(GlobalId id) {
    std::lock_guard lock(mutex_);
    entries_.erase(id);
  }
  std::optional<std::vector<Part>> parts(GlobalId id) const {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(id);
    if (it == entries_.end() || it->second.published != it->second.parts.size()) return std::nullopt;
    return it->second.parts;
  }
  std::optional<std::vector<Part>> placeholders(GlobalId id) const {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return std::nullopt;
    return it->second.parts;
  }

  // The callback for every watch (set once, before any watch).
  void set_watcher(Watcher watcher) {
    std::lock_guard lock(mutex_);
    watcher_ = std::move(watcher);
  }
  // Counted: each watch() is undone by one unwatch().
  void watch(GlobalId id, std::size_t worker) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(id);
    if (it != entries_.end() && worker < it->second.watchers.size()) ++it->second.watchers[worker];
  }
  void unwatch(GlobalId id, std::size_t worker) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(id);
    if (it != entries_.end() && worker < it->second.watchers.size() && it->second.watchers[worker] > 0)
      --it->second.watchers[worker];
  }
  // The owner's part `worker` of `id` published a higher upper.
  void advanced(GlobalId id, std::size_t worker) {
    Watcher watcher;
    {
      std::lock_guard lock(mutex_);
      if (!watcher_) return;
      auto it = entries_.find(id);
      if (it == entries_.end() || worker >= it->second.watchers.size() || it->second.watchers[worker] == 0) return;
      watcher = watcher_;
    }
    watcher(worker, id);
  }

 private:
  static std::shared_ptr<TracePublication> placeholder() {
    return std::make_shared<TracePublication>(std::make_shared<const TraceSnapshot>());
  }
  struct Entry {
    std::vector<Part> parts;
    std::vector<bool> adopted;
    std::vector<std::uint32_t> watchers;
    std::size_t published = 0;
  };
  mutable std::mutex mutex_;
  std::unordered_map<GlobalId, Entry> entries_;
  Watcher watcher_;
};

}  // namespace tandem::compute
