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

void InputHandle::send_errors(std::vector<Update> errors) {
  std::lock_guard lock(mutex_);
  for (Update& u : errors) buffered_errs_.push_back(std::move(u));
}

namespace {

// Moves the updates of `buffered` with time < frontier out.
std::vector<Update> release_before(std::vector<Update>& buffered, Timestamp frontier) {
  std::vector<Update> released;
  bool all_released = true;
  for (const Update& u : buffered) all_released = all_released && u.time < frontier;
  if (all_released) {
    released = std::move(buffered);
    buffered.clear();
    return released;
  }
  std::vector<Update> kept;
  for (Update& u : buffered) (u.time < frontier ? released : kept).push_back(std::move(u));
  buffered = std::move(kept);
  return released;
}

void append_to(std::vector<Update>& to, std::vector<Update>&& from) {
  if (to.empty()) {
    to = std::move(from);
    return;
  }
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

}  // namespace

void InputHandle::advance_to(Timestamp frontier) {
  {
    std::lock_guard lock(mutex_);
    assert(frontier >= frontier_);
    frontier_ = std::max(frontier_, frontier);
    std::vector<Update> released = release_before(buffered_, frontier_);
    std::vector<Update> released_errs = buffered_errs_.empty() ? std::vector<Update>{}
                                                               : release_before(buffered_errs_, frontier_);
    // Partition by worker only for live subscriptions.
    std::erase_if(subscribers_, [](const auto& subscription) {
      for (const auto& w : subscription) {
        if (!w.expired()) return false;
      }
      return true;
    });
    if (!subscribers_.empty() && (!released.empty() || !released_errs.empty())) {
      std::vector<std::vector<Update>> parts(workers_);
      std::vector<std::vector<Update>> err_parts(workers_);
      for (const Update& u : released) parts[worker_of(u)].push_back(u);
      for (const Update& u : released_errs) err_parts[worker_of(u)].push_back(u);
      for (auto& subscription : subscribers_) {
        for (std::size_t w = 0; w < workers_; ++w) {
          if (auto feed = subscription[w].lock())
            feed->push(std::vector<Update>(parts[w]), frontier_, std::vector<Update>(err_parts[w]));
        }
      }
    } else {
      for (auto& subscription : subscribers_) {
        for (std::size_t w = 0; w < workers_; ++w) {
          if (auto feed = subscription[w].lock()) feed->push({}, frontier_);
        }
      }
    }
    append_to(history_, std::move(released));
    append_to(history_errs_, std::move(released_errs));
  }
  for (std::size_t w = 0; w < workers_; ++w) waker_(w);
}

std::vector<std::shared_ptr<SourceFeed>> InputHandle::subscribe() {
  std::lock_guard lock(mutex_);
  std::vector<std::vector<Update>> parts(workers_);
  std::vector<std::vector<Update>> err_parts(workers_);
  for (const Update& u : history_) parts[worker_of(u)].push_back(u);
  for (const Update& u : history_errs_) err_parts[worker_of(u)].push_back(u);
  std::vector<std::shared_ptr<SourceFeed>> feeds;
  std::vector<std::weak_ptr<SourceFeed>> weak;
  for (std::size_t w = 0; w < workers_; ++w) {
    feeds.push_back(std::make_shared<SourceFeed>());
    feeds.back()->push(std::move(parts[w]), frontier_, std::move(err_parts[w]));
    weak.push_back(feeds.back());
  }
  subscribers_.push_back(std::move(weak));
  return feeds;
}

}  // namespace tandem::compute
