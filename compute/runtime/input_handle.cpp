#include "compute/runtime/input_handle.hpp"

#include <algorithm>
#include <cassert>

#include "compute/arrangement/batcher.hpp"
#include "compute/arrangement/merger.hpp"

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

void InputHandle::send_shared(Chunk updates) {
  if (!updates || updates->empty()) return;
  std::lock_guard lock(mutex_);
  if (workers_ == 1 && buffered_.empty()) {
    shared_.push_back(std::move(updates));
    return;
  }
  buffered_.insert(buffered_.end(), updates->begin(), updates->end());
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

}  // namespace

std::vector<InputHandle::Chunk> InputHandle::partition(std::vector<Update>&& updates) const {
  std::vector<Chunk> parts(workers_);
  if (updates.empty()) return parts;
  if (workers_ == 1) {
    parts[0] = std::make_shared<const std::vector<Update>>(std::move(updates));
    return parts;
  }
  std::vector<std::vector<Update>> split(workers_);
  for (Update& u : updates) split[worker_of(u)].push_back(std::move(u));
  for (std::size_t w = 0; w < workers_; ++w) {
    if (!split[w].empty()) parts[w] = std::make_shared<const std::vector<Update>>(std::move(split[w]));
  }
  return parts;
}

void InputHandle::append_history(std::size_t worker, Chunk chunk) {
  std::vector<Chunk>& chunks = history_[worker];
  append_chunk(chunks, std::move(chunk));
  // Chunk sizes decrease from the oldest: the large ones are a prefix.
  std::size_t large = 0;
  while (large < chunks.size() && chunks[large]->size() >= kHistoryBatchUpdates) ++large;
  for (std::size_t i = 0; i < large; ++i) {
    // Released chunks follow each other in time: each starts at or after
    // the previous one's upper.
    Timestamp greatest = kMinTimestamp;
    for (const Update& u : *chunks[i]) greatest = std::max(greatest, u.time);
    Batcher batcher(history_upper_[worker]);
    for (const Update& u : *chunks[i]) batcher.push(u.val.bytes(), {}, u.time, u.diff);
    history_upper_[worker] = greatest + 1;
    append_merging(history_batches_[worker], batcher.seal(greatest + 1));
  }
  chunks.erase(chunks.begin(), chunks.begin() + static_cast<std::ptrdiff_t>(large));
}

void InputHandle::append_chunk(std::vector<Chunk>& chunks, Chunk chunk) {
  if (!chunk) return;
  chunks.push_back(std::move(chunk));
  // Feeds may still be reading the chunks, so a merge copies into a new one
  // (each update is copied O(log n) times over its life, only when many
  // small releases pile up).
  while (chunks.size() >= 2 && chunks.back()->size() >= chunks[chunks.size() - 2]->size()) {
    const Chunk& a = chunks[chunks.size() - 2];
    const Chunk& b = chunks.back();
    auto merged = std::make_shared<std::vector<Update>>();
    merged->reserve(a->size() + b->size());
    merged->insert(merged->end(), a->begin(), a->end());
    merged->insert(merged->end(), b->begin(), b->end());
    chunks.pop_back();
    chunks.back() = std::move(merged);
  }
}

void InputHandle::advance_to(Timestamp frontier) {
  std::vector<bool> fed;
  std::vector<std::pair<Waker, std::size_t>> others;  // workers of other runtimes to wake
  {
    std::lock_guard lock(mutex_);
    assert(frontier >= frontier_);
    frontier_ = std::max(frontier_, frontier);
    // Every write advances every table: an idle table nothing reads costs
    // only this.
    if (subscribers_.empty() && shared_.empty() && buffered_.empty() && buffered_errs_.empty()) return;
    fed.assign(workers_, false);
    // Shared chunks wholly before the frontier go out as they are; any
    // other is copied into buffered_ first, to be released by time.
    std::vector<Chunk> shared;
    for (Chunk& c : shared_) {
      bool before = std::all_of(c->begin(), c->end(), [&](const Update& u) { return u.time < frontier_; });
      if (before) {
        shared.push_back(std::move(c));
      } else {
        buffered_.insert(buffered_.end(), c->begin(), c->end());
      }
    }
    shared_.clear();
    std::vector<Chunk> oks = partition(release_before(buffered_, frontier_));
    std::vector<Chunk> errs =
        partition(buffered_errs_.empty() ? std::vector<Update>{} : release_before(buffered_errs_, frontier_));
    std::erase_if(subscribers_, [](const Subscription& subscription) {
      for (const auto& w : subscription.feeds) {
        if (!w.expired()) return false;
      }
      return true;
    });
    for (Subscription& subscription : subscribers_) {
      for (std::size_t w = 0; w < workers_; ++w) {
        if (auto feed = subscription.feeds[w].lock()) {
          for (const Chunk& c : shared) feed->push(c, nullptr, frontier_);  // workers_ == 1
          feed->push(oks[w], errs[w], frontier_);
          if (subscription.waker) {
            others.emplace_back(subscription.waker, w);
          } else {
            fed[w] = true;
          }
        }
      }
    }
    for (Chunk& c : shared) append_history(0, std::move(c));
    for (std::size_t w = 0; w < workers_; ++w) {
      append_history(w, std::move(oks[w]));
      append_chunk(history_errs_[w], std::move(errs[w]));
    }
  }
  // Only a worker with a live feed has anything to do: a table nothing reads
  // yet only grows its history, and costs no wake-up per write.
  for (std::size_t w = 0; w < workers_; ++w) {
    if (fed[w]) waker_(w);
  }
  for (auto& [waker, w] : others) waker(w);
}

