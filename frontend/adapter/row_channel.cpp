// RowChannel (row_stream.hpp). The consumer installs its resumption under
// the channel's lock, so a push that lands between "nothing buffered" and
// "suspended" still wakes it: no wakeup is lost and nothing polls.
#include <atomic>

#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "frontend/adapter/row_stream.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;

std::shared_ptr<RowChannel> RowChannel::make(std::size_t capacity, bool live) {
  return std::shared_ptr<RowChannel>(new RowChannel(capacity, live));
}

RowChannel::Push RowChannel::push(std::vector<Row>& rows) {
  std::function<void()> waiter;
  {
    std::lock_guard lock(mu_);
    if (end_) return Push::kClosed;
    if (rows_.size() + rows.size() > capacity_) return Push::kFull;
    for (Row& r : rows) rows_.push_back(std::move(r));
    rows.clear();
    waiter = std::move(waiter_);
    waiter_ = nullptr;
  }
  wake(std::move(waiter));
  return Push::kAccepted;
}

void RowChannel::finish(Status status) {
  std::function<void()> waiter;
  {
    std::lock_guard lock(mu_);
    if (end_) return;
    end_ = std::move(status);
    on_abandon_ = nullptr;
    waiter = std::move(waiter_);
    waiter_ = nullptr;
  }
  wake(std::move(waiter));
}

void RowChannel::abandon(Status why) {
  std::function<void()> waiter;
  std::function<void()> on_abandon;
  {
    std::lock_guard lock(mu_);
    if (!end_) {
      end_ = std::move(why);
      on_abandon = std::move(on_abandon_);
    }
    on_abandon_ = nullptr;
    // What the client will never read is freed now.
    rows_.clear();
    waiter = std::move(waiter_);
    waiter_ = nullptr;
  }
  if (on_abandon) on_abandon();
  wake(std::move(waiter));
}

void RowChannel::set_on_abandon(std::function<void()> fn) {
  std::lock_guard lock(mu_);
  on_abandon_ = std::move(fn);
}

std::size_t RowChannel::buffered() const {
  std::lock_guard lock(mu_);
  return rows_.size();
}

bool RowChannel::ended() const {
  std::lock_guard lock(mu_);
  return end_returned_;
}

void RowChannel::wake(std::function<void()> waiter) {
  if (waiter) waiter();
}

std::optional<Result<std::vector<Row>>> RowChannel::take_locked(std::size_t max_rows) {
  if (!rows_.empty()) {
    std::size_t n = max_rows == 0 ? rows_.size() : std::min(max_rows, rows_.size());
    std::vector<Row> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      out.push_back(std::move(rows_.front()));
      rows_.pop_front();
    }
    return Result<std::vector<Row>>(std::move(out));
  }
  if (!end_ || end_returned_) {
    if (end_returned_) return Result<std::vector<Row>>(std::vector<Row>{});
    return std::nullopt;
  }
  end_returned_ = true;
  if (!end_->is_ok()) return Result<std::vector<Row>>(*end_);
  return Result<std::vector<Row>>(std::vector<Row>{});
}

awaitable<Result<std::vector<Row>>> RowChannel::next(std::size_t max_rows, std::optional<Clock::time_point> deadline) {
  auto executor = co_await asio::this_coro::executor;
  auto self = shared_from_this();
  for (;;) {
    {
      std::lock_guard lock(mu_);
      if (auto r = take_locked(max_rows)) co_return std::move(*r);
    }
    if (deadline && Clock::now() >= *deadline) co_return std::vector<Row>{};
    // Suspend until a push, the end, or the deadline resumes us (once).
    // The initiation is a named local: GCC 12 destroys a capturing lambda
    // temporary inside a co_await expression twice.
    auto initiation = [self, executor, deadline](auto completion) {
          using Completion = decltype(completion);
          struct Resumption {
            std::atomic<bool> fired{false};
            std::optional<Completion> handler;
            std::shared_ptr<asio::steady_timer> timer;
          };
          auto state = std::make_shared<Resumption>();
          state->handler.emplace(std::move(completion));
          auto resume = [state, executor] {
            if (state->fired.exchange(true)) return;
            asio::post(executor, [state] {
              if (state->timer) state->timer->cancel();
              auto h = std::move(*state->handler);
              state->handler.reset();
              state->timer.reset();
              std::move(h)();
            });
          };
          if (deadline) {
            state->timer = std::make_shared<asio::steady_timer>(executor, *deadline);
            state->timer->async_wait([resume](const boost::system::error_code&) { resume(); });
          }
          bool ready = false;
          {
            std::lock_guard lock(self->mu_);
            ready = !self->rows_.empty() || (self->end_ && !self->end_returned_) || self->end_returned_;
            if (!ready) self->waiter_ = resume;
          }
          if (ready) resume();
        };
    co_await asio::async_initiate<decltype(use_awaitable), void()>(std::move(initiation), use_awaitable);
  }
}

}  // namespace tandem::frontend
