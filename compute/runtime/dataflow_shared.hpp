// DataflowShared: what the N worker instances of one dataflow share: its
// exchange channels (by render sequence number, created by whichever worker
// asks first) and its source subscriptions (one SourceFeed per worker,
// subscribed once). Created by the runtime with the CreateDataflow command.
// Heap: each worker reports the bytes its instance's arrangements hold
// (report_heap), and the first to find the sum past the description's
// heap_limit_bytes marks the dataflow failed for all (heap_failure), waking
// the others so that each answers the peeks parked on it.
// Threading: any worker; one mutex, held to look up or create an entry or
// to sum the heap reports.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "compute/dataflow/exchange.hpp"
#include "compute/runtime/input_handle.hpp"

namespace tandem::compute {

class DataflowShared {
 public:
  using InputLookup = std::function<std::shared_ptr<InputHandle>(GlobalId)>;
  // `own_inputs`: the inputs wake this runtime's workers themselves (else
  // they belong to another runtime and subscriptions pass `waker`).
  DataflowShared(std::size_t workers, ExchangeChannel::Waker waker, InputLookup inputs, bool own_inputs = true)
      : workers_(workers),
        waker_(std::move(waker)),
        inputs_(std::move(inputs)),
        own_inputs_(own_inputs),
        heap_(workers, 0) {}

  std::shared_ptr<ExchangeChannel> channel(std::size_t seq) {
    std::lock_guard lock(mutex_);
    while (channels_.size() <= seq) channels_.push_back(std::make_shared<ExchangeChannel>(workers_, waker_));
    return channels_[seq];
  }

  // This worker's feed of source `id`, or null if there is no such input.
  std::shared_ptr<SourceFeed> feed(GlobalId id, std::size_t worker) {
    std::lock_guard lock(mutex_);
    auto it = feeds_.find(id);
    if (it == feeds_.end()) {
      auto input = inputs_(id);
      if (!input) return nullptr;
      it = feeds_.emplace(id, input->subscribe(own_inputs_ ? nullptr : waker_)).first;
    }
    return it->second[worker];
  }

  // Records worker `worker`'s heap bytes; true if the sum over the workers
  // passed `limit` (non-zero), which fails the dataflow (once, for all).
  bool report_heap(std::size_t worker, std::uint64_t bytes, std::uint64_t limit) {
    bool failed_now = false;
    {
      std::lock_guard lock(mutex_);
      heap_[worker] = bytes;
      std::uint64_t total = 0;
      for (const std::uint64_t b : heap_) total += b;
      if (limit != 0 && total > limit && !heap_failed_) {
        heap_failed_ = true;
        heap_total_ = total;
        failed_now = true;
      }
    }
    if (failed_now) {
      for (std::size_t w = 0; w < workers_; ++w)
        if (w != worker) waker_(w);
    }
    return failed_now;
  }
  // The heap bytes summed when the dataflow failed, or nullopt.
  std::optional<std::uint64_t> heap_failure() const {
    std::lock_guard lock(mutex_);
    if (!heap_failed_) return std::nullopt;
    return heap_total_;
  }

 private:
  const std::size_t workers_;
  ExchangeChannel::Waker waker_;
  InputLookup inputs_;
  const bool own_inputs_;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<ExchangeChannel>> channels_;
  std::vector<std::uint64_t> heap_;
  bool heap_failed_ = false;
  std::uint64_t heap_total_ = 0;
  std::map<GlobalId, std::vector<std::shared_ptr<SourceFeed>>> feeds_;
};

}  // namespace tandem::compute
