// DataflowShared: what the N worker instances of one dataflow share: its
// exchange channels (by render sequence number, created by whichever worker
// asks first) and its source subscriptions (one SourceFeed per worker,
// subscribed once). Created by the runtime with the CreateDataflow command.
// Threading: any worker; one mutex, held to look up or create an entry.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
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
      : workers_(workers), waker_(std::move(waker)), inputs_(std::move(inputs)), own_inputs_(own_inputs) {}

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

 private:
  const std::size_t workers_;
  ExchangeChannel::Waker waker_;
  InputLookup inputs_;
  const bool own_inputs_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<ExchangeChannel>> channels_;
  std::map<GlobalId, std::vector<std::shared_ptr<SourceFeed>>> feeds_;
};

}  // namespace tandem::compute
