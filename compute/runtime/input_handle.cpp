#include "compute/runtime/input_handle.hpp"

#include <cassert>

namespace tandem::compute {

void InputHandle::send(Row row, Timestamp time, Diff diff) {
  std::lock_guard lock(mutex_);
  assert(time >= frontier_);
  buffered_.push_back(Update{{}, std::move(row), time, diff});
}

Timestamp InputHandle::frontier() const {
  std::lock_guard lock(mutex_);
  return frontier_;
}

void InputHandle::send_batch(std::vector<Update> updates) {
  std::lock_guard lock(mutex_);
  if (buffered_.empty()) {
    buffered_ = std::move(updates);
    return;
  }
  buffered_.insert(buffered_.end(), std::make_move_iterator(updates.begin()), std::make_move_iterator(updates.end()));
}

void InputHandle::advance_to(Timestamp frontier) {
  {
    std::lock_guard lock(mutex_);
    assert(frontier >= frontier_);
    frontier_ = std::max(frontier_, frontier);
    std::vector<Update> released;
    bool all_released = true;
    for (const Update& u : buffered_) all_released = all_released && u.time < frontier_;
    if (all_released) {
      released = std::move(buffered_);
      buffered_.clear();
    } else {
      std::vector<Update> kept;
      for (Update& u : buffered_) (u.time < frontier_ ? released : kept).push_back(std::move(u));
      buffered_ = std::move(kept);
    }
    // Partition by worker only for live subscriptions.
    std::erase_if(subscribers_, [](const auto& subscription) {
      for (const auto& w : subscription) {
        if (!w.expired()) return false;
      }
      return true;
    });
    if (!subscribers_.empty() && !released.empty()) {
      std::vector<std::vector<Update>> parts(workers_);
      for (const Update& u : released) parts[worker_of(u)].push_back(u);
      for (auto& subscription : subscribers_) {
        for (std::size_t w = 0; w < workers_; ++w) {
          if (auto feed = subscription[w].lock()) feed->push(std::vector<Update>(parts[w]), frontier_);
        }
      }
    } else {
      for (auto& subscription : subscribers_) {
        for (std::size_t w = 0; w < workers_; ++w) {
          if (auto feed = subscription[w].lock()) feed->push({}, frontier_);
        }
      }
    }
    if (history_.empty()) {
      history_ = std::move(released);
    } else {
      history_.insert(history_.end(), std::make_move_iterator(released.begin()), std::make_move_iterator(released.end()));
    }
  }
  for (std::size_t w = 0; w < workers_; ++w) waker_(w);
}

std::vector<std::shared_ptr<SourceFeed>> InputHandle::subscribe() {
  std::lock_guard lock(mutex_);
  std::vector<std::vector<Update>> parts(workers_);
  for (const Update& u : history_) parts[worker_of(u)].push_back(u);
  std::vector<std::shared_ptr<SourceFeed>> feeds;
  std::vector<std::weak_ptr<SourceFeed>> weak;
  for (std::size_t w = 0; w < workers_; ++w) {
    feeds.push_back(std::make_shared<SourceFeed>());
    feeds.back()->push(std::move(parts[w]), frontier_);
    weak.push_back(feeds.back());
  }
  subscribers_.push_back(std::move(weak));
  return feeds;
}

}  // namespace tandem::compute
