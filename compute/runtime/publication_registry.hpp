// PublicationRegistry: the runtime's arrangement registry (DESIGN §6, §9):
// for every index export, each worker's publication of its part of the
// arrangement (oks and errs), readable from any thread.
//
// Lifecycle. Runtime::send(CreateDataflow) expects() the exports before any
// worker sees the command; each worker publish()es its part when it renders
// the dataflow; Runtime::send(DropDataflow) retract()s them before any worker
// sees the drop, so a part published late for a dropped export is ignored.
//
// Reading. parts() returns every worker's publication once all have
// published (nullopt before). The registry holds the publications, not read
// holds: a reader takes immutable TraceSnapshots and reads one only where
// since <= t < upper, which is exact however the owner compacts afterwards.
//
// Threading: any thread; one mutex, held to copy or update an entry.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "compute/arrangement/trace_publication.hpp"
#include "compute/plan/global_id.hpp"

namespace tandem::compute {

class PublicationRegistry {
 public:
  struct Part {
    std::shared_ptr<TracePublication> oks;
    std::shared_ptr<TracePublication> errs;
  };

  // `workers` parts are expected.
  void expect(GlobalId id, std::size_t workers) {
    std::lock_guard lock(mutex_);
    entries_[id] = Entry{std::vector<Part>(workers), 0};
  }
  void publish(GlobalId id, std::size_t worker, Part part) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(id);
    if (it == entries_.end() || worker >= it->second.parts.size() || it->second.parts[worker].oks != nullptr) return;
    it->second.parts[worker] = std::move(part);
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

 private:
  struct Entry {
    std::vector<Part> parts;
    std::size_t published = 0;
  };
  mutable std::mutex mutex_;
  std::unordered_map<GlobalId, Entry> entries_;
};

}  // namespace tandem::compute
