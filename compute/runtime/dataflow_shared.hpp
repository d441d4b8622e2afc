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
#include "compute/runtime/publication_registry.hpp"

namespace tandem::compute {

class DataflowShared {
 public:
  using InputLookup = std::function<std::shared_ptr<InputHandle>(GlobalId)>;
  DataflowShared(std::size_t workers, ExchangeChannel::Waker waker, InputLookup inputs)
      : workers_(workers), waker_(std::move(waker)), inputs_(std::move(inputs)) {}

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
      it = feeds_.emplace(id, input->subscribe()).first;
    }
    return it->second[worker];
  }

  // Where workers publish the dataflow's index exports (set by the runtime).
  PublicationRegistry* publications = nullptr;

 private:
  const std::size_t workers_;
  ExchangeChannel::Waker waker_;
  InputLookup inputs_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<ExchangeChannel>> channels_;
  std::map<GlobalId, std::vector<std::shared_ptr<SourceFeed>>> feeds_;
};

}  // namespace tandem::compute
