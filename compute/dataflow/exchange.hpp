// Exchange: moves keyed updates between the N workers of a runtime so that
// all updates with the same key meet on one worker (hash_row(key) % N), the
// boundary before every arrangement.
//
// Protocol. A channel has one mailbox per receiving worker. A sender appends
// its updates for each receiver and, in the same critical section, its new
// frontier; a receiver's frontier is the least frontier announced by all N
// senders. Because data and frontier travel together through one FIFO
// mailbox, a receiver that sees frontier f from every sender has every
// update with time < f. Error updates are not exchanged: they stay with the
// worker that produced them.
// After a send that changed a mailbox, the receiver's waker is called (a
// worker's condition variable), so receivers sleep until there is work.
//
// Threading: ExchangeChannel is shared by the N workers; each mailbox has its
// own mutex, held only to move vectors. ExchangeSendOp/ExchangeRecvOp belong
// to one worker each.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "compute/dataflow/operator.hpp"

namespace tandem::compute {

class ExchangeChannel {
 public:
  using Waker = std::function<void(std::size_t worker)>;
  ExchangeChannel(std::size_t workers, Waker waker);

  // Routes `oks` by key hash, `errs` to the sender itself, and announces
  // `frontier` for `from` to every receiver.
  void send(std::size_t from, std::vector<Update>&& oks, std::vector<Update>&& errs, Timestamp frontier);
  // Moves everything received by `to` into *into; returns the receiver's
  // frontier (least announced over senders).
  Timestamp receive(std::size_t to, Stream* into);

  std::size_t workers() const { return mailboxes_.size(); }

 private:
  struct Mailbox {
    std::mutex mutex;
    Stream stream;
    std::vector<Timestamp> frontiers;  // per sender
  };
  std::vector<std::unique_ptr<Mailbox>> mailboxes_;
  std::vector<Timestamp> sent_frontier_;  // per sender; touched only by that sender
  Waker waker_;
};

class ExchangeSendOp final : public Operator {
 public:
  ExchangeSendOp(std::shared_ptr<ExchangeChannel> channel, std::size_t worker)
      : Operator("ExchangeSend", 1), channel_(std::move(channel)), worker_(worker) {}
  void step() override;

 private:
  std::shared_ptr<ExchangeChannel> channel_;
  std::size_t worker_;
  Timestamp announced_ = kMinTimestamp;
};

class ExchangeRecvOp final : public Operator {
 public:
  ExchangeRecvOp(std::shared_ptr<ExchangeChannel> channel, std::size_t worker)
      : Operator("ExchangeRecv", 0), channel_(std::move(channel)), worker_(worker) {}
  void step() override { advance_frontier(channel_->receive(worker_, &out_)); }

 private:
  std::shared_ptr<ExchangeChannel> channel_;
  std::size_t worker_;
};

}  // namespace tandem::compute
