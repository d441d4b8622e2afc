#include "compute/dataflow/exchange.hpp"

#include <algorithm>

namespace tandem::compute {

ExchangeChannel::ExchangeChannel(std::size_t workers, Waker waker)
    : sent_frontier_(workers, kMinTimestamp), waker_(std::move(waker)) {
  for (std::size_t i = 0; i < workers; ++i) {
    mailboxes_.push_back(std::make_unique<Mailbox>());
    mailboxes_.back()->frontiers.assign(workers, kMinTimestamp);
  }
}

void ExchangeChannel::send(std::size_t from, std::vector<Update>&& oks, std::vector<Update>&& errs,
                           Timestamp frontier) {
  const std::size_t n = mailboxes_.size();
  std::vector<std::vector<Update>> parts(n);
  if (n == 1) {
    parts[0] = std::move(oks);
  } else {
    for (Update& u : oks) parts[hash_row(u.key) % n].push_back(std::move(u));
  }
  const bool frontier_moved = frontier > sent_frontier_[from];
  sent_frontier_[from] = std::max(sent_frontier_[from], frontier);
  for (std::size_t to = 0; to < n; ++to) {
    const bool has_data = !parts[to].empty() || (to == from && !errs.empty());
    if (!has_data && !frontier_moved) continue;
    {
      std::lock_guard lock(mailboxes_[to]->mutex);
      Mailbox& box = *mailboxes_[to];
      if (box.stream.oks.empty()) {
        box.stream.oks.swap(parts[to]);
      } else {
        for (Update& u : parts[to]) box.stream.oks.push_back(std::move(u));
      }
      if (to == from)
        for (Update& u : errs) box.stream.errs.push_back(std::move(u));
      box.frontiers[from] = sent_frontier_[from];
    }
    if (to != from && waker_) waker_(to);
  }
}

Timestamp ExchangeChannel::receive(std::size_t to, Stream* into) {
  Mailbox& box = *mailboxes_[to];
  std::lock_guard lock(box.mutex);
  if (into->oks.empty()) {
    into->oks.swap(box.stream.oks);
  } else {
    for (Update& u : box.stream.oks) into->oks.push_back(std::move(u));
    box.stream.oks.clear();
  }
  for (Update& u : box.stream.errs) into->errs.push_back(std::move(u));
  box.stream.errs.clear();
  return *std::min_element(box.frontiers.begin(), box.frontiers.end());
}

void ExchangeSendOp::step() {
  InputPort& in = inputs_[0];
  if (in.pending.empty() && in.frontier <= announced_) return;
  announced_ = std::max(announced_, in.frontier);
  channel_->send(worker_, std::move(in.pending.oks), std::move(in.pending.errs), in.frontier);
  in.pending.oks.clear();
  in.pending.errs.clear();
  advance_frontier(in.frontier);
}

}  // namespace tandem::compute