std::vector<std::shared_ptr<SourceFeed>> InputHandle::subscribe(Waker waker) {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<SourceFeed>> feeds;
  std::vector<std::weak_ptr<SourceFeed>> weak;
  for (std::size_t w = 0; w < workers_; ++w) {
    auto feed = std::make_shared<SourceFeed>();
    feed->push_history(history_batches_[w]);
    for (const Chunk& c : history_[w]) feed->push(c, nullptr, frontier_);
    for (const Chunk& c : history_errs_[w]) feed->push(nullptr, c, frontier_);
    feed->push(nullptr, nullptr, frontier_);
    weak.push_back(feed);
    feeds.push_back(std::move(feed));
  }
  subscribers_.push_back(Subscription{std::move(waker), std::move(weak)});
  return feeds;
}

void InputHandle::seal_history(std::size_t worker) {
  std::vector<Chunk>& chunks = history_[worker];
  if (chunks.empty()) return;
  // Released chunks are all before the frontier.
  Batcher batcher(history_upper_[worker]);
  for (const Chunk& c : chunks) {
    for (const Update& u : *c) batcher.push(u.val.bytes(), {}, u.time, u.diff);
  }
  append_merging(history_batches_[worker], batcher.seal(frontier_));
  history_upper_[worker] = frontier_;
  chunks.clear();
}

SnapshotLoader::SnapshotLoader(InputHandle& input, Timestamp time) : input_(input), time_(time) {
  std::lock_guard lock(input.mutex_);
  assert(input.buffered_.empty() && input.shared_.empty() && time >= input.frontier_);
  for (std::size_t w = 0; w < input.workers_; ++w) {
    input.seal_history(w);
    batchers_.emplace_back(input.history_upper_[w]);
  }
}

void SnapshotLoader::push(RowRef row, Diff diff) {
  batchers_[hash_row(row) % batchers_.size()].push(row.bytes(), {}, time_, diff);
}

void SnapshotLoader::finish() {
  std::vector<BatchPtr> sealed;
  for (Batcher& batcher : batchers_) sealed.push_back(batcher.seal(time_ + 1));
  std::vector<bool> fed(sealed.size(), false);
  std::vector<std::pair<InputHandle::Waker, std::size_t>> others;
  {
    std::lock_guard lock(input_.mutex_);
    input_.frontier_ = std::max(input_.frontier_, time_ + 1);
    for (auto& subscription : input_.subscribers_) {
      for (std::size_t w = 0; w < sealed.size(); ++w) {
        auto feed = subscription.feeds[w].lock();
        if (!feed) continue;
        feed->push_history({sealed[w]});
        feed->push(nullptr, nullptr, input_.frontier_);
        if (subscription.waker) {
          others.emplace_back(subscription.waker, w);
        } else {
          fed[w] = true;
        }
      }
    }
    for (std::size_t w = 0; w < sealed.size(); ++w) {
      append_merging(input_.history_batches_[w], std::move(sealed[w]));
      input_.history_upper_[w] = time_ + 1;
    }
  }
  for (std::size_t w = 0; w < fed.size(); ++w) {
    if (fed[w]) input_.waker_(w);
  }
  for (auto& [waker, w] : others) waker(w);
}

}  // namespace tandem::compute
